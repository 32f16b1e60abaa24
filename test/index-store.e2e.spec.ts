import type { DataSource } from 'typeorm';
import type { EmbeddingModelsRepository } from '../apps/ai/src/embedding-models/embedding-models.repository.js';
import { ApiSpecsRepository } from '../apps/ai/src/index-store/api-specs.repository.js';
import type { EmbeddedChunk } from '../apps/ai/src/index-store/chunk-rows.js';
import { IndexStoreRepository } from '../apps/ai/src/index-store/index-store.repository.js';
import { ChunkRetriever } from '../apps/ai/src/search/chunk-retriever.js';
import { type AiTestDatabase, migratedAiDatabase } from './support/ai-database.js';

const MODEL = 'hash-3';
const ORG = 'acme';
const API = '00000000-0000-4000-8000-000000000001';

/** Operations of an API: each its own word, its key and a vector near [1, 0, 0]. */
function operations(words: string[]): EmbeddedChunk[] {
  return words.map((word, index) => ({
    key: `op:GET /${word}`,
    level: 'L2',
    title: `GET /${word}`,
    text: `Read the ${word} records`,
    embedText: word,
    method: 'GET',
    path: `/${word}`,
    tags: [],
    contentHash: word,
    embedding: [1, index / 100, 0],
  }));
}

/**
 * The store's swap of an API's chunks, on a throwaway PGlite: the new rows are written in short
 * transactions as a generation search does not see, then made live in one; word statistics stay
 * exact; an interrupted write leaves nothing search can see and is cleared by the next one.
 */
describe("IndexStoreRepository swapping an API's chunks (PGlite)", () => {
  let database: AiTestDatabase;
  let db: DataSource;
  let store: IndexStoreRepository;
  let failSwap = false;
  const job = (revision: number) => ({ apiId: API, orgId: ORG, revision, name: 'Records', version: '1', spec: '{}' });
  const retriever = () => new ChunkRetriever(db.manager, { orgId: ORG, model: MODEL, dimensions: 3, filters: {} });
  const index = async (revision: number, words: string[]) => {
    expect(await store.beginRevision(job(revision))).toBe(true);
    return store.replaceChunks(job(revision), [{ model: MODEL, chunks: operations(words) }], { kind: 'openapi', warnings: [] });
  };
  const paths = async () => (await retriever().endpoints([API])).map((row) => row.path).sort();
  const lexicon = async () =>
    Object.fromEntries(
      ((await db.query(`SELECT word, chunk_count FROM platform_ai.lexicon WHERE org_id = $1`, [ORG])) as { word: string; chunk_count: number }[]).map((row) => [
        row.word,
        row.chunk_count,
      ]),
    );

  beforeAll(async () => {
    database = await migratedAiDatabase();
    db = database.db;
    const models = {
      assertActiveCovered: async () => {
        if (failSwap) throw new Error('the embedding model changed while indexing');
      },
    } as unknown as EmbeddingModelsRepository;
    store = new IndexStoreRepository(db, models, new ApiSpecsRepository(db));
  }, 60_000);

  afterAll(async () => {
    await database?.close();
  });

  it("should replace an API's chunks with a revision's, keeping the word statistics exact", async () => {
    expect(await index(1, ['invoices', 'refunds'])).toBe(0);
    expect(await paths()).toEqual(['/invoices', '/refunds']);
    expect(await index(2, ['invoices', 'payouts', 'disputes'])).toBe(2);
    expect(await paths()).toEqual(['/disputes', '/invoices', '/payouts']);
    expect(await lexicon()).toMatchObject({ invoic: 1, payout: 1, disput: 1 });
    expect(await lexicon()).not.toHaveProperty('refund');
    expect(await db.query(`SELECT staging_generation, indexed_revision, chunk_count FROM platform_ai.api_indexing_status WHERE api_id = $1`, [API])).toEqual([
      { staging_generation: null, indexed_revision: 2, chunk_count: 3 },
    ]);
  });

  it('should keep rows being written out of search: nearest chunks, keywords, endpoints and filters', async () => {
    // Rows of a generation being staged, as a slice would have written them before the swap.
    await db.query(`UPDATE platform_ai.api_indexing_status SET staging_generation = 999 WHERE api_id = $1`, [API]);
    await db.query(
      `INSERT INTO platform_ai.api_chunks (api_id, org_id, revision, level, chunk_key, title, content, method, path, model, content_hash, embedding, generation)
       VALUES ($1, $2, 3, 'L2', 'op:GET /chargebacks', 'GET /chargebacks', 'Read the chargebacks records', 'GET', '/chargebacks', $3, 'c', '[1,0,0]', 999)`,
      [API, ORG, MODEL],
    );
    await db.query(
      `INSERT INTO platform_ai.chunk_terms (chunk_id, org_id, api_id, model, level, lexeme, rank, generation)
       SELECT id, org_id, api_id, model, level, 'chargeback', 1, generation FROM platform_ai.api_chunks WHERE generation = 999`,
    );

    expect(await paths()).toEqual(['/disputes', '/invoices', '/payouts']);
    const nearest = await retriever().vectorCandidates([1, 0, 0], 10);
    expect(nearest).toHaveLength(3);
    const keyword = await retriever().keywordCandidates(
      {
        terms: [{ lexeme: 'chargeback', weight: 1, chunkCount: 1, root: 'chargeback', cover: 1 }],
        matchTerms: ['chargeback'],
        namesUnknownThing: false,
        warnings: [],
        unknownWeight: 0,
      },
      10,
      [API],
    );
    expect(keyword).toEqual([]);
    const methods = new ChunkRetriever(db.manager, { orgId: ORG, model: MODEL, dimensions: 3, filters: { methods: ['GET'] } });
    expect((await methods.endpoints([API])).map((row) => row.path)).not.toContain('/chargebacks');
  });

  it('should clear what an interrupted write staged, and write the revision whole the next time', async () => {
    failSwap = true;
    await expect(index(3, ['invoices', 'chargebacks'])).rejects.toThrow('the embedding model changed');
    failSwap = false;
    // The old chunks still serve; the new ones wait, unseen.
    expect(await paths()).toEqual(['/disputes', '/invoices', '/payouts']);

    expect(await index(3, ['invoices', 'chargebacks'])).toBe(3);
    expect(await paths()).toEqual(['/chargebacks', '/invoices']);
    expect(Number((await db.query(`SELECT count(*) AS rows FROM platform_ai.api_chunks WHERE api_id = $1`, [API]))[0].rows)).toBe(2);
    expect(await lexicon()).toMatchObject({ invoic: 1, chargeback: 1 });
    expect(await lexicon()).not.toHaveProperty('payout');
  });

  it('should write nothing for a revision that is no longer the newest, or for a deleted API', async () => {
    await store.markDeleted({ apiId: API, orgId: ORG, revision: 4 });
    expect(await store.replaceChunks(job(3), [{ model: MODEL, chunks: operations(['ledgers']) }], { kind: 'openapi', warnings: [] })).toBeUndefined();
    expect(await db.query(`SELECT count(*)::int AS rows FROM platform_ai.api_chunks WHERE generation IS NOT NULL AND path = '/ledgers'`)).toEqual([
      { rows: 0 },
    ]);
    await store.deleteApi({ apiId: API, orgId: ORG, revision: 4 });
    expect(await db.query(`SELECT count(*)::int AS rows FROM platform_ai.api_chunks WHERE api_id = $1`, [API])).toEqual([{ rows: 0 }]);
    expect(await lexicon()).toEqual({});
  });
});
