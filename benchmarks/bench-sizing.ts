import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { chunksOf, contentHash, DEFAULT_CHUNK_LIMITS, defaultSpecFormats, isRefusal, type SpecChunk } from '#api-specs';
import { loadAiConfig } from '#config';
import { prepareDataSource } from '#database';
import { type EmbeddingProvider, type EmbeddingProviders, HashEmbeddingProvider, LocalUseEmbeddingProvider } from '#embeddings';
import { aiMigrations } from '../migrations/ai/index.js';
import { countWords, insertChunks } from '../apps/ai/src/index-store/chunk-rows.js';
import { VectorIndexService } from '../apps/ai/src/index-store/vector-index.service.js';
import { ChunkRetriever, type SearchScope } from '../apps/ai/src/search/chunk-retriever.js';
import { RANKING } from '../apps/ai/src/ranking/ranking.config.js';
import { SearchRepository } from '../apps/ai/src/search/search.repository.js';
import { demoCatalogue } from '../apps/cli/src/demo-catalogue.js';
import { percentile } from './eval-metrics.js';

/**
 * `npm run bench:sizing -- --url postgres://postgres@127.0.0.1:5432/postgres --chunks 100000,200000`
 * (issue #33): how much PostgreSQL the index takes per chunk, how long the HNSW build takes and
 * how fast and how exact the vector search is, at sizes a platform plans for. It creates a fresh
 * database (`sizing_<pid>`) beside the URL's, runs the AI app's migrations in it and drops it at
 * the end, whatever happens.
 *
 * 1. Real rows: the demo catalogue's real specs (OpenAPI, GraphQL, gRPC, AsyncAPI) are cut by the
 *    product's chunker, embedded by the local model (USE-lite, 512-d; `--embed hash` for the
 *    meaningless benchmark vectors) and written by the product's own `insertChunks` and
 *    `countWords`, with every index in place: the model's chunks/s and the store's ms/chunk.
 * 2. Fill to each size of `--chunks` with bulk SQL (`INSERT … SELECT`, never a row per round
 *    trip): synthetic APIs, each a copy of one real API (its chunk rows, postings, word counts,
 *    status row and spec copy), spread over orgs (half of the APIs in one large org, the rest
 *    over `--orgs` small ones). Each copied vector is made from real ones, renormalised:
 *    `blended` (default) is the original plus `--blend` (0.5) times another real chunk's vector
 *    plus noise of norm `--noise` (0.1), so copies spread along directions real chunks take (real
 *    embeddings cluster on a low-dimensional surface); `perturbed` is the original plus
 *    isotropic noise of norm 0.5 (tight clusters of copies with full-dimensional noise inside:
 *    pessimistic); `uniform` gives random unit vectors, the worst case for HNSW.
 * 3. The HNSW index is built as the product builds it (`VectorIndexService`: m 16,
 *    ef_construction 64, partial on the model, cosine) under `--maintenance-work-mem` and
 *    `--parallel-workers`, and timed; then sizes, search latency (the product's
 *    `ChunkRetriever.vectorCandidates` in `SearchRepository.inSnapshot`, with its `SET LOCAL
 *    hnsw.ef_search`, one query at a time) and recall@10 against exact search (the same SQL with
 *    `SET LOCAL enable_indexscan = off`).
 */

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    chunks: { type: 'string', default: '100000,200000' },
    'maintenance-work-mem': { type: 'string', default: '1GB' },
    'parallel-workers': { type: 'string', default: '2' },
    ef: { type: 'string' },
    queries: { type: 'string', default: '200' },
    'recall-queries': { type: 'string', default: '50' },
    'base-chunks': { type: 'string', default: '2000' },
    embed: { type: 'string', default: 'local' },
    vectors: { type: 'string', default: 'blended' },
    noise: { type: 'string' },
    blend: { type: 'string', default: '0.5' },
    orgs: { type: 'string', default: '20' },
    'no-probe-memory': { type: 'boolean', default: false },
  },
});

if (!values.url) {
  console.error(
    'usage: npm run bench:sizing -- --url postgres://user@host:5432/postgres [--chunks 100000,200000] [--maintenance-work-mem 1GB] [--parallel-workers 2] ' +
      '[--ef 200,800] [--queries 200] [--recall-queries 50] [--base-chunks 2000] [--embed local|hash] [--vectors blended|perturbed|uniform] [--noise N] [--blend 0.5] [--orgs 20] [--no-probe-memory]',
  );
  process.exit(2);
}

const SIZES = values.chunks
  .split(',')
  .map((size) => Number(size.trim()))
  .filter((size) => size > 0)
  .sort((a, b) => a - b);
