import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { EmbeddingModelsStatus } from '#contracts';
import { readFixture } from './fixtures/fixtures.js';
import { FakeOpenAi } from './support/fake-openai.js';
import { startStack, type TestStack, until, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const OLD_MODEL = 'hash-64';
const NEW_MODEL = 'openai:fake-embed:32';

const forecastSpec = (title: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title, version: '1', description: `${title}: hourly weather forecasts and rain alerts for any city.` },
    paths: {
      '/forecast': { get: { summary: 'Get the hourly weather forecast for a city', responses: { 200: { description: 'The forecast' } } } },
      '/alerts': { post: { summary: 'Subscribe to rain alerts', responses: { 201: { description: 'Subscribed' } } } },
    },
  });

/**
 * Restarting the AI app with another embedding model: search keeps using the old model's vectors
 * while the new model's are made in the background (by the worker, through the queue), then
 * switches in one step and the old vectors are deleted. The new model is an OpenAI-compatible
 * server that the test holds, so the switch can be watched half-way.
 */
describe('Embedding model switch', () => {
  const fake = new FakeOpenAi(32);
  const dataDir = mkdtempSync(join(tmpdir(), 'model-switch-'));
  let stack: TestStack;
  let publisher: string;
  let admin: string;

  const http = () => request(stack.gateway.getHttpServer());
  const search = (query: string) => http().post('/api-management/ai/search').set('authorization', `Bearer ${publisher}`).send({ orgId: ORG, query });
  const modelsStatus = async (): Promise<EmbeddingModelsStatus> => {
    const response = await http().get('/api-management/ai/admin/embedding-models').set('authorization', `Bearer ${admin}`);
    expect(response.status).toBe(200);
    return response.body;
  };
  const register = async (name: string, spec: string) => {
    const created = await http().post('/api-management/apis').set('authorization', `Bearer ${publisher}`).send({ orgId: ORG, name, version: '1', spec });
    expect(created.status).toBe(201);
    return created.body.apiId as string;
  };
  const database = () => stack.ai!.get(DataSource);
  const chunkModels = async () =>
    (await database().query(`SELECT model, count(*)::int AS rows FROM platform_ai.api_chunks GROUP BY model ORDER BY model`)) as {
      model: string;
      rows: number;
    }[];
  /** What the lexicon should hold: each (API, chunk, word) once. */
  const recountedLexicon = async () =>
    Number(
      (
        await database().query(
          `SELECT count(*) AS total FROM (SELECT DISTINCT c.api_id, c.chunk_key, w.lexeme FROM platform_ai.api_chunks c, unnest(c.search_vector) w) words`,
        )
      )[0].total,
    );
  /** Requests of one text: query embeddings (chunks are sent in batches). */
  const queryRequests = () => fake.requests.filter((sent) => sent.inputs === 1).length;
  const lexiconTotal = async () => Number((await database().query(`SELECT sum(chunk_count) AS total FROM platform_ai.lexicon`))[0].total);

  beforeAll(async () => {
    await fake.start();
    // Provider `hash`, then `openai` (hash vectors from the held server): the switch is tested, not a model.
    stack = await startStack({ aiDataDir: dataDir, env: { EMBEDDINGS_PROVIDER: 'hash', EMBEDDINGS_DIMENSIONS: '64' } });
    [publisher, admin] = await Promise.all([stack.token([ORG], ['publisher']), stack.token([ORG], ['admin'])]);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    await fake.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('should serve from the old model until every API has the new one, then switch and delete the old vectors', async () => {
    const petstore = await register('Petstore', readFixture('petstore-swagger2.yaml'));
    const weather = await register('Weather', forecastSpec('Weather'));
    for (const apiId of [petstore, weather]) await expect(waitForStatus(stack, publisher, apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(await modelsStatus()).toEqual({ active: { model: OLD_MODEL, provider: 'hash', dimensions: 64, activatedAt: expect.any(String) } });
    const [before] = await chunkModels();
    const wordsBefore = await lexiconTotal();

    // Restart with the new model while its server answers nothing.
    const release = fake.hold();
    await stack.restartAi({ EMBEDDINGS_PROVIDER: 'openai', OPENAI_BASE_URL: fake.baseUrl, EMBEDDINGS_MODEL: 'fake-embed', EMBEDDINGS_DIMENSIONS: '32' });

    const switching = await until(modelsStatus, (status) => Boolean(status.building));
    expect(switching).toMatchObject({
      active: { model: OLD_MODEL },
      building: { model: NEW_MODEL, provider: 'openai', dimensions: 32, total: 2, done: 0, failures: [] },
    });
    await until(
      async () => fake.requests.length,
      (count) => count > 0,
    ); // the worker is re-embedding (and held)
    // Search answers at once, from the old model's vectors: the held server is never asked a query.
    const during = await search('place an order for a pet');
    expect(during.status).toBe(200);
    expect(during.body.results[0]).toMatchObject({ apiId: petstore });
    expect(queryRequests()).toBe(0);
    // An API registered meanwhile is indexed for both models.
    const alerts = await register('Rain alerts', forecastSpec('Rain alerts'));

    release();
    await expect(waitForStatus(stack, publisher, alerts)).resolves.toMatchObject({ status: 'COMPLETED' });
    const switched = await until(modelsStatus, (status) => status.active.model === NEW_MODEL);
    expect(switched.building).toBeUndefined();

    // Search now embeds the query with the new model.
    const after = await search('hourly weather forecast for a city');
    expect(
      after.body.results
        .map((result: { apiId: string }) => result.apiId)
        .slice(0, 2)
        .sort(),
    ).toEqual([alerts, weather].sort());
    expect(queryRequests()).toBe(1);
    expect((await search('place an order for a pet')).body.results[0]).toMatchObject({ apiId: petstore });

    // The old vectors go once searches begun before the switch are over; each chunk counted once throughout.
    const remaining = await until(chunkModels, (models) => models.every((row) => row.model === NEW_MODEL), 40_000);
    expect(remaining).toEqual([{ model: NEW_MODEL, rows: before.rows + (await waitForStatus(stack, publisher, alerts)).chunkCount! }]);
    expect(await lexiconTotal()).toBe(await recountedLexicon());
    // Keyword search's postings follow their chunks: the new model's only, one per chunk word.
    const [postings] = await database().query(
      `SELECT array_agg(DISTINCT p.model) AS models, count(*)::int AS rows,
         (SELECT count(*)::int FROM platform_ai.api_chunks c, unnest(c.search_vector) w) AS words
       FROM platform_ai.chunk_terms p`,
    );
    expect(postings).toEqual({ models: [NEW_MODEL], rows: postings.words, words: postings.words });
    // Each API's word counts (API-level keyword relevance) match its chunks.
    const apiWords: { api_id: string; term_count: number; occurrences: number }[] = await database().query(
      `SELECT s.api_id, s.term_count, (SELECT sum(occurrences)::int FROM platform_ai.api_terms a WHERE a.api_id = s.api_id) AS occurrences
       FROM platform_ai.api_indexing_status s`,
    );
    expect(apiWords).toHaveLength(3);
    for (const row of apiWords) expect(row.occurrences).toBe(row.term_count);
    expect(await lexiconTotal()).toBeGreaterThan(wordsBefore);
    const indexes: { indexname: string }[] = await database().query(`SELECT indexname FROM pg_indexes WHERE indexname LIKE 'api_chunks_embedding_%'`);
    expect(indexes.map((index) => index.indexname)).toContain('api_chunks_embedding_openai_fake_embed_32_idx');
    expect(indexes.map((index) => index.indexname)).not.toContain('api_chunks_embedding_hash_64_idx');
  }, 240_000);
});
