import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Queue } from 'bullmq';
import request from 'supertest';
import { type AiConfig, loadAiConfig, redisConnectionOptions } from '#config';
import { type IndexApiJob, INDEXING_JOB_OPTIONS, INDEXING_QUEUE, IndexingJobName, indexingJobId, InternalHeader, type SearchResponse } from '#contracts';
import { contentHash, defaultSpecFormats, type SpecChunk } from '#api-specs';
import { createAiApp } from '../apps/ai/src/create-ai-app.js';
import { EmbeddingModelsService } from '../apps/ai/src/embedding-models/embedding-models.service.js';
import { IndexStoreRepository } from '../apps/ai/src/index-store/index-store.repository.js';
import { starting, stoppable } from './support/leftovers.js';
import { IN_MEMORY } from './support/pglite-seed.js';
import { stackEnv, startStack, type TestStack, until } from './support/stack.js';

const ORG = 'acme';
const PETS = randomUUID();
const GITHUB = randomUUID();

const petsSpec = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', summary: 'List the pets in the store', tags: ['pets'], responses: { 200: { description: 'The pets' } } },
      post: { operationId: 'addPet', summary: 'Add a pet to the store', tags: ['pets'], responses: { 201: { description: 'Added' } } },
    },
  },
});

/** A GraphQL API's chunks as its format would make them: its verbs are QUERY and MUTATION. */
const githubChunks: SpecChunk[] = [
  { key: 'api', level: 'L1', title: 'GitHub', text: 'GitHub: pull requests and issues', embedText: 'GitHub: pull requests and issues', tags: [] },
  ...[
    ['QUERY', 'pullRequest', 'Look up a pull request by number'],
    ['MUTATION', 'closePullRequest', 'Close a pull request'],
  ].map(([method, path, summary]) => ({
    key: `op:${method} ${path}`,
    level: 'L2' as const,
    title: `${method} ${path}`,
    text: summary,
    embedText: summary,
    method,
    path,
    summary,
    tags: ['pulls'],
  })),
];

/**
 * API kinds in the AI app, with Redis and an in-memory PGlite: an OpenAPI job indexed as the
 * format it names, an API of another kind (GraphQL, its chunks written as its format would make
 * them), and what search, status, facets and operation details make of their kinds.
 */
