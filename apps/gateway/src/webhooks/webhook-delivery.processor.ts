import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, type Job, Worker } from 'bullmq';
import { closeWithoutRedis, type EndableRedis, type GatewayConfig, redisConnectionOptions } from '#config';
import { throttledWarning } from '#http';
import { toPlatformEvent } from '../events/domain-event.js';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { WEBHOOK_QUEUE, type WebhookDeliveryJob } from './webhooks.constants.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { retryDelayMs } from './webhook-rules.js';
import { WebhookSender } from './webhook-sender.js';

/** A job of an org whose cap is reached waits this long, without counting as a try. */
const ORG_BUSY_DELAY_MS = 250;

/**
 * Sends deliveries: one try per run of a job; a failed try with tries left moves the same job to
 * delayed until its next try (`retryDelayMs`), so the `webhook-id` (the event's) and the job id
 * stay. At most WEBHOOK_CONCURRENCY tries at once in this process, WEBHOOK_ORG_CONCURRENCY of
 * one org: an org's slow receiver holds its own slots, never the others'.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryProcessor.name);
  private readonly warn = throttledWarning(this.logger);
  private worker?: Worker<WebhookDeliveryJob>;
  /** Tries under way in this process, by org. */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly sender: WebhookSender,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    const { concurrency, timeoutMs } = this.config.webhooks;
    // Its own connection: the gateway's shared one has no offline queue, which a worker's blocking wait needs.
    this.worker = new Worker<WebhookDeliveryJob>(WEBHOOK_QUEUE, (job, token) => this.process(job, token), {
      connection: redisConnectionOptions(this.config.redis.url),
      prefix: this.config.redis.queuePrefix,
      concurrency,
      // A try must end well within its lock, or another worker would send it again.
      lockDuration: Math.max(30_000, 2 * timeoutMs),
      autorun: false,
    });
    this.worker.on('error', (error) =>
      this.warn(`Webhook worker: ${error.message} (deliveries resume once Redis answers; the sweep queues again what it lost)`),
    );
    void this.worker.run().catch((error: Error) => this.logger.error(`Webhook worker stopped: ${error.message}`));
  }

  /** Lets the tries in flight finish; with Redis away, gives its connections up (a job it held is run again once its lock lapses). */
  async beforeApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    // The clients themselves, not `backend.client`: that resolves only once connected, never while
    // Redis was away since the start, and a client left reconnecting holds `close()` for ever.
    const { connection, blockingConnection } = worker.backend;
    const watched = [connection, blockingConnection]
      .map((held) => (held as unknown as { _client?: EndableRedis } | undefined)?._client)
      .filter((client) => client !== undefined);
    if (!(await closeWithoutRedis(worker.close(), watched))) this.logger.warn('Webhook worker stopped without Redis');
  }

  async process(job: Job<WebhookDeliveryJob>, token?: string): Promise<void> {
    const { orgId, deliveryId } = job.data;
    const busy = this.inFlight.get(orgId) ?? 0;
    if (busy >= this.config.webhooks.orgConcurrency) {
      await job.moveToDelayed(Date.now() + ORG_BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
    this.inFlight.set(orgId, busy + 1);
    let retryAt: Date | undefined;
    try {
      retryAt = await this.deliver(deliveryId);
    } finally {
      const left = (this.inFlight.get(orgId) ?? 1) - 1;
      if (left === 0) this.inFlight.delete(orgId);
      else this.inFlight.set(orgId, left);
    }
    if (retryAt) {
      await job.moveToDelayed(retryAt.getTime(), token);
      throw new DelayedError();
    }
  }

  /** One try of a pending delivery; returns when to try again, if it must. */
  private async deliver(deliveryId: string): Promise<Date | undefined> {
    const found = await this.webhooks.toSend(deliveryId);
    // Deleted with its webhook, or finished (a job queued again after its end): nothing to send.
    if (!found || found.delivery.state !== 'pending') return undefined;
    const { delivery, webhook, event } = found;
    // Disabled while this one waited: nothing more is sent to it.
    if (webhook.disabledAt) {
      await this.webhooks.abandon(delivery.id);
      return undefined;
    }

    const { maxAttempts, retryBaseMs, failuresToDisable } = this.config.webhooks;
    const number = delivery.attempts.length + 1;
    const attempt = await this.sender.send(
      { url: webhook.url, secret: webhook.secret, eventId: event.id, body: JSON.stringify(toPlatformEvent(event)) },
      number,
    );
    if (!attempt.error) {
      await this.webhooks.recordTry(delivery, attempt, { state: 'delivered' });
      return undefined;
    }
    if (number < maxAttempts) {
      const nextAttemptAt = new Date(Date.now() + retryDelayMs(number, retryBaseMs));
      return (await this.webhooks.recordTry(delivery, attempt, { state: 'pending', nextAttemptAt })) ? nextAttemptAt : undefined;
    }
    const reason = `Disabled after ${failuresToDisable} deliveries in a row failed, each after ${maxAttempts} tries; the last: ${attempt.error}`;
    await this.webhooks.recordTry(delivery, attempt, { state: 'failed', disableAt: failuresToDisable, reason });
    this.logger.warn(`Webhook ${webhook.id}: delivery ${delivery.id} of event ${event.id} failed after ${number} tries: ${attempt.error}`);
    return undefined;
  }
}
