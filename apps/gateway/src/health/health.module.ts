import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { INDEXING_QUEUE } from '#contracts';
import { AiClientModule } from '../proxy/ai-client.module.js';
import { HealthController } from './health.controller.js';

@Module({
  imports: [BullModule.registerQueue({ name: INDEXING_QUEUE }), AiClientModule],
  controllers: [HealthController],
})
export class HealthModule {}
