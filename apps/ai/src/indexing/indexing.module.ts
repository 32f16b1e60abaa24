import { type DynamicModule, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { AiConfig, AiRole } from '#config';
import { SPEC_FORMATS, type SpecFormats, SpecThreads } from '#api-specs';
import { AI_CONFIG } from '../ai.constants.js';
import { ReindexModule } from '../reindex/reindex.module.js';
import { IndexingMetrics } from './indexing-metrics.js';
import { IndexingQueueModule } from '../index-store/indexing-queue.module.js';
import { IndexStoreModule } from '../index-store/index-store.module.js';
import { IndexingProcessor } from './indexing.processor.js';

@Module({})
export class IndexingModule implements OnApplicationShutdown {
  /**
   * The worker runs in the `worker` and `all` roles. Re-index runs come with this module in every
   * role (their admin API in `api` and `all`): the worker finishes their items.
   */
  static forRoot(role: AiRole): DynamicModule {
    return {
      module: IndexingModule,
      imports: [IndexingQueueModule, IndexStoreModule, ReindexModule.forRoot(role)],
      providers: [
        IndexingMetrics,
        {
          provide: SpecThreads,
          // A thread per job the worker runs at once: parsing never waits for another job's.
          useFactory: (config: AiConfig, formats: SpecFormats) =>
            new SpecThreads({ threads: config.indexingConcurrency, queue: 64, timeoutMs: config.specTimeoutMs, formats: formats.all }),
          inject: [AI_CONFIG, SPEC_FORMATS],
        },
        ...(role === 'api' ? [] : [IndexingProcessor]),
      ],
    };
  }

  constructor(private readonly specs: SpecThreads) {}

  async onApplicationShutdown(): Promise<void> {
    await this.specs.close();
  }
}
