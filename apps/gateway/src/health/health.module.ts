import { Module } from '@nestjs/common';
import { IndexingModule } from '../indexing/indexing.module.js';
import { AiClientModule } from '../ai-client/ai-client.module.js';
import { HealthController } from './health.controller.js';

@Module({
  imports: [IndexingModule, AiClientModule],
  controllers: [HealthController],
})
export class HealthModule {}
