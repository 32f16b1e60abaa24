import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { redisConnectionOptions } from '#config';
import { INDEXING_QUEUE, indexingJobId, IndexingJobName, type IndexingStatus, type SearchResponse } from '#contracts';
import { chunksOf, DEFAULT_CHUNK_LIMITS, defaultSpecFormats } from '#api-specs';
import { signDevToken } from '../apps/gateway/src/auth/dev-token.js';
import { readFixture } from './fixtures/fixtures.js';
import { FakeOpenAi } from './support/fake-openai.js';
import { AppProcess, ENTRIES, freePort, metricSum, runScript, waitUntilAnswering } from './support/processes.js';
import { stackEnv, until } from './support/stack.js';

/**
 * The platform scaled out as in docker/compose.yaml, every part a real process (`node dist/...`):
 * two gateways, two AI APIs (AI_ROLE=api) and two indexing workers (AI_ROLE=worker) on one
 * PostgreSQL database and one Redis (one queue prefix), gateway N → AI API N, migrations run
 * once beforehand (DATABASE_MIGRATE=false everywhere). Runs when TEST_DATABASE_URL points at a
 * PostgreSQL server with pgvector (skipped otherwise); it makes a database of its own on that
 * server and drops it at the end. Needs `dist/` (`npx tsc -p tsconfig.build.json`).
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const describeWithPostgres = serverUrl ? describe : describe.skip;

const ORG = 'scale';
/** Real specs of every kind, registered alternately through both gateways (all at once). */
const CATALOGUE = [
  { name: 'Petstore', file: 'petstore-swagger2.yaml' },
  { name: 'Payments', file: 'payments.proto' },
  { name: 'Circular', file: 'circular-openapi31.json' },
  { name: 'Accounts', file: 'changes/accounts-v1.yaml' },
  { name: 'Shop', file: 'changes/shop-v1.graphql' },
  { name: 'Tools', file: 'changes/tools-v1.json' },
  { name: 'Pets', file: 'changes/pets-v1.yaml' },
  { name: 'Inventory', file: 'import/specs/inventory.yaml' },
];
/** Registered while the embedding server is held, for the worker that holds it to be killed: text no other spec shares (embeddings are reused by content). */
const CRASH_SPEC = { name: 'Master Data', file: 'changes/vtex-masterdata-v1.json' };
/** What the update of `Pets` makes it (a new operation, `POST /owners`). */
const PETS_UPDATE = 'changes/pets-v2.yaml';
/** Each caller's budget a minute; every request but the rate-limit test's comes from a caller of its own. */
const RATE_LIMIT = 5;
const DIMENSIONS = 64;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field as the tests need
type Json = any;
interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

