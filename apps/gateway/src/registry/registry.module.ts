import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AiClientModule } from '../proxy/ai-client.module.js';
import { ApiEntity } from './api.entity.js';
import { RegistryController } from './registry.controller.js';
import { RegistryService } from './registry.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiEntity]), AiClientModule],
  controllers: [RegistryController],
  providers: [RegistryService],
  exports: [RegistryService],
})
export class RegistryModule {}
