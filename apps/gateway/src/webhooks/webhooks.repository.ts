import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { DeliveryAttempt, EventType } from '#contracts';
import { EventEntity } from '../events/event.entity.js';
import { WebhookDeliveryEntity, WebhookEntity } from './webhook.entity.js';
import { webhookMatches } from './webhook-rules.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A delivery to queue. */
export interface DeliveryRef {
  id: string;
  orgId: string;
}

/** A delivery with what sending it needs. */
export interface DeliveryToSend {
  delivery: WebhookDeliveryEntity;
  webhook: WebhookEntity;
  event: EventEntity;
}

/** A delivery as listed: its event's type and API beside it. */
export type ListedDelivery = WebhookDeliveryEntity & { type: EventType; apiId: string | null };

/** How a finished try changes its delivery. */
export type TryOutcome = { state: 'delivered' } | { state: 'pending'; nextAttemptAt: Date } | { state: 'failed'; disableAt: number; reason: string };

/** Every query on `webhooks`, `webhook_deliveries` and the outbox's dispatch. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Creates a webhook unless its org has `max` already (null then); one org's creations are serialised so two at once cannot pass the bound together. */
  async create(
    values: Omit<WebhookEntity, 'id' | 'createdAt' | 'disabledAt' | 'disabledReason' | 'consecutiveFailures'>,
    max: number,
  ): Promise<WebhookEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || $1))`, [values.orgId]);
      if ((await manager.countBy(WebhookEntity, { orgId: values.orgId })) >= max) return null;
      const { identifiers } = await manager.insert(WebhookEntity, values);
      return manager.findOneByOrFail(WebhookEntity, { id: identifiers[0].id as string });
    });
  }

  listInOrg(orgId: string): Promise<WebhookEntity[]> {
    return this.dataSource.getRepository(WebhookEntity).find({ where: { orgId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The webhook, if it exists; a malformed id is none. */
  async find(webhookId: string): Promise<WebhookEntity | null> {
    if (!UUID.test(webhookId)) return null;
    return this.dataSource.getRepository(WebhookEntity).findOneBy({ id: webhookId });
  }

  /** Its deliveries go with it (ON DELETE CASCADE); a job of one finds nothing and ends. */
  async delete(webhookId: string): Promise<void> {
    await this.dataSource.getRepository(WebhookEntity).delete({ id: webhookId });
  }

  async enable(webhookId: string): Promise<WebhookEntity> {
    const webhooks = this.dataSource.getRepository(WebhookEntity);
    await webhooks.update({ id: webhookId }, { disabledAt: null, disabledReason: null, consecutiveFailures: 0 });
    return webhooks.findOneByOrFail({ id: webhookId });
  }

  /** Newest first, with each one's event type and API. */
  async deliveries(webhookId: string, limit: number): Promise<ListedDelivery[]> {
    const rows = await this.dataSource
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('delivery')
      .innerJoin(EventEntity, 'event', 'event.id = delivery.event_id')
      .addSelect('event.type', 'event_type')
      .addSelect('event.api_id', 'event_api_id')
      .where('delivery.webhook_id = :webhookId', { webhookId })
      .orderBy('delivery.created_at', 'DESC')
      .addOrderBy('event.seq', 'DESC')
      .limit(limit)
      .getRawAndEntities<{ event_type: EventType; event_api_id: string | null }>();
    return rows.entities.map((delivery, index) => Object.assign(delivery, { type: rows.raw[index].event_type, apiId: rows.raw[index].event_api_id }));
  }

  /**
   * Makes the deliveries of the oldest undispatched events (at most `batch`), in `seq` order: one
   * for each enabled webhook of the event's org whose filters it passes, then marks the events
   * dispatched, all in one transaction. Events another replica is dispatching are skipped (they
   * are its), and a delivery made twice is one (`ON CONFLICT`). Returns the events read and the
   * deliveries made.
   */
  async dispatch(batch: number): Promise<{ events: number; deliveries: DeliveryRef[] }> {
    return this.dataSource.transaction(async (manager) => {
      const events = await manager
        .createQueryBuilder(EventEntity, 'event')
        .where('event.dispatched_at IS NULL')
        .orderBy('event.seq', 'ASC')
        .limit(batch)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      if (events.length === 0) return { events: 0, deliveries: [] };
      const orgs = [...new Set(events.map((event) => event.orgId))];
      const webhooks = await manager
        .createQueryBuilder(WebhookEntity, 'webhook')
        .where('webhook.org_id = ANY(:orgs) AND webhook.disabled_at IS NULL', { orgs })
        .getMany();
      const rows = events.flatMap((event) =>
        webhooks.filter((webhook) => webhookMatches(webhook, event)).map((webhook) => ({ webhookId: webhook.id, eventId: event.id, orgId: event.orgId })),
      );
      let deliveries: DeliveryRef[] = [];
      if (rows.length > 0) {
        const inserted = await manager
          .createQueryBuilder()
          .insert()
          .into(WebhookDeliveryEntity)
          .values(rows.map((row) => ({ ...row, nextAttemptAt: () => 'now()' })))
          .orIgnore()
          .returning('id, org_id')
          .execute();
        deliveries = (inserted.raw as { id: string; org_id: string }[]).map((row) => ({ id: row.id, orgId: row.org_id }));
      }
      await manager
        .createQueryBuilder()
        .update(EventEntity)
        .set({ dispatchedAt: () => 'now()' })
        .whereInIds(events.map((event) => event.id))
        .execute();
      return { events: events.length, deliveries };
    });
  }

  /** Pending deliveries of enabled webhooks whose try is due, oldest first: the sweep queues them again (a no-op for one still in Redis). */
  async due(limit: number): Promise<DeliveryRef[]> {
    const rows = await this.dataSource
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('delivery')
      .innerJoin(WebhookEntity, 'webhook', 'webhook.id = delivery.webhook_id')
      .select(['delivery.id AS id', 'delivery.org_id AS org_id'])
      .where(`delivery.state = 'pending' AND delivery.next_attempt_at <= now() AND webhook.disabled_at IS NULL`)
      .orderBy('delivery.next_attempt_at', 'ASC')
      .limit(limit)
      .getRawMany<{ id: string; org_id: string }>();
    return rows.map((row) => ({ id: row.id, orgId: row.org_id }));
  }

  async toSend(deliveryId: string): Promise<DeliveryToSend | null> {
    const delivery = await this.dataSource.getRepository(WebhookDeliveryEntity).findOneBy({ id: deliveryId });
    if (!delivery) return null;
    const [webhook, event] = await Promise.all([
      this.dataSource.getRepository(WebhookEntity).findOneBy({ id: delivery.webhookId }),
      this.dataSource.getRepository(EventEntity).findOneBy({ id: delivery.eventId }),
    ]);
    return webhook && event ? { delivery, webhook, event } : null;
  }

  /**
   * Appends a try to a pending delivery and applies its outcome: a success resets the webhook's
   * failures in a row; a delivery failed for good adds one, and at `disableAt` disables the
   * webhook and fails its other pending deliveries (nothing is sent to it any more). A try another
   * worker recorded first (the same number) is dropped: false.
   */
  async recordTry(delivery: WebhookDeliveryEntity, attempt: DeliveryAttempt, outcome: TryOutcome): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const recorded = await manager
        .createQueryBuilder()
        .update(WebhookDeliveryEntity)
        .set({
          attempts: () => `attempts || :attempt::jsonb`,
          state: outcome.state,
          nextAttemptAt: outcome.state === 'pending' ? outcome.nextAttemptAt : null,
          updatedAt: () => 'now()',
        })
        .where(`id = :id AND state = 'pending' AND jsonb_array_length(attempts) = :before`, { id: delivery.id, before: attempt.attempt - 1 })
        .setParameter('attempt', JSON.stringify([attempt]))
        .execute();
      if (!recorded.affected) return false;
      if (outcome.state === 'delivered') {
        await manager.update(WebhookEntity, { id: delivery.webhookId }, { consecutiveFailures: 0 });
      } else if (outcome.state === 'failed') {
        const disabling = 'disabled_at IS NULL AND consecutive_failures + 1 >= :disableAt';
        const counted = await manager
          .createQueryBuilder()
          .update(WebhookEntity)
          .set({
            consecutiveFailures: () => 'consecutive_failures + 1',
            disabledAt: () => `CASE WHEN ${disabling} THEN now() ELSE disabled_at END`,
            disabledReason: () => `CASE WHEN ${disabling} THEN CAST(:reason AS text) ELSE disabled_reason END`,
          })
          .where('id = :id', { id: delivery.webhookId, disableAt: outcome.disableAt, reason: outcome.reason })
          .returning(['disabled_at'])
          .execute();
        const disabled = (counted.raw as { disabled_at: Date | null }[])[0]?.disabled_at != null;
        if (disabled) {
          await manager.update(
            WebhookDeliveryEntity,
            { webhookId: delivery.webhookId, state: 'pending' },
            { state: 'failed', nextAttemptAt: null, updatedAt: () => 'now()' },
          );
        }
      }
      return true;
    });
  }

  /** A pending delivery of a webhook disabled meanwhile: not sent. */
  async abandon(deliveryId: string): Promise<void> {
    await this.dataSource
      .getRepository(WebhookDeliveryEntity)
      .update({ id: deliveryId, state: 'pending' }, { state: 'failed', nextAttemptAt: null, updatedAt: () => 'now()' });
  }
}
