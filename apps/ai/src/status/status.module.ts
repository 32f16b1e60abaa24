import { Module } from '@nestjs/common';
import { IndexStoreModule } from '../index-store/index-store.module.js';
import { StatusController } from './status.controller.js';
import { StatusService } from './status.service.js';

@Module({
  imports: [IndexStoreModule],
  controllers: [StatusController],
  providers: [StatusService],
})
export class StatusModule {}
