import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RegistryModule } from '../registry/registry.module.js';
import { WEBHOOK_QUEUE } from './webhooks.constants.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';
import { WebhookDeliveryEntity, WebhookEntity } from './webhook.entity.js';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor.js';
import { WebhookDispatcher, WebhookQueueWatch } from './webhook-dispatcher.js';
import { WebhookSender } from './webhook-sender.js';

/** Webhooks: registered per org, fed from the events outbox, delivered signed through a queue. */
@Module({
  imports: [BullModule.registerQueue({ name: WEBHOOK_QUEUE }), TypeOrmModule.forFeature([WebhookEntity, WebhookDeliveryEntity]), RegistryModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksRepository, WebhookSender, WebhookDispatcher, WebhookQueueWatch, WebhookDeliveryProcessor],
})
export class WebhooksModule {}
