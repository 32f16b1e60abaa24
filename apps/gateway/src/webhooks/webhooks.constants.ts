import type { JobsOptions } from 'bullmq';

export const WEBHOOK_QUEUE = 'webhook-delivery';

/** One delivery to make; its id is the job's, so queuing it twice is a no-op. */
export interface WebhookDeliveryJob {
  deliveryId: string;
  orgId: string;
}

/**
 * Retries are the processor's (the same job, delayed), so a try is counted only when a request was
 * sent. A job gone from Redis for any reason is queued again by the sweep from its pending row:
 * none is kept once finished, or its id would make that re-queuing a no-op.
 */
export const WEBHOOK_JOB_OPTIONS: JobsOptions = { removeOnComplete: true, removeOnFail: true };

/** `webhook.test`: what `POST …/:webhookId/test` sends; not an event of the outbox. */
export const TEST_EVENT_TYPE = 'webhook.test';
