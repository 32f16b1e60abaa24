import type { IncomingMessage } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import { Inject, Injectable } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import type { DeliveryAttempt } from '#contracts';
import type { GatewayConfig } from '#config';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { guardAgent } from '../import/spec-fetcher.js';

/** The only words a refused address gets in a delivery's record: nothing of the address itself. */
export const WEBHOOK_ADDRESS_REFUSED =
  "The webhook's address is not allowed: deliveries may not reach loopback, private, link-local or metadata addresses unless WEBHOOK_ALLOWED_HOSTS lists the host and port";

/** What of a receiver's answer is read before the connection is dropped: its body means nothing here. */
const BODY_READ_MAX_BYTES = 64 * 1024;

/** One signed POST to send. */
export interface SignedRequest {
  url: string;
  secret: string;
  /** The `webhook-id`: the event's, the same on every try. */
  eventId: string;
  body: string;
}

/**
 * Sends one try of a webhook: a POST signed per Standard Webhooks (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature` over `id.timestamp.body`), through the same address
 * guard as URL import (`WEBHOOK_ALLOWED_HOSTS` for private receivers), no redirect followed,
 * within WEBHOOK_TIMEOUT_MS with the answer read. Never throws: the outcome is the try's record.
 */
@Injectable()
export class WebhookSender {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  async send(request: SignedRequest, attempt: number): Promise<DeliveryAttempt> {
    const at = new Date();
    const started = performance.now();
    const record = (outcome: { statusCode?: number; error?: string }): DeliveryAttempt => ({
      attempt,
      at: at.toISOString(),
      ...outcome,
      durationMs: Math.round(performance.now() - started),
    });
    const signal = AbortSignal.timeout(this.config.webhooks.timeoutMs);
    try {
      const statusCode = await this.post(request, at, signal);
      if (statusCode >= 200 && statusCode < 300) return record({ statusCode });
      const redirect = statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : '';
      return record({ statusCode, error: `The receiver answered ${statusCode}${redirect}` });
    } catch (error) {
      return record({ error: this.failure(error, signal) });
    }
  }

  private post({ url, secret, eventId, body }: SignedRequest, at: Date, signal: AbortSignal): Promise<number> {
    const target = new URL(url);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'api-discovery-webhooks',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(eventId, at, body),
    };
    const transport = target.protocol === 'https:' ? https : http;
    return new Promise<number>((resolve, reject) => {
      const sent = transport.request(target, { method: 'POST', agent: guardAgent(target, this.config.webhooks.allowedHosts), headers, signal }, (response) => {
        drain(response).then(() => resolve(response.statusCode ?? 0), reject);
      });
      sent.on('error', reject);
      sent.end(body);
    });
  }

  /** One line for the delivery's record; the guard's own message (which names the address) is not kept. */
  private failure(error: unknown, signal: AbortSignal): string {
    if (signal.aborted) return `The receiver did not answer within ${this.config.webhooks.timeoutMs} ms (WEBHOOK_TIMEOUT_MS)`;
    const message = error instanceof Error ? error.message : '';
    if (/ is not allowed\. Because/.test(message)) return WEBHOOK_ADDRESS_REFUSED;
    const code = (error as { code?: unknown })?.code;
    return `The receiver could not be reached${typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : ''}`;
  }
}

/** Reads the answer to its end (the try is over then), or drops the connection past a bound. */
async function drain(response: IncomingMessage): Promise<void> {
  let bytes = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > BODY_READ_MAX_BYTES) {
      response.destroy();
      return;
    }
  }
}
