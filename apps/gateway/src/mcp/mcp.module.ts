import { Module } from '@nestjs/common';
import { AiClientModule } from '../ai-client/ai-client.module.js';
import { RegistryModule } from '../registry/registry.module.js';
import { AgentToolsService } from './agent-tools.service.js';
import { ImplicitFeedback } from './implicit-feedback.js';
import { McpController } from './mcp.controller.js';

/** Agent access: the MCP endpoint and the tools behind it. */
@Module({
  imports: [RegistryModule, AiClientModule],
  controllers: [McpController],
  providers: [AgentToolsService, ImplicitFeedback],
})
export class McpModule {}
