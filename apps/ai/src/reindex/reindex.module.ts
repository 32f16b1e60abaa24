import { type DynamicModule, Module } from '@nestjs/common';
import type { AiRole } from '#config';
import { IndexingQueueModule } from '../index-store/indexing-queue.module.js';
import { IndexStoreModule } from '../index-store/index-store.module.js';
import { ReindexRunsRepository } from './reindex-runs.repository.js';
import { ReindexController } from './reindex.controller.js';
import { ReindexService } from './reindex.service.js';

/**
 * Admin re-index runs: started and followed through the admin API (the `api` and `all` roles),
 * their items finished by the indexing worker, which imports this module for `ReindexService`.
 */
@Module({})
export class ReindexModule {
  static forRoot(role: AiRole): DynamicModule {
    return {
      module: ReindexModule,
      imports: [IndexingQueueModule, IndexStoreModule],
      controllers: role === 'worker' ? [] : [ReindexController],
      providers: [ReindexService, ReindexRunsRepository],
      exports: [ReindexService],
    };
  }
}
