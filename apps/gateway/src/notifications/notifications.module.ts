import { Module } from '@nestjs/common';
import { ConsumersModule } from '../consumers/consumers.module.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

/** Watches and the notifications feed, read from the events outbox. */
@Module({
  imports: [ConsumersModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationsRepository],
})
export class NotificationsModule {}
