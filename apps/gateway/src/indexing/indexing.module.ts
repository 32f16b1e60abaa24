import { BullModule, InjectQueue } from '@nestjs/bullmq';
import { type BeforeApplicationShutdown, Injectable, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { closeQueueWithoutRedis } from '#config';
import { INDEXING_QUEUE } from '#contracts';
import { AiClientModule } from '../ai-client/ai-client.module.js';
import { EventsModule } from '../events/events.module.js';
import { ApiEntity } from '../registry/api.entity.js';
import { RegistryModule } from '../registry/registry.module.js';
import { IndexReconciler } from './index-reconciler.js';
import { IndexingListener } from './indexing.listener.js';
import { IndexingProducer } from './indexing.producer.js';
import { QueueMetrics } from './queue-metrics.js';

const indexingQueue = BullModule.registerQueue({ name: INDEXING_QUEUE });

/**
 * Closes the queue before @nestjs/bullmq would. Its connection sends nothing while Redis is away
 * (no offline queue), so BullMQ's close cannot send QUIT either and left it reconnecting for ever.
 */
@Injectable()
class IndexingQueueCloser implements BeforeApplicationShutdown {
  constructor(@InjectQueue(INDEXING_QUEUE) private readonly queue: Queue) {}

  async beforeApplicationShutdown(): Promise<void> {
    await closeQueueWithoutRedis(this.queue);
  }
}

@Module({
  imports: [indexingQueue, TypeOrmModule.forFeature([ApiEntity]), AiClientModule, RegistryModule, EventsModule],
  providers: [IndexingProducer, IndexingListener, IndexReconciler, QueueMetrics, IndexingQueueCloser],
  // One queue connection per process: health checks use this one.
  exports: [indexingQueue],
})
export class IndexingModule {}
