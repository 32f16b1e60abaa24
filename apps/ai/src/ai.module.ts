import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { type AiConfig, type EmbeddingsConfig, redisConnectionOptions } from '#config';
import { DatabaseModule } from '#database';
import { MetricsModule, RequestValidationPipe } from '#http';
import { EmbeddingsModule, type EmbeddingsModuleOptions } from '#embeddings';
import { SpecFormatsModule } from '#api-specs';
import { aiMigrations } from '../../../migrations/ai/index.js';
import { AI_CONFIG } from './ai.constants.js';
import { EmbeddingModelsModule } from './embedding-models/embedding-models.module.js';
import { FacetsModule } from './facets/facets.module.js';
import { ServiceTokenGuard } from './auth/service-token.guard.js';
import { HealthController } from './health/health.controller.js';
import { ApiIndexingStatusEntity } from './index-store/api-indexing-status.entity.js';
import { ModelSwitchModule } from './model-switch/model-switch.module.js';
import { IndexingModule } from './indexing/indexing.module.js';
import { OperationsModule } from './operations/operations.module.js';
import { SearchModule } from './search/search.module.js';
import { StatusModule } from './status/status.module.js';

@Module({})
class AiConfigModule {}

@Module({})
export class AiModule {
  static forRoot(config: AiConfig): DynamicModule {
    return {
      module: AiModule,
      imports: [
        { module: AiConfigModule, global: true, providers: [{ provide: AI_CONFIG, useValue: config }], exports: [AI_CONFIG] },
        DatabaseModule.forRoot({
          target: config.database,
          entities: [ApiIndexingStatusEntity],
          migrations: aiMigrations,
          migrationsTableName: 'ai_migrations',
          leasesTable: 'platform_ai.leases',
        }),
        EmbeddingsModule.forRoot(embeddingsOptions(config.embeddings)),
        SpecFormatsModule,
        EmbeddingModelsModule.forRoot(config.role),
        MetricsModule.forRoot('ai'),
        BullModule.forRoot({ connection: redisConnectionOptions(config.redis.url), prefix: config.redis.queuePrefix }),
        IndexingModule.forRoot(config.role),
        ...(config.role === 'api' ? [] : [ModelSwitchModule]),
        ...(config.role === 'worker' ? [] : [SearchModule, StatusModule, FacetsModule, OperationsModule]),
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_GUARD, useClass: ServiceTokenGuard },
        { provide: APP_PIPE, useValue: new RequestValidationPipe() },
      ],
    };
  }
}

/** The configured model (what identifies it, stored with its vectors) and how to reach its provider. */
function embeddingsOptions({ provider, model, dimensions, batchSize, openai }: EmbeddingsConfig): EmbeddingsModuleOptions {
  return {
    model:
      provider === 'openai'
        ? { provider, model, ...(dimensions ? { dimensions } : {}), ...(openai.baseUrl ? { baseUrl: openai.baseUrl } : {}) }
        : provider === 'hash'
          ? { provider, dimensions: dimensions ?? 512 }
          : { provider },
    runtime: { batchSize, apiKey: openai.apiKey, timeoutMs: openai.timeoutMs },
  };
}
