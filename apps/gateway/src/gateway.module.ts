import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { type GatewayConfig, redisConnectionOptions } from '#config';
import { DatabaseModule } from '#database';
import { MetricsModule, RequestValidationPipe } from '#http';
import { SpecFormatsModule } from '#api-specs';
import { gatewayMigrations } from '../../../migrations/gateway/index.js';
import { AuthGuard } from './auth/auth.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { RateLimitGuard } from './auth/rate-limit.guard.js';
import { SharedStateModule } from './shared-state/shared-state.module.js';
import { GATEWAY_CONFIG } from './gateway.constants.js';
import { HealthModule } from './health/health.module.js';
import { ImportModule } from './import/import.module.js';
import { TreeImportModule } from './tree-import/tree-import.module.js';
import { IndexingModule } from './indexing/indexing.module.js';
import { KindsModule } from './kinds/kinds.module.js';
import { McpModule } from './mcp/mcp.module.js';
import { ProxyModule } from './proxy/proxy.module.js';
import { ApiEntity } from './registry/api.entity.js';
import { ApiVersionEntity, ApiVersionRevisionEntity } from './registry/api-version.entity.js';
import { ImportTreeEntity } from './tree-import/import-tree.entity.js';
import { EventEntity } from './events/event.entity.js';
import { EventsModule } from './events/events.module.js';
import { ConsumersModule } from './consumers/consumers.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { RegistryModule } from './registry/registry.module.js';
import { WebhookDeliveryEntity, WebhookEntity } from './webhooks/webhook.entity.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        { module: GatewayConfigModule, global: true, providers: [{ provide: GATEWAY_CONFIG, useValue: config }], exports: [GATEWAY_CONFIG] },
        DatabaseModule.forRoot({
          target: config.database,
          entities: [ApiEntity, ApiVersionEntity, ApiVersionRevisionEntity, ImportTreeEntity, EventEntity, WebhookEntity, WebhookDeliveryEntity],
          migrations: gatewayMigrations,
          migrationsTableName: 'gateway_migrations',
          leasesTable: 'platform_backend.leases',
        }),
        BullModule.forRoot({
          // A producer must fail fast when Redis is down (the outbox retries), not queue commands forever.
          connection: { ...redisConnectionOptions(config.redis.url), enableOfflineQueue: false },
          prefix: config.redis.queuePrefix,
        }),
        SharedStateModule,
        EventEmitterModule.forRoot(),
        MetricsModule.forRoot('gateway'),
        SpecFormatsModule,
        AuthModule,
        EventsModule,
        ConsumersModule,
        RegistryModule,
        NotificationsModule,
        ImportModule,
        TreeImportModule,
        KindsModule,
        IndexingModule,
        WebhooksModule,
        ProxyModule,
        McpModule,
        HealthModule,
      ],
      providers: [
        // In this order: the rate limit counts per authenticated caller.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_PIPE, useValue: new RequestValidationPipe() },
      ],
    };
  }
}

@Module({})
class GatewayConfigModule {}
