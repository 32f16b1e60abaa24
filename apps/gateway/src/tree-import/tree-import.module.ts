import { Module } from '@nestjs/common';
import { ConsumersModule } from '../consumers/consumers.module.js';
import { EventsModule } from '../events/events.module.js';
import { RegistryModule } from '../registry/registry.module.js';
import { TreeImportController } from './tree-import.controller.js';
import { TreeImportService } from './tree-import.service.js';
import { TreeStateRepository } from './tree-state.repository.js';

@Module({
  imports: [RegistryModule, ConsumersModule, EventsModule],
  controllers: [TreeImportController],
  providers: [TreeImportService, TreeStateRepository],
})
export class TreeImportModule {}
