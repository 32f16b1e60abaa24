import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { INDEXING_QUEUE } from '#contracts';
import { ApiEntity } from '../registry/api.entity.js';
import { IndexingListener } from './indexing.listener.js';
import { IndexingProducer } from './indexing.producer.js';
import { QueueMetrics } from './queue-metrics.js';

const indexingQueue = BullModule.registerQueue({ name: INDEXING_QUEUE });

@Module({
  imports: [indexingQueue, TypeOrmModule.forFeature([ApiEntity])],
  providers: [IndexingProducer, IndexingListener, QueueMetrics],
  // One queue connection per process: health checks use this one.
  exports: [indexingQueue],
})
export class IndexingModule {}
