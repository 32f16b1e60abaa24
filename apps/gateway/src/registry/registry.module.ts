import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AiClientModule } from '../proxy/ai-client.module.js';
import { ApiEntity } from './api.entity.js';
import { RegistryController } from './registry.controller.js';
import { RegistryService } from './registry.service.js';
import { specAsTextMiddleware } from './spec-as-text.middleware.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiEntity]), AiClientModule],
  controllers: [RegistryController],
  providers: [RegistryService],
  exports: [RegistryService],
})
export class RegistryModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(specAsTextMiddleware)
      .forRoutes({ path: 'api-management/apis', method: RequestMethod.POST }, { path: 'api-management/apis/:apiId', method: RequestMethod.PUT });
  }
}
