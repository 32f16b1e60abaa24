import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AiClientModule } from '../ai-client/ai-client.module.js';
import { ConsumersModule } from '../consumers/consumers.module.js';
import { EventsModule } from '../events/events.module.js';
import { ApiEntity } from './api.entity.js';
import { ApiVersionEntity, ApiVersionRevisionEntity } from './api-version.entity.js';
import { ApiVersionsController } from './api-versions.controller.js';
import { ConsumersController } from './consumers.controller.js';
import { ConsumersService } from './consumers.service.js';
import { ApiVersionsRepository } from './api-versions.repository.js';
import { ApiVersionsService } from './api-versions.service.js';
import { LintScheduler } from './lint-scheduler.js';
import { RegistryController } from './registry.controller.js';
import { RegistryService } from './registry.service.js';
import { specAsTextMiddleware } from './spec-as-text.middleware.js';
import { SpecWork } from './spec-work.service.js';
import { SunsetNotices } from './sunset-notices.js';
import { VersionOperations } from './version-operations.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiEntity, ApiVersionEntity, ApiVersionRevisionEntity]), AiClientModule, ConsumersModule, EventsModule],
  controllers: [RegistryController, ApiVersionsController, ConsumersController],
  providers: [RegistryService, ApiVersionsService, ConsumersService, ApiVersionsRepository, LintScheduler, SpecWork, VersionOperations, SunsetNotices],
  exports: [RegistryService, ApiVersionsService, ConsumersService, ApiVersionsRepository, SpecWork, VersionOperations],
})
export class RegistryModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(specAsTextMiddleware)
      .forRoutes(
        { path: 'api-management/apis', method: RequestMethod.POST },
        { path: 'api-management/apis/:apiId', method: RequestMethod.PUT },
        { path: 'api-management/apis/:apiId/versions', method: RequestMethod.POST },
        { path: 'api-management/apis/:apiId/versions/:version', method: RequestMethod.PUT },
      );
  }
}