const config = loadAiConfig({ ...process.env, AI_SERVICE_TOKEN: process.env.AI_SERVICE_TOKEN ?? 'bench-sizing', DATABASE_URL: values.url });
/** The product's default first (HNSW_EF_SEARCH), then a higher one. */
const EF = values.ef ? values.ef.split(',').map(Number) : [config.hnswEfSearch, 800];
const QUERY_COUNT = Number(values.queries);
const RECALL_QUERIES = Number(values['recall-queries']);
const SMALL_ORGS = Math.max(1, Number(values.orgs));
const VECTORS = values.vectors as 'blended' | 'perturbed' | 'uniform';
if (!['blended', 'perturbed', 'uniform'].includes(VECTORS)) throw new Error('--vectors is blended, perturbed or uniform');
const NOISE = Number(values.noise ?? (VECTORS === 'perturbed' ? 0.5 : 0.1));
const BLEND = Number(values.blend);
const BIG_ORG = 'org-large';
const CANDIDATES = RANKING.candidatesPerRetriever;

/** Half of the APIs go to one large org, the rest round the small ones. */
function orgOf(api: number): string {
  return api % 2 === 0 ? BIG_ORG : `org-small-${(api >> 1) % SMALL_ORGS}`;
}

interface BaseApi {
  name: string;
  version: string;
  teamName: string;
  spec: string;
  kind: string;
  chunks: SpecChunk[];
}

interface SizeRow {
  chunks: number;
  apis: number;
  fillSeconds: number;
  buildSeconds: number;
  bytes: Record<string, number>;
  latency: Record<number, { p50: number; p95: number }>;
  recall: Record<number, number>;
  small: { chunks: number; p50: number; p95: number; returned: number; recall: number };
  exactMs: number;
}

