import type { DataSource } from 'typeorm';
import { ChunkRetriever, type SearchScope } from '../apps/ai/src/search/chunk-retriever.js';
import { type AiTestDatabase, migratedAiDatabase } from './support/ai-database.js';

const MODEL = 'hash-3';
const NEAR = '00000000-0000-4000-8000-000000000001';
const FAR = '00000000-0000-4000-8000-000000000002';
const OTHER_TEAM = '00000000-0000-4000-8000-000000000003';
const OTHER_ORG = '00000000-0000-4000-8000-000000000004';

/**
 * The exact nearest chunks of named APIs (`nearestChunksOf`), which search uses for APIs the
 * approximate nearest list missed, on a throwaway PGlite with 3-d vectors.
 */
describe('ChunkRetriever.nearestChunksOf (PGlite)', () => {
  let database: AiTestDatabase;
  let db: DataSource;
  const scope = (filters: SearchScope['filters'] = {}): SearchScope => ({ orgId: 'acme', model: MODEL, dimensions: 3, filters });

  beforeAll(async () => {
    database = await migratedAiDatabase();
    db = database.db;
    const apis = [
      { id: NEAR, org: 'acme', team: 'payments' },
      { id: FAR, org: 'acme', team: 'payments' },
      { id: OTHER_TEAM, org: 'acme', team: 'growth' },
      { id: OTHER_ORG, org: 'globex', team: 'payments' },
    ];
    for (const api of apis) {
      await db.query(
        `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, indexed_revision, status, chunk_count) VALUES ($1, $2, 1, 1, 'COMPLETED', 4)`,
        [api.id, api.org],
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
    for (const [apiId, key, level, embedding] of chunks) {
      const org = apiId === OTHER_ORG ? 'globex' : 'acme';
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
  }, 60_000);

  afterAll(async () => {
    await database?.close();
  });

  it("should give each named API its nearest chunks of the model by exact similarity, however far they are", async () => {
    const chunks = await new ChunkRetriever(db.manager, scope()).nearestChunksOf([1, 0, 0], [NEAR, FAR], 2);
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
    const retriever = new ChunkRetriever(db.manager, scope({ teamNames: ['Payments'] }));
    const chunks = await retriever.nearestChunksOf([1, 0, 0], [NEAR, OTHER_TEAM, OTHER_ORG], 3);
    expect(new Set(chunks.map((chunk) => chunk.apiId))).toEqual(new Set([NEAR]));
    expect(await retriever.nearestChunksOf([1, 0, 0], [], 3)).toEqual([]);
  });
});
