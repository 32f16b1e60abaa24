import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { INDEXING_QUEUE } from '#contracts';
import { ApiEntity } from '../registry/api.entity.js';
import { IndexingListener } from './indexing.listener.js';
import { IndexingProducer } from './indexing.producer.js';

@Module({
  imports: [BullModule.registerQueue({ name: INDEXING_QUEUE }), TypeOrmModule.forFeature([ApiEntity])],
  providers: [IndexingProducer, IndexingListener],
  exports: [IndexingProducer],
})
export class IndexingModule {}
