import type { DataSource, EntityManager } from 'typeorm';
import { cards, operations } from '../apps/ai/src/search/api-cards.js';
import { allApis } from '../apps/ai/src/search/browse.js';
import { nearestChunksOf } from '../apps/ai/src/search/nearest-chunks.js';
import { type SearchScope, SearchSnapshot } from '../apps/ai/src/search/search-snapshot.js';
import { vectorCandidates } from '../apps/ai/src/search/stages/retrieve.stage.js';
import { type AiTestDatabase, migratedAiDatabase } from './support/ai-database.js';

const MODEL = 'hash-3';
const NEAR = '00000000-0000-4000-8000-000000000001';
const FAR = '00000000-0000-4000-8000-000000000002';
const OTHER_TEAM = '00000000-0000-4000-8000-000000000003';
const OTHER_ORG = '00000000-0000-4000-8000-000000000004';

const BILLING = '00000000-0000-4000-8000-000000000005';
const CROWD = '00000000-0000-4000-8000-000000000006';
/** Chunks of one API near the query, more than the HNSW scan is allowed to look at in the test. */
const CROWD_CHUNKS = 40;

/**
 * The SQL of vector search on a throwaway PGlite with 3-d vectors: the exact nearest chunks of
 * named APIs (`nearestChunksOf`), which search uses for APIs the approximate nearest list missed,
 * and the nearest chunks of a filtered search; and the filters as browsing and the cards see them.
 */
