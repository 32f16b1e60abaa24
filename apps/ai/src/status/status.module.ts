import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiIndexingStatusEntity } from '../indexing/api-indexing-status.entity.js';
import { StatusController } from './status.controller.js';
import { StatusService } from './status.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiIndexingStatusEntity])],
  controllers: [StatusController],
  providers: [StatusService],
})
export class StatusModule {}
