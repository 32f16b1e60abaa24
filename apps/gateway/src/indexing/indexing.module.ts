import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { INDEXING_QUEUE } from '#contracts';
import { AiClientModule } from '../proxy/ai-client.module.js';
import { ApiEntity } from '../registry/api.entity.js';
import { RegistryModule } from '../registry/registry.module.js';
import { IndexReconciler } from './index-reconciler.js';
import { IndexingListener } from './indexing.listener.js';
import { IndexingProducer } from './indexing.producer.js';
import { QueueMetrics } from './queue-metrics.js';

const indexingQueue = BullModule.registerQueue({ name: INDEXING_QUEUE });

@Module({
  imports: [indexingQueue, TypeOrmModule.forFeature([ApiEntity]), AiClientModule, RegistryModule],
  providers: [IndexingProducer, IndexingListener, IndexReconciler, QueueMetrics],
  // One queue connection per process: health checks use this one.
  exports: [indexingQueue],
})
export class IndexingModule {}