describeWithPostgres('Scale-out: two gateways, two AI APIs and two workers on one PostgreSQL and one Redis', () => {
  let dataDir: string | undefined;
  const database = `scale_${randomBytes(6).toString('hex')}`;
  const databaseUrl = (() => {
    const url = new URL(serverUrl ?? 'postgres://localhost/none');
    url.pathname = `/${database}`;
    return url.toString();
  })();
  // Hash vectors from a server in this process: fast, and it can hold a worker mid-job.
  const fake = new FakeOpenAi(DIMENSIONS);
  let env: Record<string, string>;
  let gateways: AppProcess[] = [];
  let apis: AppProcess[] = [];
  let workers: AppProcess[] = [];
  /** The API key each AI process sends the embedding server: who asked for what. */
  const keyOf = new Map<AppProcess, string>();
  let sql: pg.Pool | undefined;
  let queue: Queue | undefined;
  let databaseCreated = false;
  let callers = 0;
  /** apiId of each registered API by name, and the spec it was last given. */
  const registered = new Map<string, { apiId: string; spec: string }>();

  const token = (sub: string) => signDevToken(env.AUTH_JWT_SECRET, { sub, orgs: [ORG], roles: ['reader', 'publisher', 'admin'], ttlSeconds: 3600 });
  /** One request through a gateway; by a caller of its own unless `as` names one (the rate limit is per caller). */
  const call = async (gateway: AppProcess, method: string, path: string, options: { body?: unknown; as?: string } = {}): Promise<Answer> => {
    const bearer = await token(options.as ?? `caller-${++callers}`);
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    let body: Json = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, body, headers: response.headers };
  };
  const statusOf = async (gateway: AppProcess, apiId: string): Promise<IndexingStatus> => {
    const answer = await call(gateway, 'GET', `/api-management/ai/indexing-status/${apiId}`);
    if (answer.status !== 200) throw new Error(`status of ${apiId} through ${gateway.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const indexed = (gateway: AppProcess, apiId: string, timeoutMs = 120_000) =>
    until(
      () => statusOf(gateway, apiId),
      (status) => status.status === 'COMPLETED' || status.status === 'FAILED',
      timeoutMs,
      250,
    );
  const search = async (gateway: AppProcess, query: string, extra: object = {}): Promise<SearchResponse> => {
    const answer = await call(gateway, 'POST', '/api-management/ai/search', { body: { orgId: ORG, query, ...extra } });
    if (answer.status !== 200) throw new Error(`search "${query}" through ${gateway.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const scrape = async (app: AppProcess) => {
    const response = await fetch(`${app.url}/metrics`, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`${app.name} /metrics: ${response.status}`);
    return response.text();
  };
  /** Index jobs a worker ran to the end, by outcome (`indexing_jobs_total{kind="index-api"}`). */
  const indexOutcomes = async (worker: AppProcess) => {
    const text = await scrape(worker);
    const count = (outcome: string) => metricSum(text, 'indexing_jobs_total', { kind: IndexingJobName.Index, outcome });
    return { completed: count('completed'), skipped: count('skipped'), failed: count('failed'), error: count('error') };
  };
  /** Rows of each API in the index (`platform_ai.api_chunks`, every generation and model), and distinct chunks among them. */
  const chunkRows = async (): Promise<Map<string, { rows: number; distinct: number }>> => {
    const { rows } = await sql!.query<{ api_id: string; rows: number; distinct: number }>(
      `SELECT api_id, count(*)::int AS rows, count(DISTINCT (model, chunk_key))::int AS distinct
       FROM platform_ai.api_chunks GROUP BY api_id`,
    );
    return new Map(rows.map((row) => [row.api_id, { rows: row.rows, distinct: row.distinct }]));
  };
  /** What a one-process run indexes for a spec: the product's own chunker with the default limits. */
  const expectedChunks = async (name: string, spec: string) => {
    const chunked = await chunksOf(defaultSpecFormats(), { spec, facts: { name, version: '1' }, limits: DEFAULT_CHUNK_LIMITS });
    if (!('chunks' in chunked)) throw new Error(`${name}: ${chunked.refused}`);
    return chunked.chunks.length;
  };
  const register = async (gateway: AppProcess, name: string, spec: string) => {
    const created = await call(gateway, 'POST', '/api-management/apis', { body: { orgId: ORG, name, version: '1', spec } });
    if (created.status !== 201) throw new Error(`registering ${name} through ${gateway.name}: ${created.status} ${JSON.stringify(created.body)}`);
    registered.set(name, { apiId: created.body.apiId, spec });
    return created.body.apiId as string;
  };
  /** A search answer without what differs per request (its id and timings). */
  const comparable = ({ searchId: _id, searchMs: _ms, queryEmbeddingMs: _embedMs, ...rest }: SearchResponse) => rest;
  /** Waits until no job of the queue waits, runs or is delayed. */
  const settled = (timeoutMs = 90_000) =>
    until(
      () => queue!.getJobCounts('active', 'waiting', 'delayed', 'prioritized', 'waiting-children'),
      (counts) => Object.values(counts).every((count) => count === 0),
      timeoutMs,
      250,
    );
  const logs = () => [...gateways, ...apis, ...workers].map((app) => `--- ${app.name} (${app.running ? 'running' : 'exited'})\n${app.log(3000)}`).join('\n');

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${database}`);
      databaseCreated = true;
    } finally {
      await admin.end();
    }
    dataDir = mkdtempSync(join(tmpdir(), 'scale-out-'));
    await fake.start();
    env = stackEnv({
      env: {
        DATABASE_URL: databaseUrl,
        DATABASE_MIGRATE: 'false',
        DATA_DIR: dataDir,
        EMBEDDINGS_PROVIDER: 'openai',
        OPENAI_BASE_URL: fake.baseUrl,
        EMBEDDINGS_MODEL: 'fake-embed',
        EMBEDDINGS_DIMENSIONS: String(DIMENSIONS),
        // As in compose: one job per worker at a time. A lock far shorter than the default 30 s, so a
        // killed worker's job is taken over sooner, and so that a job outlasting it must have its
        // lock renewed in time (it was not, once: such jobs ran twice, which the counts below catch).
        INDEXING_CONCURRENCY: '1',
        INDEXING_LOCK_MS: '5000',
        RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
        RECONCILE_INTERVAL_MS: '300',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      },
    });
    // Migrations once, as compose's one-shot job; no app migrates.
    await runScript('migrate', ENTRIES.migrate, { ...env, DATABASE_MIGRATE: 'true' });
    sql = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    queue = new Queue(INDEXING_QUEUE, { connection: redisConnectionOptions(env.REDIS_URL), prefix: env.QUEUE_PREFIX });

    const ports = await Promise.all(Array.from({ length: 6 }, () => freePort()));
    const ai = (name: string, role: 'api' | 'worker', port: number) => {
      const app = new AppProcess(name, ENTRIES.ai, { ...env, AI_ROLE: role, AI_PORT: String(port), OPENAI_API_KEY: name }, `http://127.0.0.1:${port}`);
      keyOf.set(app, name);
      return app;
    };
    apis = [ai('ai-api-1', 'api', ports[0]), ai('ai-api-2', 'api', ports[1])];
    workers = [ai('worker-1', 'worker', ports[2]), ai('worker-2', 'worker', ports[3])];
    gateways = [0, 1].map(
      (n) =>
        new AppProcess(
          `gateway-${n + 1}`,
          ENTRIES.gateway,
          { ...env, GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(ports[4 + n]), AI_URL: apis[n].url! },
          `http://127.0.0.1:${ports[4 + n]}`,
        ),
    );
    // All six at once; a gateway is ready once its database, Redis and its AI API answer.
    await Promise.all([...apis, ...workers].map((app) => waitUntilAnswering(app, '/healthz')));
    await Promise.all(gateways.map((gateway) => waitUntilAnswering(gateway, '/readyz')));
  }, 300_000);

  afterAll(async () => {
    // Everything killed, whatever failed; then what they shared is cleared.
    await Promise.all([...gateways, ...apis, ...workers].map((app) => app.stop()));
    await fake.stop();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    if (env) {
      const redis = new Redis(redisConnectionOptions(env.REDIS_URL));
      try {
        const keys = await redis.keys(`${env.QUEUE_PREFIX}:*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    }
    await sql?.end();
    if (databaseCreated) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('should index every revision registered through both gateways exactly once', async () => {
    const specs = CATALOGUE.map(({ name, file }) => ({ name, spec: readFixture(file) }));
    // Alternately through gateway 1 and 2, all at once: both workers compete for the jobs.
    const ids = await Promise.all(specs.map(({ name, spec }, n) => register(gateways[n % 2], name, spec)));
    // Each status through the other gateway than the registration's.
    const statuses = await Promise.all(ids.map((apiId, n) => indexed(gateways[(n + 1) % 2], apiId)));
    expect(statuses.map((status) => status.status)).toEqual(specs.map(() => 'COMPLETED'));

    // Every job has ended (none waits, runs or is delayed): nothing is still to come.
    await settled();
    const jobs = await Promise.all(ids.map((apiId) => queue!.getJob(indexingJobId(apiId, 1, IndexingJobName.Index))));
    const outcomes = await Promise.all(workers.map(indexOutcomes));

    // The index holds each API's chunks once: as many as the product's chunker makes of its spec in one process.
    const expected = Object.fromEntries(await Promise.all(specs.map(async ({ name, spec }) => [name, await expectedChunks(name, spec)] as const)));
    const rows = await chunkRows();
    const byName = (read: (apiId: string, n: number) => unknown) => Object.fromEntries(specs.map(({ name }, n) => [name, read(ids[n], n)]));
    expect(byName((apiId) => rows.get(apiId)?.rows)).toEqual(expected);
    expect(byName((apiId) => rows.get(apiId)?.distinct)).toEqual(expected);
    const final = await Promise.all(ids.map((apiId, n) => statusOf(gateways[n % 2], apiId)));
    expect(byName((_apiId, n) => [final[n].status, final[n].chunkCount])).toEqual(
      Object.fromEntries(Object.entries(expected).map(([name, chunks]) => [name, ['COMPLETED', chunks]])),
    );
    // Each revision's one job ended once, with those chunks.
    expect(byName((_apiId, n) => jobs[n]?.returnvalue)).toEqual(Object.fromEntries(Object.entries(expected).map(([name, chunks]) => [name, { chunks }])));

    // indexing_jobs_total counts job runs by kind and outcome per worker (no revision label):
    // over both workers, exactly as many index runs completed as there are revisions (a job run
    // again, e.g. handed to the other worker after its lock was lost, would complete twice), and
    // none failed. (`skipped` is a run that did nothing: no second indexing.)
    const runs = { completed: outcomes.reduce((sum, count) => sum + count.completed, 0), failed: outcomes.reduce((sum, count) => sum + count.failed, 0) };
    if (runs.completed !== specs.length) {
      const detail = await Promise.all(
        jobs.map(async (job, n) => ({
          api: specs[n].name,
          state: await job?.getState(),
          attemptsStarted: job?.attemptsStarted,
          stalledCounter: job?.stalledCounter,
          failedReason: job?.failedReason,
        })),
      );
      throw new Error(
        `${runs.completed} index runs completed for ${specs.length} revisions (per worker: ${JSON.stringify(outcomes)}); the jobs: ${JSON.stringify(detail)}\n${logs()}`,
      );
    }
    expect(runs).toEqual({ completed: specs.length, failed: 0 });
  }, 240_000);

  it("should have a killed worker's job finished by the other worker, its chunks stored once", async () => {
    const spec = readFixture(CRASH_SPEC.file);
    const before = await Promise.all(workers.map(indexOutcomes));
    const since = Date.now();
    const release = fake.hold();
    try {
      const apiId = await register(gateways[0], CRASH_SPEC.name, spec);
      // The job is surely mid-way: its worker has asked for embeddings and waits for them. The
      // request's key says which worker that is; the other has asked nothing.
      const asked = await until(
        () => workers.filter((worker) => fake.from(keyOf.get(worker)!, since).length > 0),
        (found) => found.length > 0,
        60_000,
        100,
      );
      expect(asked).toHaveLength(1);
      const holder = asked[0];
      expect(await holder.kill('SIGKILL')).toBe('SIGKILL');
      release();

      const survivor = workers.find((worker) => worker !== holder)!;
      const status = await indexed(gateways[1], apiId, 120_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${logs()}`);
      });
      const chunks = await expectedChunks(CRASH_SPEC.name, spec);
      expect(status).toMatchObject({ status: 'COMPLETED', chunkCount: chunks });
      await settled();
      expect((await chunkRows()).get(apiId)).toEqual({ rows: chunks, distinct: chunks });
      // The survivor ran it (it embedded the spec itself) and completed it once.
      expect(fake.from(keyOf.get(survivor)!, since).length).toBeGreaterThan(0);
      const job = await queue!.getJob(indexingJobId(apiId, 1, IndexingJobName.Index));
      expect({ state: await job?.getState(), returnvalue: job?.returnvalue }).toEqual({ state: 'completed', returnvalue: { chunks } });
      // Exactly one more run completed on it: none of the first test's jobs ran again meanwhile either.
      const was = before[workers.indexOf(survivor)];
      expect(await indexOutcomes(survivor)).toMatchObject({ completed: was.completed + 1, failed: was.failed });
    } finally {
      release();
    }
  }, 240_000);

  it('should show an update made through gateway 1 at once in a search through gateway 2', async () => {
    const pets = registered.get('Pets')!;
    const query = 'add an owner';
    const hasOwners = (answer: SearchResponse) => answer.results.some((card) => card.endpoints.some((endpoint) => endpoint.path === '/owners'));
    // Gateway 2's AI API answers before the update, twice: the second answer comes from its result cache.
    const first = await search(gateways[1], query);
    expect(hasOwners(first)).toBe(false);
    const cached = await search(gateways[1], query);
    expect(cached.queryEmbeddingMs).toBe(0);
    expect(comparable(cached)).toEqual(comparable(first));

    const spec = readFixture(PETS_UPDATE);
    const updated = await call(gateways[0], 'PUT', `/api-management/apis/${pets.apiId}`, { body: { orgId: ORG, name: 'Pets', version: '1', spec } });
    expect(updated.status).toBe(200);
    registered.set('Pets', { ...pets, spec });
    const status = await indexed(gateways[1], pets.apiId);
    const chunks = await expectedChunks('Pets', spec);
    expect(status).toMatchObject({ status: 'COMPLETED', chunkCount: chunks });
    // No stale answer from gateway 2's cache: the new operation is found at once.
    const after = await search(gateways[1], query);
    expect(after.results[0]).toMatchObject({ apiId: pets.apiId });
    expect(after.results[0].endpoints[0]).toMatchObject({ method: 'POST', path: '/owners' });
    await settled();
    expect((await chunkRows()).get(pets.apiId)).toEqual({ rows: chunks, distinct: chunks });
  }, 180_000);

  it('should give identical answers through both gateways and their AI APIs', async () => {
    const searches: [string, object?][] = [
      ['place an order for a pet'],
      ['refund a card payment'],
      ['add an owner'],
      ['list the products in the shop'],
      ['stock levels of the inventory'],
      ['create an issue', { maxEndpoints: 2 }],
      ['find pets by status', { filters: { kinds: ['openapi'] } }],
      ['payment', { filters: { kinds: ['grpc', 'graphql'] }, maxResults: 3 }],
      ['', {}], // browsing the catalogue
    ];
    for (const [n, [query, extra]] of searches.entries()) {
      // Either gateway first: one answer is computed, the other may be a cache hit on the other replica.
      const [a, b] = n % 2 === 0 ? [gateways[0], gateways[1]] : [gateways[1], gateways[0]];
      const one = await search(a, query, extra);
      const other = await search(b, query, extra);
      expect({ query, extra, answer: comparable(other) }).toEqual({ query, extra, answer: comparable(one) });
    }
    // Something was found: the comparison is not of empty answers.
    expect((await search(gateways[0], 'place an order for a pet')).results.length).toBeGreaterThan(1);
  }, 120_000);

  it("should share each caller's rate limit across both gateways", async () => {
    const caller = `budget-${randomBytes(4).toString('hex')}`;
    const list = (gateway: AppProcess) => call(gateway, 'GET', `/api-management/apis?orgId=${ORG}`, { as: caller });
    // The budget, spent through both gateways alternately (each alone would allow all of it).
    for (let n = 0; n < RATE_LIMIT; n += 1) {
      const answer = await list(gateways[n % 2]);
      expect({ n, status: answer.status, remaining: answer.headers.get('ratelimit-remaining') }).toEqual({
        n,
        status: 200,
        remaining: String(RATE_LIMIT - 1 - n),
      });
    }
    // Then refused by both, although each has served fewer than the limit.
    for (const gateway of gateways) {
      const refused = await list(gateway);
      expect({ gateway: gateway.name, status: refused.status }).toEqual({ gateway: gateway.name, status: 429 });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Another caller is not held back.
    expect((await call(gateways[1], 'GET', `/api-management/apis?orgId=${ORG}`)).status).toBe(200);
  });

  it('should reconcile on one gateway at a time (the other counts its rounds elsewhere)', async () => {
    // reconcile_rounds_total{result} on the gateways' public /metrics: done by the replica that
    // holds the reconciliation's lease, `elsewhere` by the other. Rounds every 300 ms since start.
    const rounds = async () => {
      const scrapes = await Promise.all(gateways.map(scrape));
      const sum = (result: string) => scrapes.reduce((total, text) => total + metricSum(text, 'reconcile_rounds_total', { result }), 0);
      return { done: sum('done'), elsewhere: sum('elsewhere'), skipped: sum('skipped') };
    };
    const seen = await until(rounds, ({ done, elsewhere }) => done > 0 && elsewhere > 0, 20_000, 500).catch(async () => rounds());
    expect(seen.done).toBeGreaterThan(0);
    expect(seen.elsewhere).toBeGreaterThan(0);
  }, 60_000);
});
