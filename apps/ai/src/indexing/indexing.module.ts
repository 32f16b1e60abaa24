import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { INDEXING_QUEUE } from '#contracts';
import { ReindexController } from '../reindex/reindex.controller.js';
import { ReindexService } from '../reindex/reindex.service.js';
import { IndexingMetrics } from './indexing-metrics.js';
import { IndexStoreService } from './index-store.service.js';
import { IndexingProcessor } from './indexing.processor.js';
import { TableStatsService } from './table-stats.service.js';
import { VectorIndexService } from './vector-index.service.js';

@Module({})
export class IndexingModule {
  /** `runWorker: false` gives an AI API without a worker, for deployments with separate workers. */
  static forRoot(options: { runWorker: boolean }): DynamicModule {
    return {
      module: IndexingModule,
      imports: [BullModule.registerQueue({ name: INDEXING_QUEUE })],
      controllers: [ReindexController],
      providers: [IndexStoreService, IndexingMetrics, ReindexService, VectorIndexService, TableStatsService, ...(options.runWorker ? [IndexingProcessor] : [])],
      exports: [IndexStoreService],
    };
  }
}
