import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventEntity } from './event.entity.js';
import { EventOutbox } from './event-outbox.js';
import { EventRetention } from './event-retention.js';

/** The outbox of domain events: written with each change, read by webhooks and the notifications feed. */
@Module({
  imports: [TypeOrmModule.forFeature([EventEntity])],
  providers: [EventOutbox, EventRetention],
  exports: [EventOutbox, TypeOrmModule],
})
export class EventsModule {}
