import { Module } from '@nestjs/common';
import { RegistryModule } from '../registry/registry.module.js';
import { AiClientModule } from '../ai-client/ai-client.module.js';
import { AiProxyController } from './ai-proxy.controller.js';
import { ApiOperationsController } from './api-operations.controller.js';
import { FeedbackController } from './feedback.controller.js';

@Module({
  imports: [RegistryModule, AiClientModule],
  controllers: [AiProxyController, ApiOperationsController, FeedbackController],
})
export class ProxyModule {}
