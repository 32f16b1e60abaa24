import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { INDEXING_QUEUE } from '#contracts';

/**
 * The indexing queue, registered once: re-index runs and the model switch add jobs to it, the
 * worker takes them. One `Queue` (one Redis connection, whose errors `ReindexService` reports).
 */
@Module({ imports: [BullModule.registerQueue({ name: INDEXING_QUEUE })], exports: [BullModule] })
export class IndexingQueueModule {}
