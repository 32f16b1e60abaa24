import type { EventData, EventType, PlatformEvent } from '#contracts';
import type { EntityManager } from 'typeorm';
import type { EventEntity } from './event.entity.js';

/** The API an event is about, as the registry holds it (an `ApiEntity` will do). */
export interface EventSubject {
  id: string;
  orgId: string;
  name: string;
  teamName: string | null;
}

/** Something that happened to an API, to be written to the outbox with the change that made it. */
export class DomainEvent<T extends EventType = EventType> {
  constructor(
    readonly type: T,
    readonly api: EventSubject,
    readonly data: EventData[T],
  ) {}
}

/**
 * Emitted (`emitAsync`) inside the transaction of a change with the events it made: the outbox's
 * listener writes them with that transaction's `manager`, so they are committed with the change or
 * not at all.
 */
export class DomainEventsRaised {
  static readonly eventName = 'domain.events.raised';

  constructor(
    readonly manager: EntityManager,
    readonly events: DomainEvent[],
  ) {}
}

/** Emitted once the events of a change are committed: their deliveries can be made now. */
export class DomainEventsCommitted {
  static readonly eventName = 'domain.events.committed';
}

/** An outbox row as webhooks and the feed send it. */
export function toPlatformEvent(row: EventEntity): PlatformEvent {
  return {
    eventId: row.id,
    type: row.type,
    orgId: row.orgId,
    timestamp: new Date(row.createdAt).toISOString(),
    api: { apiId: row.apiId ?? '', name: row.apiName, ...(row.teamName ? { teamName: row.teamName } : {}) },
    data: row.data,
  };
}
