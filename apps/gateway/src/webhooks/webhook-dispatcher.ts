import { InjectQueue } from '@nestjs/bullmq';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { Queue } from 'bullmq';
import { closeQueueWithoutRedis, type GatewayConfig, withTimeout } from '#config';
import { PeriodicJobs } from '#database';
import { throttledWarning } from '#http';
import { DomainEventsCommitted } from '../events/domain-event.js';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { WEBHOOK_JOB_OPTIONS, WEBHOOK_QUEUE, type WebhookDeliveryJob } from './webhooks.constants.js';
import { type DeliveryRef, WebhooksRepository } from './webhooks.repository.js';

const DISPATCH_BATCH = 100;
/** Due deliveries the sweep queues again per round. */
const REQUEUE_BATCH = 500;
const ENQUEUE_TIMEOUT_MS = 5000;

/**
 * From the outbox to the delivery queue. Once a change's events are committed, this replica makes
 * their deliveries (one per matching webhook, in one transaction with the events marked
 * dispatched) and queues a job for each; one replica at a time (`PeriodicJobs`) sweeps for events
 * left undispatched (a crash in between) and for pending deliveries that are due but not in Redis
 * (it was down, or emptied): a job id is its delivery's, so queuing one twice is a no-op, and
 * nothing is lost.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly warn = throttledWarning(this.logger);
  /** The dispatch under way in this process, and whether events were committed since it began. */
  private running?: Promise<void>;
  private again = false;

  constructor(
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<WebhookDeliveryJob>,
    private readonly webhooks: WebhooksRepository,
    private readonly jobs: PeriodicJobs,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.schedule({
      name: 'webhook-sweep',
      intervalMs: this.config.outboxIntervalMs,
      runAtStart: true,
      run: () => this.sweep(),
      onError: (error) => this.logger.error(`Webhook sweep failed: ${error.message}`),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.running;
  }

  @OnEvent(DomainEventsCommitted.eventName)
  onCommitted(): void {
    this.dispatchSoon();
  }

  /** One dispatch at a time in this process; events committed meanwhile are taken by one more round. */
  dispatchSoon(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.dispatchAll().catch((error: Error) => this.logger.warn(`Webhook dispatch failed (the sweep retries): ${error.message}`));
      } while (this.again);
    })().finally(() => (this.running = undefined));
  }

  private async dispatchAll(): Promise<void> {
    for (;;) {
      const { events, deliveries } = await this.webhooks.dispatch(DISPATCH_BATCH);
      await this.enqueue(deliveries);
      if (events < DISPATCH_BATCH) return;
    }
  }

  private async sweep(): Promise<void> {
    await this.dispatchAll();
    await this.enqueue(await this.webhooks.due(REQUEUE_BATCH));
  }

  /** Stops at the first that fails (Redis away): the rest wait for the sweep, as their rows say. */
  private async enqueue(deliveries: DeliveryRef[]): Promise<void> {
    for (const { id, orgId } of deliveries) {
      try {
        await withTimeout(
          this.queue.add('deliver', { deliveryId: id, orgId }, { ...WEBHOOK_JOB_OPTIONS, jobId: id }),
          ENQUEUE_TIMEOUT_MS,
          `queue did not answer within ${ENQUEUE_TIMEOUT_MS} ms`,
        );
      } catch (error) {
        this.warn(`Webhook deliveries not queued yet (the sweep queues them): ${(error as Error).message}`);
        return;
      }
    }
  }
}

/**
 * The queue's own watcher, made as soon as the queue (it waits for nothing else, as the dispatcher
 * waits for the database): without a listener BullMQ prints every failed reconnect; and closes it
 * at shutdown within a bound, as its connection sends nothing while Redis is away (no offline queue).
 */
@Injectable()
export class WebhookQueueWatch implements BeforeApplicationShutdown {
  constructor(@InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<WebhookDeliveryJob>) {
    const warn = throttledWarning(new Logger(WebhookDispatcher.name));
    this.queue.on('error', (error) => warn(`Webhook queue unavailable (deliveries are kept and queued again): ${error.message}`));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await closeQueueWithoutRedis(this.queue);
  }
}