async function main(): Promise<void> {
  const adminUrl = new URL(values.url!);
  const dbName = `sizing_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((error: Error) => console.error(`could not drop ${dbName}: ${error.message}`));
    await admin.end().catch(() => undefined);
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));
  const sources: DataSource[] = [];
  try {
    const started = performance.now();
    const environment = await describeServer(admin);
    console.log(`database ${dbName} on ${adminUrl.host}; ${environment.join('; ')}`);
    const { prepared, db } = await migrate(url.toString(), sources);
    const { catalogue, perApi } = await chunkCatalogue();
    const { base, baseChunks } = pickBase(catalogue);
    const embedded = await embedRealChunks(base);
    const { modelId, dims } = embedded;

    // Base APIs through the product's write path (one transaction each), HNSW in place.
    const providers = { configured: { modelId, dimensions: dims } } as unknown as EmbeddingProviders;
    const vectorIndex = new VectorIndexService(db, providers);
    await vectorIndex.onApplicationBootstrap();
    const storeMs = await storeBase(db, base, embedded.vectors, modelId, baseChunks);
    await prepareCopySource(db);
    const sizing: Sizing = { db, prepared, providers, vectorIndex, url: url.toString(), base, baseChunks, modelId, dims, queryVectors: embedded.queryVectors };
    const { rows, probe } = await measureSizes(sizing);

    report(rows, {
      environment,
      modelId,
      embedPerSecond: embedded.chunks / embedded.seconds,
      embedChunks: embedded.chunks,
      storeMs,
      catalogueApis: catalogue.length,
      perApiMean: perApi.reduce((a, b) => a + b, 0) / perApi.length,
      perApiMedian: percentile(perApi, 50),
      probe,
      queries: embedded.queryVectors.length,
      minutes: (performance.now() - started) / 60_000,
    });
  } finally {
    for (const source of sources) if (source.isInitialized) await source.destroy().catch(() => undefined);
    await cleanup();
  }
}

/** What every size's measurement works on. */
interface Sizing {
  db: DataSource;
  prepared: Awaited<ReturnType<typeof prepareDataSource>>;
  providers: EmbeddingProviders;
  vectorIndex: VectorIndexService;
  url: string;
  base: BaseApi[];
  baseChunks: number;
  modelId: string;
  dims: number;
  queryVectors: number[][];
}

/** The AI app's schema, as `npm run migrate` applies it; the data source joins `sources` (destroyed at the end). */
async function migrate(url: string, sources: DataSource[]) {
  const prepared = await prepareDataSource({
    target: { url, pgliteDir: 'memory://', poolSize: 2, migrate: false },
    entities: [],
    migrations: aiMigrations,
    migrationsTableName: 'ai_migrations',
  });
  const db = new DataSource({ ...prepared.options, migrationsRun: false, logging: ['warn'] });
  sources.push(db);
  await db.initialize();
  await db.runMigrations({ transaction: 'each' });
  return { prepared, db };
}

/** Real chunks of real specs, by the product's chunker. */
async function chunkCatalogue(): Promise<{ catalogue: BaseApi[]; perApi: number[] }> {
  const formats = defaultSpecFormats();
  const catalogue: BaseApi[] = [];
  for (const api of demoCatalogue()) {
    const chunked = await chunksOf(formats, {
      spec: api.spec,
      facts: { name: api.name, version: api.version, teamName: api.teamName },
      limits: DEFAULT_CHUNK_LIMITS,
    });
    if (!isRefusal(chunked)) catalogue.push({ ...api, kind: chunked.kind, chunks: chunked.chunks });
  }
  const perApi = catalogue.map((api) => api.chunks.length);
  console.log(
    `chunks per API over the demo catalogue (${catalogue.length} real APIs): mean ${(perApi.reduce((a, b) => a + b, 0) / perApi.length).toFixed(1)}, ` +
      `median ${percentile(perApi, 50)}, p90 ${percentile(perApi, 90)}, max ${Math.max(...perApi)}`,
  );
  return { catalogue, perApi };
}

/** Base APIs, in catalogue order, until --base-chunks (none larger than that on its own). */
function pickBase(catalogue: BaseApi[]): { base: BaseApi[]; baseChunks: number } {
  const base: BaseApi[] = [];
  let baseChunks = 0;
  for (const api of catalogue) {
    if (baseChunks >= Number(values['base-chunks'])) break;
    if (api.chunks.length > Number(values['base-chunks'])) continue;
    base.push(api);
    baseChunks += api.chunks.length;
  }
  return { base, baseChunks };
}

/** The base chunks and the queries embedded (`--embed`), the model's speed measured on the chunks; the model closed after. */
async function embedRealChunks(base: BaseApi[]) {
  const provider: EmbeddingProvider & { close?: () => Promise<void> } =
    values.embed === 'hash' ? new HashEmbeddingProvider(512) : new LocalUseEmbeddingProvider(config.embeddings.batchSize, availableParallelism());
  try {
    const modelId = provider.modelId;
    const dims = provider.dimensions;
    if (provider instanceof LocalUseEmbeddingProvider) await provider.warmUp();
    const texts = base.flatMap((api) => api.chunks.map((chunk) => chunk.embedText));
    const embedStarted = performance.now();
    const vectors = await provider.embedDocuments(texts);
    const seconds = (performance.now() - embedStarted) / 1000;
    console.log(
      `embedded ${texts.length} real chunks of ${base.length} APIs with ${modelId}: ${(texts.length / seconds).toFixed(1)} chunks/s (${((seconds * 1000) / texts.length).toFixed(1)} ms/chunk) on ${availableParallelism()} cores`,
    );
    const queries = queryTexts(QUERY_COUNT);
    const queryVectors: number[][] = [];
    for (const query of queries) queryVectors.push(await provider.embedQuery(query));
    return { modelId, dims, vectors, chunks: texts.length, seconds, queryVectors };
  } finally {
    await provider.close?.();
  }
}

/** The base APIs through the product's write path, one transaction each; returns ms per chunk. */
async function storeBase(db: DataSource, base: BaseApi[], vectors: number[][], modelId: string, baseChunks: number): Promise<number> {
  const storeStarted = performance.now();
  let offset = 0;
  for (const [index, api] of base.entries()) {
    const apiId = syntheticUuid(index);
    const orgId = orgOf(index);
    const chunks = api.chunks.map((chunk, position) => ({
      ...chunk,
      contentHash: contentHash(`${modelId}\n${chunk.embedText}`),
      embedding: vectors[offset + position],
    }));
    offset += api.chunks.length;
    await db.transaction(async (manager) => {
      await manager.query(`INSERT INTO platform_ai.api_specs (api_id, revision, org_id, name, version, team_name, spec) VALUES ($1, 1, $2, $3, $4, $5, $6)`, [
        apiId,
        orgId,
        api.name,
        api.version,
        api.teamName,
        api.spec,
      ]);
      await manager.query(
        `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, indexed_revision, status, chunk_count, indexed_at, kind) VALUES ($1, $2, 1, 1, 'COMPLETED', $3, now(), $4)`,
        [apiId, orgId, chunks.length, api.kind],
      );
      await insertChunks(manager, { apiId, orgId, revision: 1 }, modelId, chunks, null);
      await countWords(manager, apiId, orgId, +1);
    });
  }
  const storeMs = (performance.now() - storeStarted) / baseChunks;
  console.log(`stored them with the product's insertChunks + countWords (every index in place): ${storeMs.toFixed(2)} ms/chunk`);
  return storeMs;
}

/** What the copies are made of: the real rows just written. */
async function prepareCopySource(db: DataSource): Promise<void> {
  await db.query(`CREATE TABLE public.sizing_base AS
      SELECT ((('x' || substr(c.api_id::text, 25, 12))::bit(48))::bigint - 1)::int AS base_api,
        row_number() OVER (PARTITION BY c.api_id ORDER BY c.chunk_key) - 1 AS ord,
        row_number() OVER (ORDER BY c.api_id, c.chunk_key) - 1 AS k, c.*
      FROM platform_ai.api_chunks c`);
  await db.query(`CREATE INDEX ON public.sizing_base (base_api, ord)`);
  await db.query(`CREATE INDEX ON public.sizing_base (k)`);
  await db.query(`CREATE TABLE public.sizing_apis (api integer PRIMARY KEY, api_id uuid NOT NULL, org_id text NOT NULL, base_api integer NOT NULL)`);
}

