import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { DeliveryAttempt, DeliveryState, EventType } from '#contracts';

/** A receiver of an org's events (migration ConsumersAndNotifications). */
@Entity({ schema: 'platform_backend', name: 'webhooks' })
export class WebhookEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'org_id', type: 'text' })
  orgId: string;

  @Column({ type: 'text' })
  url: string;

  /** Empty: every type. */
  @Column({ type: 'text', array: true })
  events: EventType[];

  /** Empty: every API of the org. */
  @Column({ name: 'api_ids', type: 'uuid', array: true })
  apiIds: string[];

  /** Empty: every team; compared in any case. */
  @Column({ name: 'team_names', type: 'text', array: true })
  teamNames: string[];

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** `whsec_…`, the signing key; never answered but once, at creation. */
  @Column({ type: 'text' })
  secret: string;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  @Column({ name: 'consecutive_failures', type: 'integer' })
  consecutiveFailures: number;
}

/** One event sent to one webhook, with its tries. */
@Entity({ schema: 'platform_backend', name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @Column({ name: 'org_id', type: 'text' })
  orgId: string;

  @Column({ type: 'text' })
  state: DeliveryState;

  @Column({ type: 'jsonb' })
  attempts: DeliveryAttempt[];

  /** When the next try is due, while pending; the sweep queues again a due one Redis lost. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
