import { execFileSync } from 'node:child_process';
import request from 'supertest';
import { stopLeftovers } from './support/leftovers.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const PORT = 6391;

const spec = (title: string, summary: string) => ({
  openapi: '3.0.3',
  info: { title, version: '1' },
  paths: { [`/${title.toLowerCase()}`]: { get: { summary, responses: { 200: { description: 'ok' } } } } },
});

function startRedis(): void {
  execFileSync('redis-server', ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'yes', '--dir', '/tmp']);
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    try {
      if (
        execFileSync('redis-cli', ['-p', String(PORT), 'ping'])
          .toString()
          .trim() === 'PONG'
      )
        return;
    } catch {
      // not up yet
    }
    execFileSync('sleep', ['0.1']);
  }
  throw new Error(`redis-server on ${PORT} did not start`);
}

function stopRedis(): void {
  try {
    execFileSync('redis-cli', ['-p', String(PORT), 'shutdown', 'nosave']);
  } catch {
    // already down
  }
}

/** Redis stopped and started for real, on its own port, under a running stack. */
describe('Redis outage', () => {
  let stack: TestStack;
  let publisher: string;
  const http = () => request(stack.gateway.getHttpServer());
  const search = (query: string) => http().post('/api-management/ai/search').set('authorization', `Bearer ${publisher}`).send({ orgId: ORG, query });

  beforeAll(async () => {
    stopRedis();
    startRedis();
    // hash: each search shares its words with the API it must find.
    stack = await startStack({ env: { REDIS_URL: `redis://127.0.0.1:${PORT}` } });
    publisher = await stack.token([ORG], ['publisher']);
  }, 180_000);

  afterAll(async () => {
    try {
      startRedis(); // for the stack's own clean-up
      // This file's stack, even one whose start outlived its hook: before Redis goes.
      await stopLeftovers();
    } finally {
      stopRedis();
    }
  }, 180_000);

  it('should keep registering, searching and answering status while Redis is down, and index everything once it is back', async () => {
    const before = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Tides', version: '1', spec: spec('Tides', 'Predict the ocean tides of a harbour') });
    await expect(waitForStatus(stack, publisher, before.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });

    stopRedis();

    const started = Date.now();
    const during = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Volcanoes', version: '1', spec: spec('Volcanoes', 'List the eruptions of a volcano') });
    expect(during.status).toBe(201);
    // Sooner than the 5 s the gateway gives the queue to take a job: it did not wait for Redis.
    expect(Date.now() - started).toBeLessThan(5000);
    const updated = await http()
      .put(`/api-management/apis/${before.body.apiId}`)
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Tides', version: '1', spec: spec('Tides', 'Predict the tides and currents of a harbour') });
    expect(updated.status).toBe(200);

    const status = await http().get(`/api-management/ai/indexing-status/${during.body.apiId}`).set('authorization', `Bearer ${publisher}`);
    expect(status.body).toMatchObject({ status: 'PENDING' });
    const found = await search('ocean tides');
    expect(found.status).toBe(200);
    expect(found.body.results[0]).toMatchObject({ apiId: before.body.apiId, endpoints: [expect.objectContaining({ path: '/tides' })] });
    // An admin re-index is refused at once, not held until Redis returns (or the gateway gives up).
    const admin = await stack.token([ORG], ['admin']);
    const reindexStarted = Date.now();
    const reindex = await http().post('/api-management/ai/admin/reindex').set('authorization', `Bearer ${admin}`).send({ orgId: ORG });
    expect(reindex.status).toBe(503);
    expect(reindex.body.detail).toMatch(/nothing was queued/);
    expect(Date.now() - reindexStarted).toBeLessThan(10_000);
    const ready = await http().get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.detail).toMatch(/redis/);
    expect(ready.body.detail).not.toMatch(/database/);

    startRedis();

    await expect(waitForStatus(stack, publisher, during.body.apiId, ['COMPLETED', 'FAILED'], 60_000)).resolves.toMatchObject({ status: 'COMPLETED' });
    const tides = await waitForStatus(stack, publisher, before.body.apiId, ['COMPLETED', 'FAILED'], 60_000);
    expect(tides.status).toBe('COMPLETED');
    expect((await search('eruptions of a volcano')).body.results[0]).toMatchObject({ apiId: during.body.apiId });
    expect((await search('currents of a harbour')).body.results[0].matchedChunks.map((c: { snippet: string }) => c.snippet).join(' ')).toContain('currents');
    expect((await http().get('/readyz')).status).toBe(200);
  }, 240_000);
});
