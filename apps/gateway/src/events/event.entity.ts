import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { EventData, EventType } from '#contracts';

/** The outbox of what happened (migration ConsumersAndNotifications), written in the change's transaction. */
@Entity({ schema: 'platform_backend', name: 'events' })
export class EventEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Orders the outbox and the notifications feed (a bigint: read as a string). */
  @Column({ type: 'bigint', insert: false, update: false })
  seq: string;

  @Column({ name: 'org_id', type: 'text' })
  orgId: string;

  @Column({ type: 'text' })
  type: EventType;

  @Column({ name: 'api_id', type: 'uuid', nullable: true })
  apiId: string | null;

  @Column({ name: 'api_name', type: 'text' })
  apiName: string;

  @Column({ name: 'team_name', type: 'text', nullable: true })
  teamName: string | null;

  @Column({ type: 'jsonb' })
  data: EventData[EventType];

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  /** Set once the event's webhook deliveries are made. */
  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;
}
