import { FakeOpenAi } from '../../../test/support/fake-openai.js';
import { EmbeddingError } from './embedding-provider.js';
import { hashEmbedding } from './hash.provider.js';
import { OpenAiEmbeddingProvider } from './openai.provider.js';

describe(OpenAiEmbeddingProvider.name, () => {
  const server = new FakeOpenAi(16);
  const provider = () =>
    new OpenAiEmbeddingProvider({ baseUrl: server.baseUrl, model: 'test-embed', dimensions: 16, timeoutMs: 5000, batchSize: 32, maxRetries: 3 });

  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => server.requests.splice(0));

  it('should batch documents and keep their order', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `text number ${i}`);
    const vectors = await provider().embedDocuments(texts);
    expect(server.requests.map((r) => r.inputs)).toEqual([32, 32, 6]);
    expect(vectors).toHaveLength(70);
    expect(vectors[69]).toEqual(hashEmbedding('text number 69', 16));
    expect(provider().modelId).toBe('openai:test-embed:16');
  });

  it('should wait as long as a 429 says (Retry-After) and then succeed', async () => {
    server.fail({ status: 429, retryAfter: '1' });
    const started = Date.now();
    await expect(provider().embedQuery('hello')).resolves.toHaveLength(16);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('should retry server errors with backoff', async () => {
    server.fail({ status: 503 }, { status: 500 });
    await expect(provider().embedQuery('hello')).resolves.toEqual(hashEmbedding('hello', 16));
    expect(server.requests).toHaveLength(3);
  });

  it('should give up with an EmbeddingError once the retries are spent, and refuse vectors of the wrong size', async () => {
    server.fail({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    await expect(provider().embedQuery('hello')).rejects.toThrow(EmbeddingError);
    expect(server.requests).toHaveLength(4);

    server.fail('wrong-size');
    await expect(provider().embedQuery('hello')).rejects.toThrow(/unexpected size/);
  }, 30_000);
});