/** Each size of `--chunks` in turn: filled, indexed, measured; the build's memory probed once. */
async function measureSizes(sizing: Sizing): Promise<{ rows: SizeRow[]; probe: { tuples: number; bytes: number } | undefined }> {
  const { db, modelId, dims, queryVectors } = sizing;
  const rows: SizeRow[] = [];
  let apis = sizing.base.length;
  let chunks = sizing.baseChunks;
  let probe: { tuples: number; bytes: number } | undefined;
  for (const size of SIZES) {
    if (size < chunks) throw new Error(`--chunks ${size} is below the ${chunks} real chunks; start higher`);
    await sizing.vectorIndex.drop(modelId);
    const fillStarted = performance.now();
    ({ apis, chunks } = await fill(db, sizing.base, apis, chunks, size, dims, sizing.baseChunks));
    await db.query(`VACUUM ANALYZE platform_ai.api_chunks`);
    await db.query(`VACUUM ANALYZE platform_ai.chunk_terms`);
    await db.query(`ANALYZE`);
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    console.log(`filled to ${chunks} chunks (${apis} APIs) in ${fillSeconds.toFixed(0)} s`);
    const buildSeconds = await buildIndex(sizing);
    await db.query(`ANALYZE platform_ai.api_chunks`);

    const bytes = await sizes(db, modelId);
    if (!values['no-probe-memory'] && !probe) probe = await probeBuildMemory(sizing.url, modelId, dims);
    const nearest = nearestIn(db, modelId, dims);
    // Warm: the first pass reads the index from disk or the page cache into shared_buffers.
    for (const vector of queryVectors) await nearest(BIG_ORG, vector, EF[EF.length - 1], CANDIDATES);
    const latency = await measureLatency(nearest, queryVectors);
    const { recall, exactMs } = await measureRecall(nearest, queryVectors.slice(0, RECALL_QUERIES));
    const small = await measureSmallOrg(db, nearest, queryVectors);
    const row: SizeRow = { chunks, apis, fillSeconds, buildSeconds, bytes, latency, recall, exactMs, small };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  return { rows, probe };
}

/** The index as the product builds it, on a connection with the build's settings; returns its seconds. */
async function buildIndex({ prepared, providers }: Sizing): Promise<number> {
  const build = new DataSource({
    ...prepared.options,
    migrationsRun: false,
    logging: ['warn'],
    extra: { max: 1, options: `-c maintenance_work_mem=${values['maintenance-work-mem']} -c max_parallel_maintenance_workers=${values['parallel-workers']}` },
  } as typeof prepared.options);
  await build.initialize();
  const buildStarted = performance.now();
  await new VectorIndexService(build, providers).onApplicationBootstrap();
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  await build.destroy();
  console.log(
    `HNSW built in ${buildSeconds.toFixed(1)} s (maintenance_work_mem ${values['maintenance-work-mem']}, max_parallel_maintenance_workers ${values['parallel-workers']})`,
  );
  return buildSeconds;
}

/** The product's vector search in an org (`exact`: with the index scan turned off, for the truth). */
function nearestIn(db: DataSource, modelId: string, dims: number) {
  const searches = new SearchRepository(db);
  const scope = (orgId: string): SearchScope => ({ orgId, model: modelId, dimensions: dims, filters: {} });
  return (orgId: string, vector: number[], efSearch: number, limit: number, exact = false) =>
    searches.inSnapshot(
      async (manager) => {
        if (exact) await manager.query(`SET LOCAL enable_indexscan = off`);
        return new ChunkRetriever(manager, scope(orgId)).vectorCandidates(vector, limit);
      },
      { efSearch, timeoutMs: 120_000 },
    );
}

type Nearest = ReturnType<typeof nearestIn>;

/** Latency in the large org at each ef_search, one query at a time. */
async function measureLatency(nearest: Nearest, queryVectors: number[][]): Promise<SizeRow['latency']> {
  const latency: SizeRow['latency'] = {};
  for (const efSearch of EF) {
    const times: number[] = [];
    for (const vector of queryVectors) {
      const t0 = performance.now();
      await nearest(BIG_ORG, vector, efSearch, CANDIDATES);
      times.push(performance.now() - t0);
    }
    latency[efSearch] = { p50: percentile(times, 50), p95: percentile(times, 95) };
  }
  return latency;
}

/** Recall@10 in the large org at each ef_search against exact search, and the exact search's median time. */
async function measureRecall(nearest: Nearest, recallVectors: number[][]): Promise<{ recall: SizeRow['recall']; exactMs: number }> {
  const recall: SizeRow['recall'] = {};
  const truths: Set<string>[] = [];
  const exactTimes: number[] = [];
  for (const vector of recallVectors) {
    const t0 = performance.now();
    truths.push(new Set((await nearest(BIG_ORG, vector, EF[0], 10, true)).map((row) => row.id)));
    exactTimes.push(performance.now() - t0);
  }
  for (const efSearch of EF) {
    let found = 0;
    let wanted = 0;
    for (const [index, vector] of recallVectors.entries()) {
      const ann = await nearest(BIG_ORG, vector, efSearch, 10);
      found += ann.filter((row) => truths[index].has(row.id)).length;
      wanted += truths[index].size;
    }
    recall[efSearch] = found / Math.max(1, wanted);
  }
  return { recall, exactMs: percentile(exactTimes, 50) };
}

/** A small org in the same index: pgvector filters after the scan (iterative scan, up to hnsw.max_scan_tuples). */
async function measureSmallOrg(db: DataSource, nearest: Nearest, queryVectors: number[][]): Promise<SizeRow['small']> {
  const smallOrg = `org-small-0`;
  const [{ count: smallChunks }] = await db.query(`SELECT count(*)::int AS count FROM platform_ai.api_chunks WHERE org_id = $1`, [smallOrg]);
  const smallTimes: number[] = [];
  let returned = 0;
  let smallFound = 0;
  let smallWanted = 0;
  for (const [index, vector] of queryVectors.entries()) {
    const t0 = performance.now();
    const found = await nearest(smallOrg, vector, EF[0], CANDIDATES);
    smallTimes.push(performance.now() - t0);
    returned += found.length;
    if (index < RECALL_QUERIES) {
      const truth = new Set((await nearest(smallOrg, vector, EF[0], 10, true)).map((row) => row.id));
      const ann = await nearest(smallOrg, vector, EF[0], 10);
      smallFound += ann.filter((row) => truth.has(row.id)).length;
      smallWanted += truth.size;
    }
  }
  return {
    chunks: smallChunks,
    p50: percentile(smallTimes, 50),
    p95: percentile(smallTimes, 95),
    returned: returned / queryVectors.length,
    recall: smallFound / Math.max(1, smallWanted),
  };
}

/** Deterministic API ids: the API's number in the last 12 hex digits, plus one. */
function syntheticUuid(api: number): string {
  return `00000000-0000-4000-8000-${(api + 1).toString(16).padStart(12, '0')}`;
}

/** SQL for one copied chunk's vector, as `--vectors` asks, over `a` (sizing_apis) and `b` (sizing_base). */
function vectorSql(dims: number, baseRows: number): string {
  // Uniform noise per dimension in [-a/2, a/2]: standard deviation a/√12, so norm ≈ a·√(d/12).
  const amplitude = (NOISE * Math.sqrt(12)) / Math.sqrt(dims);
  // Another real chunk, chosen by the API and the chunk, for `blended`.
  const other = `(SELECT o.embedding FROM public.sizing_base o WHERE o.k = (a.api::bigint * 7919 + b.k * 31) % ${baseRows})`;
  return {
    uniform: `l2_normalize((SELECT array_agg(random() - 0.5) FROM generate_series(1, ${dims} + 0 * a.api))::vector(${dims}))`,
    perturbed: `l2_normalize(b.embedding::vector(${dims}) + (SELECT array_agg((random() - 0.5) * ${amplitude}) FROM generate_series(1, ${dims} + 0 * a.api))::vector(${dims}))`,
    blended: `l2_normalize(b.embedding::vector(${dims}) + (SELECT array_agg(${BLEND} * u.x + (random() - 0.5) * ${amplitude} ORDER BY u.i) FROM unnest(${other}::real[]) WITH ORDINALITY AS u(x, i))::vector(${dims}))`,
  }[VECTORS];
}

/** Where the next range of about `step` chunks of whole APIs ends, the last API maybe cut short to reach `target`. */
function nextRange(base: BaseApi[], apis: number, chunks: number, target: number, step: number): { apis: number; added: number; cut?: number } {
  let added = 0;
  let cut: number | undefined;
  while (added < step && chunks + added < target) {
    const size = base[apis % base.length].chunks.length;
    if (chunks + added + size > target) {
      cut = target - chunks - added;
      added += cut;
    } else added += size;
    apis++;
  }
  return { apis, added, cut };
}

/** APIs `first` to `last`: their sizing_apis rows, then their chunk rows (the last API's first `cut` only). */
async function insertChunkRows(db: DataSource, baseCount: number, vector: string, first: number, last: number, cut: number | undefined): Promise<void> {
  await db.query(
    `INSERT INTO public.sizing_apis (api, api_id, org_id, base_api)
       SELECT n, ('00000000-0000-4000-8000-' || lpad(to_hex(n + 1), 12, '0'))::uuid,
         CASE WHEN n % 2 = 0 THEN '${BIG_ORG}' ELSE 'org-small-' || ((n >> 1) % ${SMALL_ORGS}) END, n % ${baseCount}
       FROM generate_series($1::int, $2::int - 1) n`,
    [first, last + 1],
  );
  await db.query(
    `INSERT INTO platform_ai.api_chunks (api_id, org_id, revision, level, chunk_key, title, content, method, path, operation_id, summary, tags, model, content_hash, embedding)
       SELECT a.api_id, a.org_id, 1, b.level, b.chunk_key, b.title, b.content, b.method, b.path, b.operation_id, b.summary, b.tags, b.model, b.content_hash, ${vector}
       FROM public.sizing_apis a JOIN public.sizing_base b ON b.base_api = a.base_api
       WHERE a.api >= $1 AND a.api <= $2 AND (a.api < $2 OR $3::int IS NULL OR b.ord < $3::int)`,
    [first, last, cut ?? null],
  );
}

/** Postings, word counts, status and spec copies: the product's SQL (chunk-rows.ts), over APIs `first` to `last`. */
async function insertDerivedRows(db: DataSource, first: number, last: number): Promise<void> {
  await db.query(
    `INSERT INTO platform_ai.chunk_terms (chunk_id, org_id, api_id, model, level, lexeme, rank, generation)
       SELECT c.id, c.org_id, c.api_id, c.model, c.level, w.lexeme, ts_rank(c.search_vector, to_tsquery('simple', quote_literal(w.lexeme)), 1), c.generation
       FROM platform_ai.api_chunks c JOIN public.sizing_apis a ON a.api_id = c.api_id, unnest(c.search_vector) w
       WHERE a.api >= $1 AND a.api <= $2 AND strpos(w.lexeme, E'\\\\') = 0`,
    [first, last],
  );
  await db.query(
    `INSERT INTO platform_ai.api_terms (api_id, org_id, lexeme, occurrences)
       SELECT c.api_id, c.org_id, w.lexeme, sum(coalesce(array_length(w.positions, 1), 1))
       FROM platform_ai.api_chunks c JOIN public.sizing_apis a ON a.api_id = c.api_id, unnest(c.search_vector) w
       WHERE a.api >= $1 AND a.api <= $2 AND strpos(w.lexeme, E'\\\\') = 0
       GROUP BY c.api_id, c.org_id, w.lexeme`,
    [first, last],
  );
  await db.query(
    `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, indexed_revision, status, chunk_count, indexed_at, kind, term_count)
       SELECT a.api_id, a.org_id, 1, 1, 'COMPLETED', (SELECT count(*) FROM platform_ai.api_chunks c WHERE c.api_id = a.api_id), now(), s.kind,
         (SELECT sum(occurrences) FROM platform_ai.api_terms t WHERE t.api_id = a.api_id)
       FROM public.sizing_apis a JOIN platform_ai.api_indexing_status s ON s.api_id = ('00000000-0000-4000-8000-' || lpad(to_hex(a.base_api + 1), 12, '0'))::uuid
       WHERE a.api >= $1 AND a.api <= $2`,
    [first, last],
  );
  await db.query(
    `INSERT INTO platform_ai.api_specs (api_id, revision, org_id, name, version, team_name, spec)
       SELECT a.api_id, 1, a.org_id, p.name || ' ' || a.api, p.version, p.team_name, p.spec
       FROM public.sizing_apis a JOIN platform_ai.api_specs p ON p.api_id = ('00000000-0000-4000-8000-' || lpad(to_hex(a.base_api + 1), 12, '0'))::uuid
       WHERE a.api >= $1 AND a.api <= $2`,
    [first, last],
  );
}

/**
 * Adds copies of the base APIs (API n copies base API n mod B) until `target` chunks: whole APIs,
 * the last one cut short. Chunk rows with perturbed vectors, then their postings, word counts,
 * status rows and spec copies, all as `INSERT … SELECT` over a range of APIs.
 */
async function fill(
  db: DataSource,
  base: BaseApi[],
  apis: number,
  chunks: number,
  target: number,
  dims: number,
  baseRows: number,
): Promise<{ apis: number; chunks: number }> {
  const vector = vectorSql(dims, baseRows);
  const STEP = 20_000;
  while (chunks < target) {
    const first = apis;
    const range = nextRange(base, apis, chunks, target, STEP);
    apis = range.apis;
    await insertChunkRows(db, base.length, vector, first, apis - 1, range.cut);
    await insertDerivedRows(db, first, apis - 1);
    chunks += range.added;
    process.stdout.write(`  ${chunks} chunks, ${apis} APIs\n`);
  }
  return { apis, chunks };
}

/** Bytes of each part of the index (relations of platform_ai). */
async function sizes(db: DataSource, modelId: string): Promise<Record<string, number>> {
  // The model's own partial index (the migration's stays, empty, when another model is measured).
  const [hnsw] = await db.query(
    `SELECT indexname FROM pg_indexes WHERE schemaname = 'platform_ai' AND tablename = 'api_chunks' AND indexdef ILIKE '%USING hnsw%' AND strpos(indexdef, $1) > 0`,
    [`'${modelId.replace(/'/g, "''")}'`],
  );
  const [row] = await db.query(
    `SELECT pg_relation_size('platform_ai.api_chunks') AS heap,
       coalesce(pg_total_relation_size(nullif((SELECT reltoastrelid FROM pg_class WHERE oid = 'platform_ai.api_chunks'::regclass), 0)), 0) AS toast,
       pg_table_size('platform_ai.api_chunks') AS "table",
       pg_relation_size($1::regclass) AS hnsw,
       pg_relation_size('platform_ai.api_chunks_search_idx') AS gin,
       pg_indexes_size('platform_ai.api_chunks') AS indexes,
       pg_total_relation_size('platform_ai.api_chunks') AS chunks_total,
       pg_total_relation_size('platform_ai.chunk_terms') AS postings,
       (SELECT count(*) FROM platform_ai.chunk_terms) AS posting_rows,
       pg_total_relation_size('platform_ai.api_terms') + pg_total_relation_size('platform_ai.api_indexing_status') + pg_total_relation_size('platform_ai.lexicon') AS per_api,
       pg_total_relation_size('platform_ai.api_specs') AS specs,
       (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'platform_ai' AND c.relkind IN ('r', 'm')) AS schema_total`,
    [`platform_ai.${hnsw.indexname}`],
  );
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)]));
}

