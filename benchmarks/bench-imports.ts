import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { loadGatewayConfig, redisConnectionOptions } from '#config';
import { INDEXING_QUEUE } from '#contracts';
import { devSigningSecret, signDevToken } from '../apps/gateway/src/auth/dev-token.js';
import { percentile } from './eval-metrics.js';
import { largeSpec } from './synthetic-specs.js';

const USAGE = `Usage: node dist/benchmarks/bench-imports.js [--imports 250] [--callers 1] [--mb 9.9] [--gateway dist/apps/gateway/src/main.js]`;
const distRoot = fileURLToPath(new URL('..', import.meta.url));
const HEALTH_EVERY_MS = 100;
const RSS_EVERY_MS = 50;
/** How long after the last answer the gateway's memory is read again ("after"). */
const SETTLE_MS = 15_000;

/**
 * Issue #39: `--imports` concurrent `POST /api-management/apis/import` of one ~`--mb` MB OpenAPI
 * spec from a spec server on 127.0.0.1, by `--callers` publishers (round robin), against a gateway
 * started from the built `dist/` (or `--gateway`: another build's `main.js`, to compare) on its
 * own PGlite, the AI app absent (imports do not need it). Prints the gateway's RSS before, at peak
 * and `SETTLE_MS` after, `/healthz` latency under the load, the answers by status with how soon
 * they came, and how many spec bodies the server was asked for and sent in full.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      imports: { type: 'string', default: '250' },
      callers: { type: 'string', default: '1' },
      mb: { type: 'string', default: '9.9' },
      gateway: { type: 'string', default: join(distRoot, 'apps/gateway/src/main.js') },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  const imports = Number(values.imports);
  const callers = Number(values.callers);
  const spec = Buffer.from(largeSpec(Number(values.mb) * 1_000_000));
  const { specServer, specUrl, served } = await startSpecServer(spec);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-imports-'));
  const port = await freePort();
  const env = gatewayEnv(dataDir, port, specUrl);
  const gateway = spawn(process.execPath, [resolve(values.gateway)], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  try {
    await until(async () => (await fetch(`${base}/healthz`)).ok, 120_000);
    const secret = devSigningSecret(loadGatewayConfig(env));
    const tokens = await Promise.all(
      Array.from({ length: callers }, (_, i) => signDevToken(secret, { sub: `bench-publisher-${i}`, orgs: ['bench'], roles: ['publisher'], ttlSeconds: 3600 })),
    );
    const rssBefore = rssOf(gateway);
    console.log(`${imports} imports of a ${(spec.length / 1e6).toFixed(1)} MB spec by ${callers} caller(s); gateway ${values.gateway}`);
    console.log(
      `settings: ${Object.entries(env)
        .filter(([key]) => key.startsWith('IMPORT_') || key === 'SPEC_MAX_BYTES')
        .map(([key, value]) => `${key}=${value}`)
        .join(' ')}`,
    );
    const load = await importUnderWatch(gateway, base, rssBefore, () => importAll(base, specUrl, tokens, callers, imports));
    printImports(load, served, rssBefore);
  } finally {
    gateway.kill('SIGTERM');
    if (gateway.exitCode === null) await once(gateway, 'exit');
    specServer.closeAllConnections();
    specServer.close();
    const queue = new Queue(INDEXING_QUEUE, { connection: redisConnectionOptions(env.REDIS_URL), prefix: env.QUEUE_PREFIX });
    await queue.obliterate({ force: true }).finally(() => queue.close());
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Answer = { status: string; ms: number; retryAfter: string | null };

/** Serves `spec` to every request, counting the bodies sent in full and those the gateway cut short. */
async function startSpecServer(spec: Buffer) {
  const served = { requests: 0, bodiesSent: 0, cutShort: 0 };
  const specServer = createHttpServer((_req, res) => {
    served.requests += 1;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': spec.length });
    res.on('close', () => (res.writableFinished ? (served.bodiesSent += 1) : (served.cutShort += 1)));
    res.end(spec);
  });
  specServer.listen(0, '127.0.0.1');
  await once(specServer, 'listening');
  return { specServer, specUrl: `http://127.0.0.1:${(specServer.address() as AddressInfo).port}/openapi.json`, served };
}