describe('API kinds (AI app)', () => {
  let app: INestApplication;
  let config: AiConfig;
  let close: () => Promise<void>;
  const http = () => request(app.getHttpServer());
  const search = (body: Record<string, unknown>) =>
    http()
      .post('/search')
      .set(InternalHeader.ServiceToken, config.serviceToken)
      .send({ orgId: ORG, ...body });
  const status = (apiId: string, revision = 1) =>
    http()
      .get(`/indexing-status/${apiId}`)
      .set(InternalHeader.ServiceToken, config.serviceToken)
      .set(InternalHeader.ApiOrg, ORG)
      .set(InternalHeader.ApiRevision, String(revision));
  const cards = (response: { body: SearchResponse }) => response.body.results.map((card) => [card.apiName, card.kind]);

  beforeAll(async () => {
    const env = stackEnv();
    config = loadAiConfig(env);
    const queue = new Queue(INDEXING_QUEUE, { connection: redisConnectionOptions(config.redis.url), prefix: config.redis.queuePrefix });
    close = stoppable(async () => {
      await app?.close();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    });
    app = await starting(createAiApp({ ...config, database: { ...config.database, ...IN_MEMORY } }));
    await app.init();

    // An OpenAPI registration, as the gateway queues it: the format it was read as goes with it.
    const job: IndexApiJob = { apiId: PETS, orgId: ORG, revision: 1, name: 'Pets', version: '1', spec: petsSpec, format: 'openapi' };
    await queue.add(IndexingJobName.Index, job, { ...INDEXING_JOB_OPTIONS, jobId: indexingJobId(PETS, 1, IndexingJobName.Index) });

    // A GraphQL API, written as the worker writes one.
    const store = app.get(IndexStoreRepository);
    const provider = await app.get(EmbeddingModelsService).serving();
    const vectors = await provider.embedDocuments(githubChunks.map((chunk) => chunk.embedText));
    const github: IndexApiJob = {
      apiId: GITHUB,
      orgId: ORG,
      revision: 1,
      name: 'GitHub',
      version: '4',
      spec: 'type Query { pullRequest(number: Int!): String }',
      format: 'graphql',
    };
    expect(await store.beginRevision(github)).toBe(true);
    const chunks = githubChunks.map((chunk, index) => ({ ...chunk, contentHash: contentHash(chunk.embedText), embedding: vectors[index] }));
    expect(await store.replaceChunks(github, [{ model: provider.modelId, chunks }], { kind: 'graphql', warnings: [] })).toBe(0);

    await until(
      async () => (await status(PETS)).body.status,
      (state) => state === 'COMPLETED' || state === 'FAILED',
    );
  }, 120_000);

  afterAll(async () => {
    await close?.();
  });

  it("should say each API's kind in its status", async () => {
    expect((await status(PETS)).body).toMatchObject({ status: 'COMPLETED', kind: 'openapi' });
    expect((await status(GITHUB)).body).toMatchObject({ status: 'COMPLETED', kind: 'graphql' });
  });

  it('should give every card its kind, searching and browsing', async () => {
    const found = await search({ query: 'close a pull request' });
    expect(found.status).toBe(200);
    expect(cards(found)[0]).toEqual(['GitHub', 'graphql']);
    const browsed = await search({ query: '' });
    expect(cards(browsed)).toEqual([
      ['GitHub', 'graphql'],
      ['Pets', 'openapi'],
    ]);
  });

  it('should filter by kind, searching and browsing', async () => {
    // Only kinds this app reads are accepted (see the last test): OpenAPI always is.
    expect(cards(await search({ query: '', filters: { kinds: ['openapi'] } }))).toEqual([['Pets', 'openapi']]);
    expect(cards(await search({ query: 'pets', filters: { kinds: ['openapi'] } }))).toEqual([['Pets', 'openapi']]);
    expect(cards(await search({ query: 'close a pull request', filters: { kinds: ['openapi'] } }))).not.toContainEqual(['GitHub', 'graphql']);
    // Names in any case, as methods are.
    expect(cards(await search({ query: '', filters: { kinds: ['OpenAPI'] } }))).toEqual([['Pets', 'openapi']]);
  });

  it("should filter by any kind's verbs, and list only the operations that have them", async () => {
    const mutations = await search({ query: '', filters: { methods: ['mutation'] } });
    expect(mutations.status).toBe(200);
    expect(cards(mutations)).toEqual([['GitHub', 'graphql']]);
    expect(mutations.body.results[0].endpoints).toEqual([{ method: 'MUTATION', path: 'closePullRequest', summary: 'Close a pull request' }]);
    const searched = await search({ query: 'pull request', filters: { methods: ['QUERY'] } });
    expect((searched.body as SearchResponse).results.map((card) => card.endpoints.map((endpoint) => endpoint.method))).toEqual([['QUERY']]);
    expect(cards(await search({ query: '', filters: { methods: ['POST', 'QUERY'] } }))).toHaveLength(2);
  });

  it('should refuse a kind it does not know, naming those it knows, and verbs that are not words', async () => {
    const unknown = await search({ query: '', filters: { kinds: ['soap'] } });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('soap');
    expect(JSON.stringify(unknown.body)).toContain('openapi');
    expect((await search({ query: '', filters: { kinds: ['no such kind!'] } })).status).toBe(400);
    expect((await search({ query: '', filters: { kinds: Array.from({ length: 11 }, () => 'openapi') } })).status).toBe(400);
    expect((await search({ query: '', filters: { methods: ['GET /pets'] } })).status).toBe(400);
    expect((await search({ query: '', filters: { methods: ['VERYLONGVERBWITHMORETHANSIXTEEN'] } })).status).toBe(400);
  });

  it("should count the org's kinds in the facets", async () => {
    const facets = await http()
      .post('/facets')
      .set(InternalHeader.ServiceToken, config.serviceToken)
      .send({ orgIds: [ORG] });
    expect(facets.status).toBe(200);
    expect(facets.body.kinds).toEqual([
      { name: 'graphql', apiCount: 1 },
      { name: 'openapi', apiCount: 1 },
    ]);
  });

  it("should show an API's kind and format with its operations, and find an operation by its verb and address", async () => {
    const operations = await http().get(`/apis/${PETS}/operations`).set(InternalHeader.ServiceToken, config.serviceToken).set(InternalHeader.CallerOrgs, ORG);
    expect(operations.status).toBe(200);
    expect(operations.body).toMatchObject({ kind: 'openapi', format: 'OpenAPI 3.0.3' });
    const detail = await http()
      .get(`/apis/${PETS}/operations/detail`)
      .query({ method: 'post', path: '/pets' })
      .set(InternalHeader.ServiceToken, config.serviceToken)
      .set(InternalHeader.CallerOrgs, ORG);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ method: 'POST', path: '/pets', operationId: 'addPet' });
    // Another kind's verb and address are a well-formed selector: this API has no such operation.
    const other = await http()
      .get(`/apis/${PETS}/operations/detail`)
      .query({ method: 'MUTATION', path: 'closePullRequest' })
      .set(InternalHeader.ServiceToken, config.serviceToken)
      .set(InternalHeader.CallerOrgs, ORG);
    expect(other.status).toBe(404);
  });
});