/**
 * How much build memory one vector's graph node takes: pgvector says when the graph no longer
 * fits into maintenance_work_mem, after how many tuples. Built serially on 16 MB and cancelled at
 * that notice (or after a minute).
 */
async function probeBuildMemory(url: string, modelId: string, dims: number): Promise<{ tuples: number; bytes: number } | undefined> {
  const memory = 16 * 1024 * 1024;
  const client = new pg.Client({ connectionString: url });
  const killer = new pg.Client({ connectionString: url });
  await client.connect();
  await killer.connect();
  try {
    const [{ pid }] = (await client.query(`SELECT pg_backend_pid() AS pid`)).rows;
    await client.query(`SET maintenance_work_mem = '16MB'; SET max_parallel_maintenance_workers = 0; SET statement_timeout = '60s'`);
    let tuples: number | undefined;
    client.on('notice', (notice) => {
      const match = /after (\d+) tuples/.exec(notice.message ?? '');
      if (match && tuples === undefined) {
        tuples = Number(match[1]);
        void killer.query(`SELECT pg_cancel_backend($1)`, [pid]);
      }
    });
    await client
      .query(
        `CREATE INDEX sizing_probe_idx ON platform_ai.api_chunks USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WITH (m = 16, ef_construction = 64) WHERE model = '${modelId.replace(/'/g, "''")}'`,
      )
      .catch(() => undefined);
    await client.query(`DROP INDEX IF EXISTS platform_ai.sizing_probe_idx`);
    return tuples ? { tuples, bytes: memory / tuples } : undefined;
  } finally {
    await client.end();
    await killer.end();
  }
}

