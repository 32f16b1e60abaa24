import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { redisConnectionOptions } from '#config';
import type { EventType, PlatformEvent, WebhookCreated, WebhookDelivery, WebhookRecord } from '#contracts';
import { DomainEvent } from '../apps/gateway/src/events/domain-event.js';
import { EventOutbox } from '../apps/gateway/src/events/event-outbox.js';
import { WEBHOOK_QUEUE } from '../apps/gateway/src/webhooks/webhooks.constants.js';
import { REDIS_URL, startStack, type TestStack, until } from './support/stack.js';
import { type Receiver, startReceiver, stopReceiver } from './support/webhook-receiver.js';

/** A port free now: nothing listens there until a receiver is started on it. */
async function freePort(): Promise<number> {
  const probe = await startReceiver();
  await stopReceiver(probe);
  return probe.port;
}

/**
 * Webhooks (#43), against receivers on 127.0.0.1 only: one whose port WEBHOOK_ALLOWED_HOSTS lists,
 * one started late on another listed port, and one that is not listed, which must never be reached.
 */
describe('Webhooks', () => {
  let stack: TestStack;
  let receiver: Receiver;
  let refused: Receiver;
  let latePort: number;
  const http = () => request(stack.gateway.getHttpServer());
  const hooks = '/api-management/webhooks';
  const as = (token: string) => ({
    get: (path: string) => http().get(path).set('authorization', `Bearer ${token}`),
    post: (path: string, body: object = {}) => http().post(path).set('authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => http().delete(path).set('authorization', `Bearer ${token}`),
  });
  const publisherOf = (org: string) => stack.token([org], ['publisher']);
  const at = (port: number, path: string) => `http://127.0.0.1:${port}${path}`;

  async function createHook(org: string, url: string, extra: object = {}): Promise<WebhookCreated> {
    const response = await as(await publisherOf(org)).post(hooks, { orgId: org, url, ...extra });
    expect([response.status, response.body.detail]).toEqual([201, undefined]);
    return response.body as WebhookCreated;
  }

  /** An event of `org` into the outbox, as a change of the registry writes it. */
  async function publish(org: string, type: EventType = 'api.created', api = { id: randomUUID(), name: 'Payments', teamName: 'Billing' }): Promise<string> {
    const outbox = stack.gateway.get(EventOutbox);
    await outbox.publish([new DomainEvent(type, { ...api, orgId: org }, { version: '1.0.0', lifecycle: 'production' } as never)]);
    return api.id;
  }

  const deliveries = async (org: string, webhookId: string): Promise<WebhookDelivery[]> => {
    const response = await as(await publisherOf(org)).get(`${hooks}/${webhookId}/deliveries`);
    expect(response.status).toBe(200);
    return response.body.items as WebhookDelivery[];
  };
  const webhookOf = async (org: string, webhookId: string): Promise<WebhookRecord> => {
    const response = await as(await publisherOf(org)).get(`${hooks}?orgId=${org}`);
    return (response.body.items as WebhookRecord[]).find((item) => item.webhookId === webhookId)!;
  };
  const hitsOf = (path: string, from = receiver) => from.received.filter((hit) => hit.path === path);

  beforeAll(async () => {
    receiver = await startReceiver();
    refused = await startReceiver();
    latePort = await freePort();
    stack = await startStack({
      withoutAi: true,
      env: {
        WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port},127.0.0.1:${latePort}`,
        // Tries at 0, 0.3, 0.9, 2.1, 4.5 and 9.3 s: a receiver can come back in between.
        WEBHOOK_RETRY_BASE_MS: '300',
        WEBHOOK_MAX_ATTEMPTS: '6',
        WEBHOOK_FAILURES_TO_DISABLE: '2',
        // Long enough that a hanging receiver hangs until the test lets it go.
        WEBHOOK_TIMEOUT_MS: '30000',
        WEBHOOK_CONCURRENCY: '4',
        WEBHOOK_ORG_CONCURRENCY: '1',
      },
    });
  }, 60_000);

  afterAll(async () => {
    const prefix = stack?.gatewayConfig.redis.queuePrefix;
    await stack?.close();
    if (prefix) {
      const queue = new Queue(WEBHOOK_QUEUE, { connection: redisConnectionOptions(REDIS_URL), prefix });
      await queue.obliterate({ force: true }).finally(() => queue.close());
    }
    await Promise.all([receiver, refused].filter(Boolean).map(stopReceiver));
  });

  it('should keep every webhook and delivery to its org: none of another org is visible, creatable or deletable', async () => {
    const hook = await createHook('tenant-a', at(receiver.port, '/tenant-a'), { description: 'Ours' });
    await publish('tenant-a');
    await until(
      () => hitsOf('/tenant-a'),
      (hits) => hits.length === 1,
    );
    const other = await stack.token(['tenant-b'], ['publisher']);
    const otherAdmin = await stack.token(['tenant-b'], ['admin']);
    expect((await as(other).get(`${hooks}?orgId=tenant-a`)).status).toBe(403);
    expect((await as(other).post(hooks, { orgId: 'tenant-a', url: at(receiver.port, '/steal') })).status).toBe(403);
    for (const token of [other, otherAdmin]) {
      for (const response of [
        await as(token).delete(`${hooks}/${hook.webhookId}`),
        await as(token).post(`${hooks}/${hook.webhookId}/enable`),
        await as(token).post(`${hooks}/${hook.webhookId}/test`),
        await as(token).get(`${hooks}/${hook.webhookId}/deliveries`),
      ]) {
        expect([response.status, response.body.detail]).toEqual([404, `Webhook "${hook.webhookId}" not found`]);
      }
    }
    // Indistinguishable from one that does not exist.
    expect((await as(other).get(`${hooks}/${randomUUID()}/deliveries`)).status).toBe(404);
    expect((await as(other).get(`${hooks}/not-a-uuid/deliveries`)).status).toBe(404);
    expect((await as(other).get(`${hooks}?orgId=tenant-b`)).body).toEqual({ items: [] });
    expect(hitsOf('/test')).toEqual([]);

    const listed = await as(await publisherOf('tenant-a')).get(`${hooks}?orgId=tenant-a`);
    expect(listed.body.items).toEqual([
      {
        webhookId: hook.webhookId,
        orgId: 'tenant-a',
        url: at(receiver.port, '/tenant-a'),
        events: [],
        apiIds: [],
        teamNames: [],
        description: 'Ours',
        createdBy: 'test-user',
        createdAt: hook.createdAt,
        consecutiveFailures: 0,
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    expect(await deliveries('tenant-a', hook.webhookId)).toHaveLength(1);
    // A reader of the org sees them, and may not change them.
    const reader = await stack.token(['tenant-a'], ['reader']);
    expect((await as(reader).get(`${hooks}/${hook.webhookId}/deliveries`)).status).toBe(200);
    expect((await as(reader).delete(`${hooks}/${hook.webhookId}`)).status).toBe(403);
    expect((await as(reader).post(hooks, { orgId: 'tenant-a', url: at(receiver.port, '/r') })).status).toBe(403);

    expect((await as(await publisherOf('tenant-a')).delete(`${hooks}/${hook.webhookId}`)).status).toBe(204);
    expect((await as(await publisherOf('tenant-a')).get(`${hooks}/${hook.webhookId}/deliveries`)).status).toBe(404);
  });

  it("should take as apiIds only APIs of the webhook's org, and refuse what is not a receiver URL or an event type", async () => {
    const both = await stack.token(['ids-a', 'ids-b'], ['publisher']);
    const spec = JSON.stringify({ openapi: '3.0.3', info: { title: 'B', version: '1' }, paths: {} });
    const registered = await as(both).post('/api-management/apis', { orgId: 'ids-b', name: 'B', version: '1', spec });
    expect(registered.status).toBe(201);
    const apiOfB = registered.body.apiId as string;
    const refusedBody = async (body: object) => {
      const response = await as(both).post(hooks, { orgId: 'ids-a', url: at(receiver.port, '/ids'), ...body });
      return [response.status, response.body.detail as string];
    };
    expect(await refusedBody({ apiIds: [apiOfB] })).toEqual([400, `apiIds: API "${apiOfB}" is not an API of org "ids-a"`]);
    const unknown = randomUUID();
    expect(await refusedBody({ apiIds: [unknown] })).toEqual([404, `API "${unknown}" not found`]);
    expect((await as(await publisherOf('ids-a')).post(hooks, { orgId: 'ids-a', url: at(receiver.port, '/ids'), apiIds: [apiOfB] })).status).toBe(404);
    expect((await refusedBody({ events: ['api.created', 'api.exploded'] }))[0]).toBe(400);
    expect((await refusedBody({ url: 'ftp://hooks.example.com/x' }))[0]).toBe(400);
    expect((await refusedBody({ url: 'https://user:pw@hooks.example.com/x' }))[1]).toContain('credentials');
    expect((await refusedBody({ url: `https://hooks.example.com/${'x'.repeat(2000)}` }))[0]).toBe(400);
    expect((await refusedBody({ secret: 'whsec_mine' }))[0]).toBe(400);
    const ok = await as(both).post(hooks, { orgId: 'ids-b', url: at(receiver.port, '/ids'), apiIds: [apiOfB], events: ['api.deleted'] });
    expect(ok.body).toMatchObject({ apiIds: [apiOfB], events: ['api.deleted'] });
  });

  it('should hold at most maxWebhooksPerOrg webhooks per org (409 past it)', async () => {
    const token = await publisherOf('crowded');
    const made = await Promise.all(Array.from({ length: 50 }, (_, i) => as(token).post(hooks, { orgId: 'crowded', url: `https://hooks.example.com/${i}` })));
    expect(made.map((response) => response.status)).toEqual(made.map(() => 201));
    const over = await as(token).post(hooks, { orgId: 'crowded', url: 'https://hooks.example.com/51' });
    expect([over.status, over.body.detail]).toEqual([409, 'Org "crowded" has 50 webhooks, the most it may have: delete one first']);
  });

  it('should sign each delivery per Standard Webhooks, with the event as its body and its id as webhook-id', async () => {
    const hook = await createHook('signed', at(receiver.port, '/signed'));
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const apiId = await publish('signed');
    const [hit] = await until(
      () => hitsOf('/signed'),
      (hits) => hits.length === 1,
    );
    const event = new Webhook(hook.secret).verify(hit.body, hit.headers) as PlatformEvent<'api.created'>;
    expect(event).toMatchObject({ type: 'api.created', orgId: 'signed', api: { apiId, name: 'Payments', teamName: 'Billing' }, data: { version: '1.0.0' } });
    expect(hit.headers['webhook-id']).toBe(event.eventId);
    expect(hit.headers['content-type']).toBe('application/json');
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(hit.body, hit.headers)).toThrow();

    const [delivery] = await until(
      () => deliveries('signed', hook.webhookId),
      (items) => items[0]?.state === 'delivered',
    );
    expect(delivery).toMatchObject({ eventId: event.eventId, type: 'api.created', apiId, attempts: [{ attempt: 1, statusCode: 204 }] });
    expect(delivery.nextAttemptAt).toBeUndefined();
    expect(typeof delivery.attempts[0].durationMs).toBe('number');
  });

  it("should deliver what a registration and a deletion raise, filtered to the webhook's API", async () => {
    const token = await publisherOf('registered');
    const spec = (title: string) => JSON.stringify({ openapi: '3.0.3', info: { title, version: '1.0.0' }, paths: {} });
    const register = async (name: string) => {
      const response = await as(token).post('/api-management/apis', { orgId: 'registered', name, version: '1.0.0', teamName: 'Core', spec: spec(name) });
      expect(response.status).toBe(201);
      return response.body.apiId as string;
    };
    const everything = await createHook('registered', at(receiver.port, '/registered'));
    const watched = await register('Watched');
    const onlyWatched = await createHook('registered', at(receiver.port, '/only-watched'), { apiIds: [watched], events: ['api.deleted'] });
    await register('Other');
    expect((await as(token).delete(`/api-management/apis/${watched}`)).status).toBe(204);
    const [deleted] = await until(
      () => hitsOf('/only-watched'),
      (hits) => hits.length === 1,
    );
    expect(new Webhook(onlyWatched.secret).verify(deleted.body, deleted.headers)).toMatchObject({
      type: 'api.deleted',
      api: { apiId: watched, name: 'Watched', teamName: 'Core' },
    });
    const events = await until(
      () => hitsOf('/registered').map((hit) => new Webhook(everything.secret).verify(hit.body, hit.headers) as PlatformEvent),
      (found) => found.some((event) => event.type === 'api.deleted'),
    );
    // Deliveries of one org are not ordered among themselves (a busy org's wait their turn in any order).
    const created = events.filter((event) => event.type === 'api.created').map((event) => [event.api.name, (event.data as { version: string }).version]);
    expect(created.sort()).toEqual([
      ['Other', '1.0.0'],
      ['Watched', '1.0.0'],
    ]);
  });

  it('should send only the events a webhook filters for: types, APIs and teams in any case', async () => {
    const api = { id: randomUUID(), name: 'Ledger', teamName: 'Finance' };
    const byType = await createHook('filters', at(receiver.port, '/by-type'), { events: ['api.deleted'] });
    const byTeam = await createHook('filters', at(receiver.port, '/by-team'), { teamNames: ['FINANCE'] });
    const everything = await createHook('filters', at(receiver.port, '/everything'));
    await publish('filters', 'api.created', api);
    await publish('filters', 'api.created', { id: randomUUID(), name: 'Other', teamName: 'Ops' });
    await publish('filters', 'api.deleted', { id: randomUUID(), name: 'Gone', teamName: 'Ops' });
    await until(
      () => hitsOf('/everything'),
      (hits) => hits.length === 3,
    );
    await until(
      async () => [(await deliveries('filters', byType.webhookId)).length, (await deliveries('filters', byTeam.webhookId)).length],
      ([types, teams]) => types === 1 && teams === 1,
    );
    expect((await deliveries('filters', byTeam.webhookId))[0].apiId).toBe(api.id);
    expect((await deliveries('filters', byType.webhookId))[0].type).toBe('api.deleted');
    expect((await deliveries('filters', everything.webhookId)).map((delivery) => delivery.type).sort()).toEqual(['api.created', 'api.created', 'api.deleted']);
  });

  it('should retry after a 500 with the same webhook-id, and record both tries', async () => {
    receiver.routes.set('/flaky', (res, count) => res.writeHead(count === 1 ? 500 : 200).end('ok'));
    const hook = await createHook('retries', at(receiver.port, '/flaky'));
    await publish('retries');
    const hits = await until(
      () => hitsOf('/flaky'),
      (found) => found.length === 2,
    );
    expect(hits[1].headers['webhook-id']).toBe(hits[0].headers['webhook-id']);
    for (const hit of hits) expect(new Webhook(hook.secret).verify(hit.body, hit.headers)).toBeTruthy();
    const [delivery] = await until(
      () => deliveries('retries', hook.webhookId),
      (items) => items[0]?.state === 'delivered',
    );
    expect(delivery.attempts).toMatchObject([
      { attempt: 1, statusCode: 500, error: 'The receiver answered 500' },
      { attempt: 2, statusCode: 200 },
    ]);
    expect(delivery.attempts[1].error).toBeUndefined();
    expect(new Date(delivery.attempts[1].at).getTime()).toBeGreaterThanOrEqual(new Date(delivery.attempts[0].at).getTime() + 300);
    expect(hitsOf('/flaky')).toHaveLength(2);
  });

  it('should deliver an event written while the receiver was down once it is back', async () => {
    const hook = await createHook('late', at(latePort, '/late'));
    await publish('late');
    const [pending] = await until(
      () => deliveries('late', hook.webhookId),
      (items) => items[0]?.attempts.length >= 1,
    );
    expect(pending.state).toBe('pending');
    expect(pending.nextAttemptAt).toBeDefined();
    expect(pending.attempts[0]).toMatchObject({ attempt: 1, error: 'The receiver could not be reached (ECONNREFUSED)' });
    expect(pending.attempts[0].statusCode).toBeUndefined();
    const late = await startReceiver(latePort);
    try {
      const [delivered] = await until(
        () => deliveries('late', hook.webhookId),
        (items) => items[0]?.state === 'delivered',
      );
      expect(hitsOf('/late', late)).toHaveLength(1);
      expect(hitsOf('/late', late)[0].headers['webhook-id']).toBe(delivered.eventId);
    } finally {
      await stopReceiver(late);
    }
  });

  it('should refuse a loopback receiver WEBHOOK_ALLOWED_HOSTS does not list: at registration when literal, at connect time by name', async () => {
    const token = await publisherOf('guarded');
    for (const url of [at(refused.port, '/x'), `http://[::1]:${refused.port}/x`, 'http://169.254.169.254/latest', 'http://10.0.0.1/x']) {
      const response = await as(token).post(hooks, { orgId: 'guarded', url });
      expect([url, response.status, response.body.detail]).toEqual([url, 400, expect.stringContaining('WEBHOOK_ALLOWED_HOSTS')]);
    }
    // A name that resolves to loopback passes registration; the guard refuses the address connected to.
    const hook = await createHook('guarded', `http://localhost:${refused.port}/x`);
    await publish('guarded');
    const [delivery] = await until(
      () => deliveries('guarded', hook.webhookId),
      (items) => items[0]?.attempts.length >= 1,
    );
    expect(delivery.attempts[0].error).toMatch(/^The webhook's address is not allowed/);
    expect(delivery.attempts[0].error).not.toContain('127.0.0.1');
    const tested = await as(token).post(`${hooks}/${hook.webhookId}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ delivered: false, attempt: { attempt: 1, error: expect.stringMatching(/^The webhook's address is not allowed/) } });
    expect(refused.received).toEqual([]);
  });

  it('should disable a webhook after deliveries failed in a row, send it nothing then, and send again once enabled', async () => {
    receiver.routes.set('/failing', (res) => res.writeHead(503).end());
    const hook = await createHook('disabling', at(receiver.port, '/failing'));
    await publish('disabling');
    await publish('disabling');
    const disabled = await until(
      () => webhookOf('disabling', hook.webhookId),
      (record) => record.disabledAt !== undefined,
    );
    expect(disabled.consecutiveFailures).toBe(2);
    expect(disabled.disabledReason).toBe('Disabled after 2 deliveries in a row failed, each after 6 tries; the last: The receiver answered 503');
    const failed = await deliveries('disabling', hook.webhookId);
    expect(failed.map((delivery) => [delivery.state, delivery.attempts.length])).toEqual([
      ['failed', 6],
      ['failed', 6],
    ]);
    expect(hitsOf('/failing')).toHaveLength(12);

    // Nothing is made for a disabled webhook.
    await publish('disabling');
    const marker = await createHook('disabling', at(receiver.port, '/disabling-marker'));
    await publish('disabling');
    await until(
      () => hitsOf('/disabling-marker'),
      (hits) => hits.length >= 1,
    );
    // Events go out in order: the one before the marker's was dispatched, to no disabled webhook.
    expect(await deliveries('disabling', hook.webhookId)).toHaveLength(2);
    expect((await deliveries('disabling', marker.webhookId)).length).toBeGreaterThanOrEqual(1);

    receiver.routes.delete('/failing');
    const enabled = await as(await publisherOf('disabling')).post(`${hooks}/${hook.webhookId}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ webhookId: hook.webhookId, consecutiveFailures: 0 });
    expect(enabled.body.disabledAt).toBeUndefined();
    expect(enabled.body.disabledReason).toBeUndefined();
    await publish('disabling');
    const [delivered] = await until(
      () => deliveries('disabling', hook.webhookId),
      (items) => items.length === 3 && items[0].state === 'delivered',
    );
    expect(delivered.attempts).toMatchObject([{ attempt: 1, statusCode: 204 }]);
    expect((await webhookOf('disabling', hook.webhookId)).consecutiveFailures).toBe(0);
  });

  it('should send a signed webhook.test now, not retried nor listed, to a publisher of its org only', async () => {
    receiver.routes.set('/tested', (res) => res.writeHead(200).end('thanks'));
    const hook = await createHook('tested', at(receiver.port, '/tested'));
    const reader = await stack.token(['tested'], ['reader']);
    expect((await as(reader).post(`${hooks}/${hook.webhookId}/test`)).status).toBe(403);
    const response = await as(await publisherOf('tested')).post(`${hooks}/${hook.webhookId}/test`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ delivered: true, attempt: { attempt: 1, statusCode: 200 } });
    const [hit] = hitsOf('/tested');
    const event = new Webhook(hook.secret).verify(hit.body, hit.headers) as { type: string; eventId: string; orgId: string };
    expect(event).toMatchObject({ type: 'webhook.test', orgId: 'tested', eventId: response.body.eventId });
    expect(hit.headers['webhook-id']).toBe(response.body.eventId);
    expect(await deliveries('tested', hook.webhookId)).toEqual([]);
  });

  it("should deliver another org's events promptly while one org's receiver hangs", async () => {
    const hanging: ServerResponse[] = [];
    receiver.routes.set('/hangs', (res) => hanging.push(res));
    try {
      const slow = await createHook('slow-org', at(receiver.port, '/hangs'));
      for (let i = 0; i < 4; i++) await publish('slow-org');
      await until(
        () => hanging.length,
        (count) => count >= 1,
      );
      const fast = await createHook('fast-org', at(receiver.port, '/fast'));
      for (let i = 0; i < 3; i++) await publish('fast-org');
      await until(
        () => hitsOf('/fast'),
        (hits) => hits.length === 3,
      );
      // The slow org's receiver still holds its one try (WEBHOOK_ORG_CONCURRENCY=1): the others wait their turn.
      expect(hanging).toHaveLength(1);
      expect((await deliveries('fast-org', fast.webhookId)).map((delivery) => delivery.state)).toEqual(['delivered', 'delivered', 'delivered']);
      expect((await deliveries('slow-org', slow.webhookId)).every((delivery) => delivery.state === 'pending')).toBe(true);
      receiver.routes.delete('/hangs');
      hanging.forEach((res) => res.writeHead(200).end());
      await until(
        () => deliveries('slow-org', slow.webhookId),
        (items) => items.length === 4 && items.every((delivery) => delivery.state === 'delivered'),
      );
    } finally {
      receiver.routes.delete('/hangs');
      hanging.forEach((res) => res.writableEnded || res.writeHead(200).end());
    }
  });
});
