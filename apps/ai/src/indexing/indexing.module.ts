import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { AiConfig, AiRole } from '#config';
import { INDEXING_QUEUE } from '#contracts';
import { SPEC_FORMATS, type SpecFormats, SpecThreads } from '#spec';
import { AI_CONFIG } from '../ai.constants.js';
import { EmbeddingModelsController } from '../embedding-models/embedding-models.controller.js';
import { ModelSwitchService } from '../embedding-models/model-switch.service.js';
import { ReindexController } from '../reindex/reindex.controller.js';
import { ReindexService } from '../reindex/reindex.service.js';
import { IndexingMetrics } from './indexing-metrics.js';
import { IndexStoreService } from './index-store.service.js';
import { IndexingProcessor } from './indexing.processor.js';
import { TableStatsService } from './table-stats.service.js';
import { VectorIndexService } from './vector-index.service.js';

@Module({})
export class IndexingModule implements OnApplicationShutdown {
  /** The worker (and the model switch it drives) runs in the `worker` and `all` roles; the admin API in `api` and `all`. */
  static forRoot(role: AiRole): DynamicModule {
    return {
      module: IndexingModule,
      imports: [BullModule.registerQueue({ name: INDEXING_QUEUE })],
      controllers: role === 'worker' ? [] : [ReindexController, EmbeddingModelsController],
      providers: [
        IndexStoreService, IndexingMetrics, ReindexService, VectorIndexService, TableStatsService,
        {
          provide: SpecThreads,
          // A thread per job the worker runs at once: parsing never waits for another job's.
          useFactory: (config: AiConfig, formats: SpecFormats) =>
            new SpecThreads({ threads: config.indexingConcurrency, queue: 64, timeoutMs: config.specTimeoutMs, formats: formats.all }),
          inject: [AI_CONFIG, SPEC_FORMATS],
        },
        ...(role === 'api' ? [] : [IndexingProcessor, ModelSwitchService]),
      ],
      exports: [IndexStoreService],
    };
  }

  constructor(private readonly specs: SpecThreads) {}

  async onApplicationShutdown(): Promise<void> {
    await this.specs.close();
  }
}
