import request from 'supertest';
import { DataSource } from 'typeorm';
import { readFixture } from './fixtures/fixtures.js';
import { FakeOpenAi } from './support/fake-openai.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';

/** The whole pipeline on the `openai` provider, against a local server speaking its protocol. */
describe('EMBEDDINGS_PROVIDER=openai', () => {
  const fake = new FakeOpenAi(64);
  let stack: TestStack;
  let publisher: string;

  beforeAll(async () => {
    await fake.start();
    // openai, from a local server answering hash vectors: the provider is tested, not a model.
    stack = await startStack({
      env: { EMBEDDINGS_PROVIDER: 'openai', OPENAI_BASE_URL: fake.baseUrl, EMBEDDINGS_MODEL: 'fake-embed', EMBEDDINGS_DIMENSIONS: '64' },
    });
    publisher = await stack.token([ORG], ['publisher']);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    await fake.stop();
  });

  it("should index through the provider, through a 429 and a 503, into the model's own HNSW index, and search with it", async () => {
    fake.fail({ status: 429, retryAfter: '1' }, { status: 503 });
    const created = await request(stack.gateway.getHttpServer())
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Petstore', version: '1', spec: readFixture('petstore-swagger2.yaml') });
    await expect(waitForStatus(stack, publisher, created.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });

    const dataSource = stack.ai!.get(DataSource);
    const [{ models }] = await dataSource.query(`SELECT array_agg(DISTINCT model) AS models FROM platform_ai.api_chunks`);
    expect(models).toEqual(['openai:fake-embed:64']);
    const indexes: { indexdef: string }[] = await dataSource.query(`SELECT indexdef FROM pg_indexes WHERE indexname LIKE 'api_chunks_embedding_openai%'`);
    expect(indexes[0].indexdef).toMatch(/hnsw.*vector\(64\).*WHERE.*openai:fake-embed:64/s);

    const found = await request(stack.gateway.getHttpServer())
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, query: 'place an order for a pet' });
    expect(found.body.results[0]).toMatchObject({ apiId: created.body.apiId });
    expect(found.body.results[0].endpoints.map((e: { path: string }) => e.path)).toContain('/store/order');
  });
});
