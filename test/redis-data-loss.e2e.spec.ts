import { execFileSync } from 'node:child_process';
import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import request from 'supertest';
import { redisConnectionOptions } from '#config';
import { INDEXING_QUEUE } from '#contracts';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const PORT = 6392;
const REDIS_URL = `redis://127.0.0.1:${PORT}`;
const COUNT = 50;

/** A spec whose only unusual word is its marker, so a search for the marker finds it alone. */
const spec = (marker: string) => ({
  openapi: '3.0.3',
  info: { title: `Service ${marker}`, version: '1' },
  paths: { [`/${marker}`]: { get: { summary: `Read the ${marker} records`, responses: { 200: { description: 'ok' } } } } },
});
const marker = (i: number) => `zq${String(i).padStart(3, '0')}x`;

function redis(...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(PORT), ...args])
    .toString()
    .trim();
}

/** A Redis of the test's own, keeping nothing on disk: a restart starts it empty. */
function startRedis(): void {
  execFileSync('redis-server', ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'yes', '--dir', '/tmp']);
  for (let i = 0; i < 100; i += 1) {
    try {
      if (redis('ping') === 'PONG') return;
    } catch {
      // not up yet
    }
    execFileSync('sleep', ['0.1']);
  }
  throw new Error(`redis-server on ${PORT} did not start`);
}

function stopRedis(): void {
  try {
    redis('shutdown', 'nosave');
  } catch {
    // already down
  }
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Redis restarted without persistence while registrations wait in its queue: every job in it is
 * gone. The registry's reconciliation finds the revisions the index never reached and queues
 * them again: all are indexed and searchable, and deleted ones leave no trace.
 */
describe('Redis restarted empty', () => {
  let stack: TestStack;
  let publisher: string;
  const http = () => request(stack.gateway.getHttpServer());
  const register = async (i: number) => {
    const created = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: `Service ${i}`, version: '1', spec: spec(marker(i)) });
    expect(created.status).toBe(201);
    return created.body.apiId as string;
  };
  const search = (query: string) =>
    http().post('/api-management/ai/search').set('authorization', `Bearer ${publisher}`).send({ orgId: ORG, query, maxResults: 3 });

  beforeAll(async () => {
    stopRedis();
    startRedis();
    // Hash vectors: what is tested is delivery, not ranking; the markers are found by their words.
    stack = await startStack({
      env: { REDIS_URL, EMBEDDINGS_PROVIDER: 'hash', RECONCILE_INTERVAL_MS: '500', RECONCILE_GRACE_MS: '1000' },
    });
    publisher = await stack.token([ORG], ['publisher']);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    stopRedis();
  });

  it(`should index all of ${COUNT} registrations whose jobs Redis lost, and delete what was deleted`, async () => {
    // Paused, the queue holds the first half's jobs as a busy worker would leave them waiting.
    const queue = new Queue(INDEXING_QUEUE, { connection: redisConnectionOptions(REDIS_URL), prefix: stack.gatewayConfig.redis.queuePrefix });
    await queue.pause();
    const ids: string[] = [];
    for (let i = 0; i < COUNT / 2; i += 1) ids.push(await register(i));
    await until(
      () => queue.getWaitingCount(),
      (waiting) => waiting === COUNT / 2,
      30_000,
    );
    const deleted = ids.slice(0, 3);
    for (const apiId of deleted) expect((await http().delete(`/api-management/apis/${apiId}`).set('authorization', `Bearer ${publisher}`)).status).toBe(204);
    await queue.close();

    stopRedis();
    for (let i = COUNT / 2; i < COUNT - 5; i += 1) ids.push(await register(i)); // while Redis is down
    startRedis(); // empty: the first half's jobs and the deletions are gone
    const back = Date.now();
    for (let i = COUNT - 5; i < COUNT; i += 1) ids.push(await register(i));

    // Redis coming back is seen at once.
    await until(
      () =>
        http()
          .get('/readyz')
          .then((response) => response.status),
      (status) => status === 200,
      10_000,
    );
    expect(Date.now() - back).toBeLessThan(5000);

    const live = ids.filter((apiId) => !deleted.includes(apiId));
    for (const apiId of live)
      await expect(waitForStatus(stack, publisher, apiId, ['COMPLETED', 'FAILED'], 120_000)).resolves.toMatchObject({ status: 'COMPLETED' });
    for (const [i, apiId] of ids.entries()) {
      const found = (await search(`${marker(i)} records`)).body.results.map((result: { apiId: string }) => result.apiId);
      if (deleted.includes(apiId)) expect(found).not.toContain(apiId);
      else expect(found[0]).toBe(apiId);
    }

    // The reconciliation says what it did, and no revision is left unsettled.
    const metrics = await until(
      () =>
        http()
          .get('/metrics')
          .then((response) => response.text),
      (text) => /reconcile_unsettled_revisions\{[^}]*\} 0/.test(text) && /reconcile_revisions_total\{[^}]*outcome="purged"[^}]*\} 3/.test(text),
      60_000,
    );
    // At least the first half's jobs, but for the deleted APIs' (they had never reached the index: nothing to delete).
    expect(Number(/reconcile_revisions_total\{[^}]*outcome="requeued"[^}]*\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(COUNT / 2 - deleted.length);
  }, 300_000);

  // The teardown hang of this suite: BullMQ's Worker.close() awaited the `end` of its blocking
  // connection, which ioredis never emits for a client between two reconnect attempts, so an AI
  // app stopped while Redis was away (or not yet back) waited for ever; so did its queue's close
  // behind a job added meanwhile. And the gateway's queue connection went on reconnecting after
  // the gateway had closed.
  it('should shut the gateway and the AI app down within seconds while Redis is away, leaving no connection behind', async () => {
    stopRedis();
    await until(
      () =>
        http()
          .get('/readyz')
          .then((response) => response.status),
      (status) => status !== 200,
      10_000,
    );
    // A job added while Redis is away (as a re-index run's would be) waits in the AI app's queue connection.
    const added = stack
      .ai!.get<Queue>(getQueueToken(INDEXING_QUEUE), { strict: false })
      .add('while-away', {})
      .then(
        () => 'added',
        () => 'failed',
      );

    const started = Date.now();
    const closed = await Promise.race([stack.close().then(() => 'closed'), new Promise((resolve) => setTimeout(resolve, 30_000, 'still closing after 30 s'))]);
    expect(closed).toBe('closed');
    expect(Date.now() - started).toBeLessThan(15_000);
    await expect(added).resolves.toBe('failed');

    // Redis back: nothing of the closed stack reconnects (attempts come at most a second apart).
    startRedis();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(redis('client', 'list').split('\n')).toEqual([expect.stringContaining('cmd=client|list')]);
  }, 60_000);
});