function gatewayEnv(dataDir: string, port: number, specUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `bench-imports-${randomUUID().slice(0, 8)}`,
    AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
    AI_SERVICE_TOKEN: randomBytes(24).toString('base64url'),
    AI_URL: 'http://127.0.0.1:9', // discard port: imports never call the AI app
    DATA_DIR: dataDir,
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    IMPORT_ALLOWED_HOSTS: new URL(specUrl).host,
    // IMPORT_TIMEOUT_MS, IMPORT_MAX_IN_FLIGHT*, SPEC_MAX_BYTES: as set here, else the defaults.
    ...Object.fromEntries(
      Object.entries(process.env).filter(([key]) => /^(IMPORT_(TIMEOUT_MS|MAX_IN_FLIGHT\w*)|SPEC_MAX_BYTES)$/.test(key)) as [string, string][],
    ),
  };
}

/** Runs `load` while sampling the gateway's RSS and probing `/healthz`, then reads its memory again `SETTLE_MS` later. */
async function importUnderWatch(gateway: ChildProcess, base: string, rssBefore: number, load: () => Promise<Answer[]>) {
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(gateway))), RSS_EVERY_MS);
  const health: number[] = [];
  let loading = true;
  const prober = (async () => {
    while (loading) {
      const started = performance.now();
      await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(60_000) })
        .then((response) => response.arrayBuffer())
        .catch(() => undefined);
      health.push(performance.now() - started);
      await new Promise((done) => setTimeout(done, HEALTH_EVERY_MS));
    }
  })();

  const started = performance.now();
  const answers = await load();
  const allMs = performance.now() - started;
  loading = false;
  await prober;
  await new Promise((done) => setTimeout(done, SETTLE_MS));
  clearInterval(sampler);
  return { answers, allMs, health, peak, rssAfter: rssOf(gateway), hwm: highWaterMark(gateway) };
}

/** `imports` concurrent imports of the spec, the callers' tokens taken in turn. */
function importAll(base: string, specUrl: string, tokens: string[], callers: number, imports: number): Promise<Answer[]> {
  return Promise.all(
    Array.from({ length: imports }, async (_, i) => {
      const sent = performance.now();
      try {
        const response = await fetch(`${base}/api-management/apis/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens[i % callers]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ orgId: 'bench', url: specUrl, name: `Bench ${i}` }),
          signal: AbortSignal.timeout(300_000),
        });
        await response.arrayBuffer();
        return { status: String(response.status), ms: performance.now() - sent, retryAfter: response.headers.get('retry-after') };
      } catch (error) {
        return { status: (error as Error).name, ms: performance.now() - sent, retryAfter: null };
      }
    }),
  );
}

function printImports(
  load: Awaited<ReturnType<typeof importUnderWatch>>,
  served: { requests: number; bodiesSent: number; cutShort: number },
  rssBefore: number,
): void {
  const { answers, health, peak, hwm, rssAfter } = load;
  console.log(`all answered in ${(load.allMs / 1000).toFixed(1)} s`);
  const byStatus = new Map<string, Answer[]>();
  for (const answer of answers) byStatus.set(answer.status, [...(byStatus.get(answer.status) ?? []), answer]);
  for (const [status, group] of [...byStatus].sort()) {
    const ms = group.map((answer) => answer.ms);
    const retryAfter = [...new Set(group.map((answer) => answer.retryAfter).filter(Boolean))].join(',');
    console.log(
      `  ${status}: ${group.length}, answered in p50 ${fmt(percentile(ms, 50))} ms, max ${fmt(Math.max(...ms))} ms${retryAfter ? `, Retry-After ${retryAfter}` : ''}`,
    );
  }
  console.log(`spec server: asked ${served.requests} times, sent ${served.bodiesSent} bodies in full, ${served.cutShort} cut short by the gateway`);
  console.log(
    `/healthz under load: ${health.length} probes, p50 ${fmt(percentile(health, 50))} ms, p99 ${fmt(percentile(health, 99))} ms, max ${fmt(Math.max(...health))} ms`,
  );
  console.log(`gateway RSS: before ${mb(rssBefore)}, peak ${mb(Math.max(peak, hwm))} (VmHWM ${mb(hwm)}), ${SETTLE_MS / 1000} s after ${mb(rssAfter)}`);
}

/** A kB figure of /proc/<pid>/status (`VmRSS`, `VmHWM`), in bytes. */
function statusKb(child: ChildProcess, field: string): number {
  const line = readFileSync(`/proc/${child.pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}
const rssOf = (child: ChildProcess) => statusKb(child, 'VmRSS');
const highWaterMark = (child: ChildProcess) => statusKb(child, 'VmHWM');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const fmt = (ms: number) => ms.toFixed(0);

async function freePort(): Promise<number> {
  const server = createNetServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check().catch(() => false));) {
    if (Date.now() > deadline) throw new Error(`the gateway did not answer /healthz within ${timeoutMs / 1000} s`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
