import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiIndexingStatusEntity } from './api-indexing-status.entity.js';
import { ApiSpecsRepository } from './api-specs.repository.js';
import { IndexStoreRepository } from './index-store.repository.js';
import { StatusRepository } from './status.repository.js';
import { TableStatsService } from './table-stats.service.js';
import { VectorIndexService } from './vector-index.service.js';

/**
 * The index's tables, in every role: the chunks and word statistics with the status rows that
 * describe them (`IndexStoreRepository`), the kept spec copies, the status reads, the models'
 * vector indexes and the planner statistics. Indexing, re-index runs, the model switch, status
 * and operation details all import it; the embedding models' tables come from the global
 * `EmbeddingModelsModule`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ApiIndexingStatusEntity])],
  providers: [IndexStoreRepository, ApiSpecsRepository, StatusRepository, VectorIndexService, TableStatsService],
  exports: [IndexStoreRepository, ApiSpecsRepository, StatusRepository, VectorIndexService, TableStatsService],
})
export class IndexStoreModule {}