describe('search SQL (PGlite)', () => {
  let database: AiTestDatabase;
  let db: DataSource;
  const scope = (filters: SearchScope['filters'] = {}): SearchScope => ({ orgId: 'acme', model: MODEL, dimensions: 3, filters });

  beforeAll(async () => {
    database = await migratedAiDatabase();
    db = database.db;
    const apis = [
      { id: NEAR, org: 'acme', team: 'payments', chunks: 3 },
      { id: FAR, org: 'acme', team: 'payments', chunks: 2 },
      { id: OTHER_TEAM, org: 'acme', team: 'growth', chunks: 1 },
      { id: OTHER_ORG, org: 'globex', team: 'payments', chunks: 1 },
      { id: BILLING, org: 'initech', team: 'billing', chunks: 3 },
      { id: CROWD, org: 'initech', team: 'growth', chunks: CROWD_CHUNKS },
    ];
    for (const api of apis) {
      await db.query(
        `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, indexed_revision, status, chunk_count) VALUES ($1, $2, 1, 1, 'COMPLETED', $3)`,
        [api.id, api.org, api.chunks],
      );
      await db.query(`INSERT INTO platform_ai.api_specs (api_id, revision, org_id, name, version, team_name, spec) VALUES ($1, 1, $2, 'API', '1', $3, '{}')`, [
        api.id,
        api.org,
        api.team,
      ]);
    }
    const chunks: [string, string, string, string][] = [
      [NEAR, 'api', 'L1', '[1,0,0]'],
      [NEAR, 'op:a', 'L2', '[0.9,0.1,0]'],
      [NEAR, 'op:b', 'L2', '[0,1,0]'],
      [FAR, 'api', 'L1', '[0,0,1]'],
      [FAR, 'op:a', 'L2', '[0.5,0,0.5]'],
      [OTHER_TEAM, 'api', 'L1', '[1,0,0]'],
      [OTHER_ORG, 'api', 'L1', '[1,0,0]'],
    ];
    chunks.push([BILLING, 'api', 'L1', '[0,0,1]'], [BILLING, 'op:a', 'L2', '[0.1,0,1]'], [BILLING, 'op:b', 'L2', '[0.3,0,1]']);
    for (let index = 0; index < CROWD_CHUNKS; index++) chunks.push([CROWD, `op:${index}`, 'L2', `[1,${index / 100},0]`]);
    for (const [apiId, key, level, embedding] of chunks) {
      const org = apiId === OTHER_ORG ? 'globex' : apiId === BILLING || apiId === CROWD ? 'initech' : 'acme';
      await db.query(
        `INSERT INTO platform_ai.api_chunks (api_id, org_id, revision, level, chunk_key, title, content, model, content_hash, embedding)
         VALUES ($1, $2, 1, $3, $4, $4, $4, $5, $4, $6)`,
        [apiId, org, level, key, MODEL, embedding],
      );
    }
    // The same API embedded by another model: never mixed in.
    await db.query(
      `INSERT INTO platform_ai.api_chunks (api_id, org_id, revision, level, chunk_key, title, content, model, content_hash, embedding)
       VALUES ($1, 'acme', 1, 'L1', 'api', 'api', 'api', 'other-2', 'api', '[1,0]')`,
      [FAR],
    );
    await db.query(`UPDATE platform_ai.api_chunks SET tags = '{Invoices,Billing}' WHERE api_id = $1 AND chunk_key = 'op:a'`, [BILLING]);
    // A tag the spec declares (its L1 chunk lists them) that no operation carries.
    await db.query(`UPDATE platform_ai.api_chunks SET tags = '{Invoices,Billing,Refunds}' WHERE api_id = $1 AND chunk_key = 'api'`, [BILLING]);
    // The billing API is GraphQL: its operations' verbs are QUERY and MUTATION.
    await db.query(`UPDATE platform_ai.api_indexing_status SET kind = 'graphql' WHERE api_id = $1`, [BILLING]);
    await db.query(`UPDATE platform_ai.api_chunks SET method = 'QUERY', path = 'invoices' WHERE api_id = $1 AND chunk_key = 'op:a'`, [BILLING]);
    await db.query(`UPDATE platform_ai.api_chunks SET method = 'MUTATION', path = 'refundInvoice' WHERE api_id = $1 AND chunk_key = 'op:b'`, [BILLING]);
    await db.query(`UPDATE platform_ai.api_chunks SET method = 'GET', path = '/' || chunk_key WHERE api_id = $1 AND level = 'L2'`, [CROWD]);
    // The model's partial HNSW index, as `VectorIndexService` creates it.
    await db.query(
      `CREATE INDEX api_chunks_embedding_hash_3_idx ON platform_ai.api_chunks
       USING hnsw ((embedding::vector(3)) vector_cosine_ops) WHERE model = '${MODEL}'`,
    );
  }, 60_000);

  afterAll(async () => {
    await database?.close();
  });

  it('should give each named API its nearest chunks of the model by exact similarity, however far they are', async () => {
    const chunks = await nearestChunksOf(new SearchSnapshot(db.manager, scope()), [1, 0, 0], [NEAR, FAR], 2);
    const byApi = (apiId: string) => chunks.filter((chunk) => chunk.apiId === apiId).sort((a, b) => b.score - a.score);
    expect(byApi(NEAR).map((chunk) => [chunk.level, chunk.score])).toEqual([
      ['L1', expect.closeTo(1)],
      ['L2', expect.closeTo(0.9 / Math.hypot(0.9, 0.1))],
    ]);
    expect(byApi(FAR).map((chunk) => [chunk.level, chunk.score])).toEqual([
      ['L2', expect.closeTo(Math.SQRT1_2)],
      ['L1', expect.closeTo(0)],
    ]);
    expect(chunks).toHaveLength(4);
  });

  it("should see only the org's APIs that pass the filters", async () => {
    const snapshot = new SearchSnapshot(db.manager, scope({ teamNames: ['Payments'] }));
    const chunks = await nearestChunksOf(snapshot, [1, 0, 0], [NEAR, OTHER_TEAM, OTHER_ORG], 3);
    expect(new Set(chunks.map((chunk) => chunk.apiId))).toEqual(new Set([NEAR]));
    expect(await nearestChunksOf(snapshot, [1, 0, 0], [], 3)).toEqual([]);
  });

  it("should find a filtered search's nearest chunks among the filtered APIs however many others are nearer", async () => {
    // The HNSW index filters after it scans: allowed to scan fewer chunks than the crowd holds, it
    // would find none of the billing team's. A search filtered to a few APIs measures them exactly.
    const chunks = await db.transaction(async (manager) => {
      await manager.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
      await manager.query(`SET LOCAL hnsw.max_scan_tuples = ${CROWD_CHUNKS / 4}`);
      await manager.query(`SET LOCAL enable_seqscan = off`);
      const snapshot = new SearchSnapshot(manager, { orgId: 'initech', model: MODEL, dimensions: 3, filters: { teamNames: ['billing'] } });
      return vectorCandidates(snapshot, [1, 0, 0], 2);
    });
    expect(chunks.map((chunk) => [chunk.apiId, chunk.level, chunk.score])).toEqual([
      [BILLING, 'L2', expect.closeTo(0.3 / Math.hypot(0.3, 1))],
      [BILLING, 'L2', expect.closeTo(0.1 / Math.hypot(0.1, 1))],
    ]);
  });

  it('should use the HNSW index unless the filters leave fewer chunks than it would scan', async () => {
    const plan = (filters: SearchScope['filters']) =>
      db.transaction(async (manager) => {
        await manager.query(`SET LOCAL enable_seqscan = off`);
        const statements: [string, unknown[]][] = [];
        const recording = { query: (sql: string, params: unknown[]) => (statements.push([sql, params]), manager.query(sql, params)) } as EntityManager;
        await vectorCandidates(new SearchSnapshot(recording, { orgId: 'initech', model: MODEL, dimensions: 3, filters }), [1, 0, 0], 3);
        const [sql, params] = statements.at(-1)!;
        const rows: { 'QUERY PLAN': string }[] = await manager.query(`EXPLAIN ${sql}`, params);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    expect(await plan({})).toContain('api_chunks_embedding_hash_3_idx');
    expect(await plan({ teamNames: ['billing'] })).not.toContain('api_chunks_embedding_hash_3_idx');
    // The growth team holds nearly all the chunks: the index finds its nearest at once.
    expect(await plan({ teamNames: ['growth'] })).toContain('api_chunks_embedding_hash_3_idx');
  });

  it('should filter by tag in any case: the APIs with a tagged operation, and of their operations only the tagged ones', async () => {
    const snapshot = new SearchSnapshot(db.manager, { orgId: 'initech', model: MODEL, dimensions: 3, filters: { tags: ['INVOICES'] } });
    // What matched must be among the operations the card lists: the untagged op:b (nearer) is left out.
    expect((await vectorCandidates(snapshot, [1, 0, 0], 10)).map((chunk) => [chunk.apiId, chunk.level, chunk.score])).toEqual([
      [BILLING, 'L2', expect.closeTo(0.1 / Math.hypot(0.1, 1))],
      [BILLING, 'L1', expect.closeTo(0)],
    ]);
    expect((await allApis(snapshot, 10)).map((api) => api.apiId)).toEqual([BILLING]);
    expect((await operations(snapshot, [BILLING, CROWD])).map((row) => [row.apiId, row.id])).toEqual([[BILLING, expect.any(String)]]);
    // Declared but on no operation: a card would have no endpoints.
    const untagged = new SearchSnapshot(db.manager, { orgId: 'initech', model: MODEL, dimensions: 3, filters: { tags: ['refunds'] } });
    expect(await vectorCandidates(untagged, [1, 0, 0], 10)).toEqual([]);
  });

  it("should filter by kind, searching and browsing, and give each card its API's kind", async () => {
    const initech = (filters: SearchScope['filters']) => new SearchSnapshot(db.manager, { orgId: 'initech', model: MODEL, dimensions: 3, filters });
    expect((await allApis(initech({}), 10)).map((api) => [api.apiId, api.kind]).sort()).toEqual(
      [
        [BILLING, 'graphql'],
        [CROWD, 'openapi'],
      ].sort(),
    );
    const graphql = initech({ kinds: ['graphql'] });
    expect((await allApis(graphql, 10)).map((api) => api.apiId)).toEqual([BILLING]);
    expect(new Set((await vectorCandidates(graphql, [1, 0, 0], 10)).map((chunk) => chunk.apiId))).toEqual(new Set([BILLING]));
    expect((await allApis(initech({ kinds: ['openapi'] }), 10)).map((api) => api.apiId)).toEqual([CROWD]);
    expect(await allApis(initech({ kinds: ['asyncapi'] }), 10)).toEqual([]);
    expect((await cards(graphql, [BILLING, CROWD])).get(BILLING)).toMatchObject({ kind: 'graphql' });
  });

  it("should filter by any kind's verbs: the APIs with such an operation, and of their operations only those", async () => {
    const mutations = new SearchSnapshot(db.manager, { orgId: 'initech', model: MODEL, dimensions: 3, filters: { methods: ['MUTATION'] } });
    expect((await allApis(mutations, 10)).map((api) => api.apiId)).toEqual([BILLING]);
    expect((await operations(mutations, [BILLING, CROWD])).map((row) => [row.method, row.path])).toEqual([['MUTATION', 'refundInvoice']]);
    expect((await vectorCandidates(mutations, [1, 0, 0], 10)).map((chunk) => [chunk.apiId, chunk.level])).toEqual([
      [BILLING, 'L2'],
      [BILLING, 'L1'],
    ]);
  });
});