/** The repository's own query sets: the eval paraphrases and the kinds needs, in turn, `count` of them. */
function queryTexts(count: number): string[] {
  const root = join(process.cwd(), 'eval');
  const lines = (path: string) =>
    readFileSync(join(root, path), 'utf8')
      .split('\n')
      .filter((line) => line.trim());
  const paraphrases = lines('paraphrases.jsonl').flatMap((line) => {
    const row = JSON.parse(line) as { tuning: string; check: string };
    return [row.tuning, row.check];
  });
  const needs = lines('kinds/needs.jsonl').map((line) => (JSON.parse(line) as { query: string }).query);
  const all = [...paraphrases, ...needs];
  return Array.from({ length: count }, (_, index) => all[index % all.length] + (index >= all.length ? ` (${Math.floor(index / all.length)})` : ''));
}

async function describeServer(admin: pg.Client): Promise<string[]> {
  const settings = ['shared_buffers', 'effective_cache_size', 'work_mem', 'max_parallel_workers'];
  const [{ server, vector }] = (
    await admin.query(
      `SELECT current_setting('server_version') AS server, (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS vector`,
    )
  ).rows;
  const shown: string[] = [];
  for (const name of settings) shown.push(`${name} ${(await admin.query(`SELECT current_setting($1) AS value`, [name])).rows[0].value}`);
  return [
    `PostgreSQL ${server}, pgvector ${vector}`,
    ...shown,
    `${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} at start`,
  ];
}

