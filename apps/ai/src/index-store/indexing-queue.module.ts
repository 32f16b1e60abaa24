import { BullModule, InjectQueue } from '@nestjs/bullmq';
import { type BeforeApplicationShutdown, Injectable, Module } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { closeQueueWithoutRedis } from '#config';
import { INDEXING_QUEUE } from '#contracts';

/**
 * Closes the queue before @nestjs/bullmq would: a job added while Redis was away waits in the
 * connection, and BullMQ's close would wait behind it for as long as Redis stays away.
 */
@Injectable()
class IndexingQueueCloser implements BeforeApplicationShutdown {
  constructor(@InjectQueue(INDEXING_QUEUE) private readonly queue: Queue) {}

  async beforeApplicationShutdown(): Promise<void> {
    await closeQueueWithoutRedis(this.queue);
  }
}

/**
 * The indexing queue, registered once: re-index runs and the model switch add jobs to it, the
 * worker takes them. One `Queue` (one Redis connection, whose errors `ReindexService` reports).
 */
@Module({ imports: [BullModule.registerQueue({ name: INDEXING_QUEUE })], providers: [IndexingQueueCloser], exports: [BullModule] })
export class IndexingQueueModule {}
