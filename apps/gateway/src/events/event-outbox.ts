import { Injectable } from '@nestjs/common';
import { EventEmitter2, OnEvent } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventType } from '#contracts';
import { type DomainEvent, DomainEventsCommitted, DomainEventsRaised } from './domain-event.js';
import { EventEntity } from './event.entity.js';

const INSERT_SLICE = 1000;

/**
 * Domain events into the outbox: a change raises its events inside its transaction (`raise`),
 * the listener below writes them with the same manager, and once committed `committed` lets the
 * webhook dispatcher go (its sweep finds them anyway, after a crash in between).
 */
@Injectable()
export class EventOutbox {
  constructor(
    private readonly emitter: EventEmitter2,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Inside a transaction: the events are committed with it. */
  async raise(manager: EntityManager, events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.emitter.emitAsync(DomainEventsRaised.eventName, new DomainEventsRaised(manager, events));
  }

  /** Events of no other change (a failed import, a failed indexing, a sunset coming): their own transaction. */
  async publish(events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.dataSource.transaction((manager) => this.raise(manager, events));
    this.committed();
  }

  /** Up to `limit` events older than `days`, dispatched, with no delivery still being tried (their deliveries go with them). */
  async purge(days: number, limit: number): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `DELETE FROM platform_backend.events WHERE id IN (
         SELECT e.id FROM platform_backend.events e
          WHERE e.created_at < now() - make_interval(days => $1) AND e.dispatched_at IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM platform_backend.webhook_deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
          ORDER BY e.seq LIMIT $2)
       RETURNING id`,
      [days, limit],
    );
    return rows.length;
  }

  /** The newest event of a type about an API, if any. */
  async latest(apiId: string, type: EventType): Promise<EventEntity | undefined> {
    const [row] = await this.dataSource.getRepository(EventEntity).find({ where: { apiId, type }, order: { seq: 'DESC' }, take: 1 });
    return row;
  }

  /** After the transaction that raised events committed. */
  committed(): void {
    this.emitter.emit(DomainEventsCommitted.eventName, new DomainEventsCommitted());
  }

  // A failed write must fail the change (an error suppressed here would leave the transaction aborted yet "committed").
  @OnEvent(DomainEventsRaised.eventName, { suppressErrors: false })
  async write({ manager, events }: DomainEventsRaised): Promise<void> {
    // In slices: one statement holds at most 65,535 parameters.
    for (let start = 0; start < events.length; start += INSERT_SLICE) {
      await manager.insert(
        EventEntity,
        events.slice(start, start + INSERT_SLICE).map((event) => ({
          orgId: event.api.orgId,
          type: event.type,
          apiId: event.api.id,
          apiName: event.api.name,
          teamName: event.api.teamName,
          data: event.data,
        })),
      );
    }
  }
}