interface Context {
  environment: string[];
  modelId: string;
  embedPerSecond: number;
  embedChunks: number;
  storeMs: number;
  catalogueApis: number;
  perApiMean: number;
  perApiMedian: number;
  probe?: { tuples: number; bytes: number };
  queries: number;
  minutes: number;
}

function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}

function perChunk(bytes: number, chunks: number): string {
  return `${Math.round(bytes / chunks).toLocaleString('en-US')}`;
}

/** Prints one row of the sizing table: a value per size, then bytes per chunk per size when `bytes` is given. */
type TableLine = (name: string, value: (row: SizeRow) => string, bytes?: (row: SizeRow) => number) => void;

function tableLine(rows: SizeRow[]): TableLine {
  return (name, value, bytes) =>
    console.log(`| ${name} | ${rows.map(value).join(' | ')} | ${rows.map((row) => (bytes ? perChunk(bytes(row), row.chunks) : '')).join(' | ')} |`);
}

/** The report's title and what was measured on, before the table. */
function reportHeading(context: Context): void {
  const vectors = {
    uniform: 'random unit vectors (worst case)',
    perturbed: `real ${context.modelId} vectors + isotropic noise of norm ${NOISE}`,
    blended: `real ${context.modelId} vectors + ${BLEND} × another real chunk's vector + noise of norm ${NOISE}`,
  }[VECTORS];
  console.log(`\n## Sizing (${new Date().toISOString().slice(0, 10)}, ${context.minutes.toFixed(1)} min)\n`);
  console.log(
    `${context.environment.join('; ')}. Vectors: ${vectors}. HNSW build: maintenance_work_mem ${values['maintenance-work-mem']}, max_parallel_maintenance_workers ${values['parallel-workers']}.\n`,
  );
}

