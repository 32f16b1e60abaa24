import { type MiddlewareConsumer, Module, type NestModule, type OnApplicationShutdown, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { GatewayConfig } from '#config';
import { SPEC_FORMATS, type SpecFormats, SpecThreads } from '#spec';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { AiClientModule } from '../proxy/ai-client.module.js';
import { ApiEntity } from './api.entity.js';
import { RegistryController } from './registry.controller.js';
import { RegistryService } from './registry.service.js';
import { specAsTextMiddleware } from './spec-as-text.middleware.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiEntity]), AiClientModule],
  controllers: [RegistryController],
  providers: [
    RegistryService,
    {
      provide: SpecThreads,
      // Two threads check specs (a 10 MB YAML text takes seconds); a burst beyond them waits, briefly.
      useFactory: (config: GatewayConfig, formats: SpecFormats) => new SpecThreads({ threads: 2, queue: 32, timeoutMs: config.specTimeoutMs, formats: formats.all }),
      inject: [GATEWAY_CONFIG, SPEC_FORMATS],
    },
  ],
  exports: [RegistryService],
})
export class RegistryModule implements NestModule, OnApplicationShutdown {
  constructor(private readonly specs: SpecThreads) {}

  async onApplicationShutdown(): Promise<void> {
    await this.specs.close();
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(specAsTextMiddleware)
      .forRoutes({ path: 'api-management/apis', method: RequestMethod.POST }, { path: 'api-management/apis/:apiId', method: RequestMethod.PUT });
  }
}
