import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { DEMO_SPEC_IDS, loadDirectorySpec } from '../apps/cli/src/demo-catalogue.js';
import { percentile } from './eval-metrics.js';
import { PlatformClient, PlatformError, readMetric } from '../apps/cli/src/platform-client.js';

export interface FloodOptions {
  gatewayUrl: string;
  /** The AI app, for its `/healthz` and `/metrics` (neither needs a token). */
  aiUrl: string;
  orgId: string;
  queries: string[];
  /** One per connection: each connection is a caller of its own for the gateway's rate limit, as many users would be. */
  tokens: string[];
  seconds: number;
  /** Clients that wait as long as a refusal's Retry-After says before their next search (default: at once). */
  polite: boolean;
}

interface Sample {
  ms: number;
  /** The HTTP status, or why there was none. */
  status: number | 'time-out' | 'no answer';
  retryAfter?: string;
  detail?: string;
}

const SEARCH_TIMEOUT_MS = 30_000;
const HEALTH_EVERY_MS = 50;
const READY_EVERY_MS = 500;

/**
 * `npm run bench -- --flood`: every connection sends search after search through the gateway for
 * `seconds`, each a different query (an eval query with a round number, so neither the result nor
 * the embedding cache ever answers), while the AI app's `/healthz` and the gateway's `/readyz`
 * are probed; prints what was answered, refused and how the health checks held up.
 */
export async function flood(options: FloodOptions): Promise<void> {
  const searchesBefore = await readMetric(options.aiUrl, 'search_requests_total', 'outcome');
  const started = performance.now();
  const until = started + options.seconds * 1000;
  let next = 0;
  const query = () => `${options.queries[next % options.queries.length]} (${Math.floor(next++ / options.queries.length) + 1})`;

  const searches: Sample[] = [];
  const connections = options.tokens.map(async (token) => {
    while (performance.now() < until) {
      const sample = await timed(`${options.gatewayUrl}/api-management/ai/search`, SEARCH_TIMEOUT_MS, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orgId: options.orgId, query: query() }),
      });
      searches.push(sample);
      if (options.polite && sample.retryAfter) await new Promise((resolve) => setTimeout(resolve, Number(sample.retryAfter) * 1000));
    }
  });
  const [health, ready] = await Promise.all([
    probe(`${options.aiUrl}/healthz`, HEALTH_EVERY_MS, options.seconds),
    probe(`${options.gatewayUrl}/readyz`, READY_EVERY_MS, options.seconds),
    Promise.all(connections),
  ]);
  const seconds = (performance.now() - started) / 1000;
  const searchesAfter = await readMetric(options.aiUrl, 'search_requests_total', 'outcome');

  // The AI app asks for a second's pause when it refuses at its limit, two when a search ran out of time.
  const refusedAtLimit = (sample: Sample) => sample.status === 503 && sample.retryAfter === '1';
  const answered = searches.filter((sample) => sample.status === 200).map((sample) => sample.ms);
  const refused = searches.filter(refusedAtLimit).map((sample) => sample.ms);
  const others = countBy(
    searches.filter((sample) => sample.status !== 200 && !refusedAtLimit(sample)),
    (sample) =>
      sample.status === 'time-out'
        ? `no answer within ${SEARCH_TIMEOUT_MS / 1000} s`
        : sample.status === 'no answer'
          ? `no answer (${sample.detail})`
          : `${sample.status}${sample.retryAfter ? ` (Retry-After: ${sample.retryAfter})` : ''}`,
  );
  const healthy = health.filter((sample) => sample.status === 200).map((sample) => sample.ms);
  const flaps = ready.filter((sample) => sample.status !== 200);
  const share = (count: number) => `${((100 * count) / Math.max(1, searches.length)).toFixed(1)}%`;
  const ms = (values: number[], p: number) => `${percentile(values, p).toFixed(0)} ms`;
  const deltas = [...searchesAfter].map(([outcome, count]) => `${outcome} +${count - (searchesBefore.get(outcome) ?? 0)}`);
  console.log(`
Search flood: org "${options.orgId}", ${options.tokens.length} connections for ${options.seconds} s through ${options.gatewayUrl}, each request a different query, ${options.polite ? 'waiting as long as Retry-After says after a refusal' : 'the next one at once after any answer'}
  requests                 ${searches.length} in ${seconds.toFixed(1)} s = ${(searches.length / seconds).toFixed(1)} req/s
  answered (200)           ${share(answered.length)} (${answered.length})${answered.length ? `  p50 ${ms(answered, 50)}  p95 ${ms(answered, 95)}  p99 ${ms(answered, 99)}` : ''}
  refused fast (503, Retry-After: 1)  ${share(refused.length)} (${refused.length})${refused.length ? `  time to refuse p50 ${ms(refused, 50)}  p95 ${ms(refused, 95)}` : ''}
  other answers            ${others.size ? [...others].map(([what, count]) => `${what} ×${count}`).join(', ') : 'none'}
  AI /healthz every ${HEALTH_EVERY_MS} ms  ${health.length} probes, ${health.length - healthy.length} not 200  p50 ${ms(healthy, 50)}  p99 ${ms(healthy, 99)}  max ${Math.max(0, ...health.map((sample) => sample.ms)).toFixed(0)} ms
  gateway /readyz every ${READY_EVERY_MS} ms  ${ready.length} probes, ${flaps.length} flaps${flaps.length ? `: ${[...countBy(flaps, (flap) => `${flap.status} ${flap.detail ?? ''}`.trim())].map(([why, count]) => `${why} ×${count}`).join('; ')}` : ''}
  AI search_requests_total ${deltas.join(', ') || 'not found'}`);
}