/**
 * `GET /api-management/kinds` on the gateway (no AI app): every kind its spec format plugins
 * read, in their order, as plain data, to any caller with a valid token.
 */
describe('API kinds (gateway)', () => {
  let stack: TestStack;
  const http = () => request(stack.gateway.getHttpServer());

  beforeAll(async () => {
    stack = await startStack({ withoutAi: true });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should refuse a caller without a token, or with a bad one', async () => {
    const none = await http().get('/api-management/kinds');
    expect(none.status).toBe(401);
    expect(none.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await http().get('/api-management/kinds').set('authorization', 'Bearer not-a-token')).status).toBe(401);
  });

  it("should list every plugin's kind in plugin order, with its verbs, parts and file extensions", async () => {
    const response = await http()
      .get('/api-management/kinds')
      .set('authorization', `Bearer ${await stack.token([ORG], ['reader'])}`);
    expect(response.status).toBe(200);
    const formats = defaultSpecFormats().all;
    expect(response.body).toEqual({
      items: formats.map((format) => ({
        kind: format.kind,
        name: format.name,
        label: format.label,
        verbs: [...format.verbs],
        parts: { ...format.parts },
        fileExtensions: [...format.fileExtensions],
      })),
    });
    // The four kinds the platform has always read, and any a newer plugin adds.
    expect(response.body.items.map((info: { kind: string }) => info.kind)).toEqual(expect.arrayContaining(['openapi', 'asyncapi', 'graphql', 'grpc']));
    expect(response.body.items.find((info: { kind: string }) => info.kind === 'graphql')).toMatchObject({
      verbs: ['QUERY', 'MUTATION', 'SUBSCRIPTION'],
      parts: { inputs: 'Arguments', body: 'Input', responses: 'Returns' },
      fileExtensions: ['.graphql', '.graphqls', '.gql'],
    });
  });

  it("should answer any org's caller with any role: the kinds are the platform's, not an org's", async () => {
    for (const [orgs, roles] of [
      [['elsewhere'], ['reader']],
      [[ORG], ['admin']],
    ] as const) {
      const response = await http()
        .get('/api-management/kinds')
        .set('authorization', `Bearer ${await stack.token([...orgs], [...roles])}`);
      expect(response.status).toBe(200);
      expect(response.body.items).toHaveLength(defaultSpecFormats().all.length);
    }
  });

  it("should be in the gateway's own OpenAPI document, with its schema and problem responses", async () => {
    const document = (await http().get('/docs/openapi.json')).body;
    const route = document.paths['/api-management/kinds'].get;
    expect(route.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApiKindsResponseDoc' });
    expect(route.responses['401'].content['application/problem+json']).toBeDefined();
    expect(Object.keys(document.components.schemas.ApiKindInfoDoc.properties)).toEqual(['kind', 'name', 'label', 'verbs', 'parts', 'fileExtensions']);
  });
});