/** The table's header row: a column per size, then a bytes-per-chunk column per size. */
function reportTableHeader(rows: SizeRow[]): void {
  const header = [
    'measure',
    ...rows.map((row) => `${row.chunks.toLocaleString('en-US')} chunks`),
    ...rows.map((row) => `bytes/chunk at ${row.chunks / 1000}k`),
  ];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
}

/** The table's rows of bytes, one per part of the index. */
function reportSizeLines(line: TableLine): void {
  line('APIs (orgs: 1 large + small ones)', (row) => `${row.apis.toLocaleString('en-US')} (${SMALL_ORGS + 1})`);
  line(
    'api_chunks heap',
    (row) => mb(row.bytes.heap),
    (row) => row.bytes.heap,
  );
  line(
    'api_chunks TOAST',
    (row) => mb(row.bytes.toast),
    (row) => row.bytes.toast,
  );
  line(
    'HNSW index',
    (row) => mb(row.bytes.hnsw),
    (row) => row.bytes.hnsw,
  );
  line(
    'full-text GIN index',
    (row) => mb(row.bytes.gin),
    (row) => row.bytes.gin,
  );
  line(
    'all api_chunks indexes',
    (row) => mb(row.bytes.indexes),
    (row) => row.bytes.indexes,
  );
  line(
    'api_chunks total',
    (row) => mb(row.bytes.chunks_total),
    (row) => row.bytes.chunks_total,
  );
  line(
    'keyword postings (chunk_terms, with indexes)',
    (row) => `${mb(row.bytes.postings)} (${(row.bytes.posting_rows / row.chunks).toFixed(1)} rows/chunk)`,
    (row) => row.bytes.postings,
  );
  line(
    'spec copies (api_specs)',
    (row) => mb(row.bytes.specs),
    (row) => row.bytes.specs,
  );
  line(
    'API word counts, status, lexicon',
    (row) => mb(row.bytes.per_api),
    (row) => row.bytes.per_api,
  );
  line(
    'whole platform_ai schema',
    (row) => mb(row.bytes.schema_total),
    (row) => row.bytes.schema_total,
  );
}

/** The table's rows of seconds, latency and recall. */
function reportTimeLines(line: TableLine): void {
  const ms = (value: number) => value.toFixed(1);
  line('fill (bulk SQL, not timed as indexing)', (row) => `${row.fillSeconds.toFixed(0)} s`);
  line('HNSW build', (row) => `${row.buildSeconds.toFixed(1)} s`);
  for (const ef of EF) {
    line(`vector search p50 / p95 ms, large org, ef_search ${ef}`, (row) => `${ms(row.latency[ef].p50)} / ${ms(row.latency[ef].p95)}`);
  }
  for (const ef of EF) line(`recall@10 vs exact, large org, ef_search ${ef}`, (row) => row.recall[ef].toFixed(3));
  line('exact search p50 ms, large org (no index)', (row) => ms(row.exactMs));
  line(
    `small org: chunks, p50 / p95 ms, candidates returned of ${CANDIDATES}, recall@10 (ef ${EF[0]})`,
    (row) =>
      `${row.small.chunks.toLocaleString('en-US')}; ${ms(row.small.p50)} / ${ms(row.small.p95)}; ${row.small.returned.toFixed(0)}; ${row.small.recall.toFixed(3)}`,
  );
}

/** How the numbers were taken, after the table. */
function reportNotes(context: Context): void {
  console.log(
    `\nLatency: the product's vectorCandidates (${CANDIDATES} nearest chunks of the org) in its search transaction (SET LOCAL hnsw.iterative_scan, hnsw.ef_search, statement_timeout), ${context.queries} queries one at a time after a warm pass; recall@10 on the first ${RECALL_QUERIES}; the large org holds half of the chunks.`,
  );
  console.log(
    `Chunks per API: mean ${context.perApiMean.toFixed(1)}, median ${context.perApiMedian} over the demo catalogue's ${context.catalogueApis} real APIs.`,
  );
  console.log(
    `Embedding (${context.modelId}): ${context.embedPerSecond.toFixed(1)} chunks/s over ${context.embedChunks} real chunks; store (insertChunks + countWords, PostgreSQL): ${context.storeMs.toFixed(2)} ms/chunk.`,
  );
  if (context.probe)
    console.log(
      `HNSW build memory: the graph outgrew 16 MB of maintenance_work_mem after ${context.probe.tuples} tuples: ${Math.round(context.probe.bytes)} bytes per vector.`,
    );
}

function report(rows: SizeRow[], context: Context): void {
  reportHeading(context);
  reportTableHeader(rows);
  const line = tableLine(rows);
  reportSizeLines(line);
  reportTimeLines(line);
  reportNotes(context);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
