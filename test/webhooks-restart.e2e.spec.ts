import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { loadGatewayConfig, redisConnectionOptions } from '#config';
import type { WebhookCreated, WebhookDelivery } from '#contracts';
import { createGatewayApp } from '../apps/gateway/src/create-gateway-app.js';
import { devSigningSecret, signDevToken } from '../apps/gateway/src/auth/dev-token.js';
import { DomainEvent } from '../apps/gateway/src/events/domain-event.js';
import { EventOutbox } from '../apps/gateway/src/events/event-outbox.js';
import { WEBHOOK_QUEUE } from '../apps/gateway/src/webhooks/webhooks.constants.js';
import { starting, stoppable } from './support/leftovers.js';
import { REDIS_URL, stackEnv, until } from './support/stack.js';
import { type Receiver, startReceiver, stopReceiver } from './support/webhook-receiver.js';

const ORG = 'restarts';

/**
 * A gateway stopped between a change and its delivery (#43): the event and its delivery are
 * committed while Redis is away, so nothing reached the queue; the gateway stops (without Redis,
 * within a bound); a new one on the same database, with Redis back, delivers it — once.
 */
describe('Webhooks across a restart', () => {
  let receiver: Receiver;
  let dataDir: string;
  let env: Record<string, string>;

  /** A gateway on the PGlite directory both share; `redisUrl` says whether Redis is there. */
  async function gateway(redisUrl: string): Promise<{ app: INestApplication; close: () => Promise<void> }> {
    const config = loadGatewayConfig({ ...env, REDIS_URL: redisUrl, AI_URL: 'http://127.0.0.1:9' });
    const app = await starting(createGatewayApp({ ...config, database: { ...config.database, pgliteDir: dataDir } }));
    await app.listen(0, '127.0.0.1');
    return { app, close: stoppable(() => app.close()) };
  }
  const token = () => signDevToken(devSigningSecret(loadGatewayConfig(env)), { sub: 'test-user', orgs: [ORG], roles: ['publisher'], ttlSeconds: 600 });
  const deliveries = async (app: INestApplication, webhookId: string): Promise<WebhookDelivery[]> => {
    const response = await request(app.getHttpServer())
      .get(`/api-management/webhooks/${webhookId}/deliveries`)
      .set('authorization', `Bearer ${await token()}`);
    expect(response.status).toBe(200);
    return response.body.items as WebhookDelivery[];
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    dataDir = await mkdtemp(join(tmpdir(), 'webhooks-restart-'));
    env = stackEnv({ env: { WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`, WEBHOOK_RETRY_BASE_MS: '300' } });
  });

  afterAll(async () => {
    const queue = new Queue(WEBHOOK_QUEUE, { connection: redisConnectionOptions(REDIS_URL), prefix: env.QUEUE_PREFIX });
    await queue.obliterate({ force: true }).finally(() => queue.close());
    await stopReceiver(receiver);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should deliver, once, an event committed before the gateway stopped, when a new gateway starts on the same database', async () => {
    const first = await gateway('redis://127.0.0.1:6390');
    const created = await request(first.app.getHttpServer())
      .post('/api-management/webhooks')
      .set('authorization', `Bearer ${await token()}`)
      .send({ orgId: ORG, url: `http://127.0.0.1:${receiver.port}/hook` });
    expect(created.status).toBe(201);
    const hook = created.body as WebhookCreated;
    const apiId = randomUUID();
    await first.app
      .get(EventOutbox)
      .publish([new DomainEvent('api.deleted', { id: apiId, orgId: ORG, name: 'Orders', teamName: null }, { consumers: [], consumersTotal: 0 })]);
    const [pending] = await until(
      () => deliveries(first.app, hook.webhookId),
      (items) => items.length === 1,
    );
    expect(pending).toMatchObject({ state: 'pending', attempts: [] });
    await first.close();
    expect(receiver.received).toEqual([]);

    const second = await gateway(REDIS_URL);
    try {
      const [hit] = await until(
        () => receiver.received,
        (hits) => hits.length === 1,
      );
      expect(new Webhook(hook.secret).verify(hit.body, hit.headers)).toMatchObject({
        eventId: pending.eventId,
        type: 'api.deleted',
        api: { apiId, name: 'Orders' },
      });
      const [delivered] = await until(
        () => deliveries(second.app, hook.webhookId),
        (items) => items[0]?.state === 'delivered',
      );
      expect(delivered.attempts).toMatchObject([{ attempt: 1, statusCode: 204 }]);
      // A few sweeps later, still once: a delivered delivery is never queued again.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await second.close();
    }
  }, 120_000);
});