/** Makes sure the org has indexed APIs: registers the demo catalogue in an empty one, then waits until nothing is pending. */
export async function ensureIndexedOrg(client: PlatformClient, orgId: string): Promise<void> {
  if ((await client.listAllApis(orgId)).length === 0) {
    console.log(`Org "${orgId}" is empty: registering the ${DEMO_SPEC_IDS.length} demo APIs…`);
    for (const id of DEMO_SPEC_IDS) {
      await client.registerApi({ orgId, ...loadDirectorySpec(id) }).catch((error: Error) => {
        if (!(error instanceof PlatformError && error.problem.status === 409)) throw error;
      });
    }
  }
  const records = await client.waitUntilIndexed(orgId, (done, total) => console.log(`  org "${orgId}": ${done}/${total} indexed`), 30 * 60_000);
  if (!records.some((record) => record.indexing?.status === 'COMPLETED')) throw new Error(`org "${orgId}" has no indexed API to search`);
}

// A probe in a thread of its own: on the flood's busy event loop, its timings would be the
// flood client's delays, not the server's.
const PROBE_SOURCE = `
const { parentPort, workerData: { url, everyMs, seconds } } = require('node:worker_threads');
(async () => {
  const samples = [];
  for (const until = performance.now() + seconds * 1000; performance.now() < until; ) {
    const started = performance.now();
    let sample;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const body = await response.text();
      let detail;
      try { detail = response.ok ? undefined : JSON.parse(body).detail; } catch { detail = body.slice(0, 200); }
      sample = { ms: performance.now() - started, status: response.status, detail };
    } catch (error) {
      sample = { ms: performance.now() - started, status: error.name === 'TimeoutError' ? 'time-out' : 'no answer', detail: error.message };
    }
    samples.push(sample);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - sample.ms)));
  }
  parentPort.postMessage(samples);
})();
`;

/** Requests `url` every `everyMs` for `seconds`, from a worker thread. */
async function probe(url: string, everyMs: number, seconds: number): Promise<Sample[]> {
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData: { url, everyMs, seconds } });
  const [samples] = (await once(worker, 'message')) as [Sample[]];
  await worker.terminate();
  return samples;
}

async function timed(url: string, timeoutMs: number, init: RequestInit = {}): Promise<Sample> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const body = await response.text();
    const detail = response.ok ? undefined : problemDetail(body);
    return { ms: performance.now() - started, status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined, detail };
  } catch (error) {
    return { ms: performance.now() - started, status: (error as Error).name === 'TimeoutError' ? 'time-out' : 'no answer', detail: (error as Error).message };
  }
}

function problemDetail(body: string): string {
  try {
    return (JSON.parse(body) as { detail?: string }).detail ?? body.slice(0, 200);
  } catch {
    return body.slice(0, 200);
  }
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}
