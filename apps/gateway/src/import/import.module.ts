import { Module } from '@nestjs/common';
import { RegistryModule } from '../registry/registry.module.js';
import { ImportController } from './import.controller.js';
import { ImportRefreshScheduler } from './import-refresh.scheduler.js';
import { ImportService } from './import.service.js';
import { ImportSlots } from './import-slots.js';
import { SpecFetcher } from './spec-fetcher.js';

@Module({
  imports: [RegistryModule],
  controllers: [ImportController],
  providers: [ImportService, SpecFetcher, ImportSlots, ImportRefreshScheduler],
})
export class ImportModule {}
