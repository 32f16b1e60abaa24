import { Test } from '@nestjs/testing';
import { EMBEDDING_PROVIDER_NAMES } from './embedding-provider-factories.js';
import { EmbeddingError, type EmbeddingModelSpec, type EmbeddingProvider, type EmbeddingProviderFactory } from './embedding-provider.js';
import { EMBEDDING_PROVIDER_FACTORIES, EmbeddingProviders, EmbeddingsModule } from './embeddings.module.js';
import { HashEmbeddingProvider } from './hash.provider.js';
import { LocalUseEmbeddingProvider } from './local-use.provider.js';
import { OpenAiEmbeddingProvider } from './openai.provider.js';

const runtime = { batchSize: 8, timeoutMs: 1000 };

/** A provider that records its lifecycle calls. */
function fakeFactory(name: string, calls: string[], lifecycle = true): EmbeddingProviderFactory {
  return {
    name,
    create: (spec) => ({
      modelId: `${name}:${spec.dimensions ?? 0}`,
      dimensions: spec.dimensions ?? 0,
      embedDocuments: async () => [],
      embedQuery: async () => [],
      ...(lifecycle
        ? { warmUp: async () => void calls.push(`warmUp ${name}:${spec.dimensions}`), close: async () => void calls.push(`close ${name}:${spec.dimensions}`) }
        : {}),
    }),
  };
}

// Fake factories use names outside the built-in ones, as a plugin's would be.
const spec = (provider: string, dimensions?: number) => ({ provider, ...(dimensions ? { dimensions } : {}) }) as unknown as EmbeddingModelSpec;

describe(EmbeddingProviders.name, () => {
  it('should build each spec with the factory its provider names, once', () => {
    const providers = new EmbeddingProviders({ model: spec('a', 4), runtime }, [fakeFactory('a', []), fakeFactory('b', [])]);
    expect(providers.configured.modelId).toBe('a:4');
    expect(providers.forSpec(spec('b', 8)).modelId).toBe('b:8');
    expect(providers.forSpec({ dimensions: 4, provider: 'a' } as unknown as EmbeddingModelSpec)).toBe(providers.configured);
  });

  it('should refuse a provider no factory has, naming the known ones', () => {
    const providers = new EmbeddingProviders({ model: spec('a'), runtime }, [fakeFactory('a', [])]);
    expect(() => providers.forSpec(spec('gone'))).toThrow(new EmbeddingError('Unknown embedding provider "gone" (known: a)'));
  });

  it('should warm up the configured provider and close every one built, where they have those steps', async () => {
    const calls: string[] = [];
    const providers = new EmbeddingProviders({ model: spec('a', 1), runtime }, [fakeFactory('a', calls), fakeFactory('b', calls, false)]);
    providers.forSpec(spec('a', 2));
    providers.forSpec(spec('b', 3));
    await providers.onApplicationBootstrap();
    await providers.onApplicationShutdown();
    expect(calls).toEqual(['warmUp a:1', 'close a:1', 'close a:2']);
  });
});

describe(EmbeddingsModule.name, () => {
  it('should choose among the factories it is given by injection', async () => {
    const app = await Test.createTestingModule({ imports: [EmbeddingsModule.forRoot({ model: spec('a', 4), runtime })] })
      .overrideProvider(EMBEDDING_PROVIDER_FACTORIES)
      .useValue([fakeFactory('a', [])])
      .compile();
    expect(app.get(EmbeddingProviders).configured.modelId).toBe('a:4');
    await app.close();
  });

  it('should build the built-in providers with their defaults', async () => {
    expect(EMBEDDING_PROVIDER_NAMES).toEqual(['local', 'openai', 'hash']);
    const app = await Test.createTestingModule({ imports: [EmbeddingsModule.forRoot({ model: { provider: 'hash' }, runtime })] }).compile();
    const providers = app.get(EmbeddingProviders);
    expect(providers.configured).toBeInstanceOf(HashEmbeddingProvider);
    expect(providers.configured.modelId).toBe('hash-512');
    const openAi: EmbeddingProvider = providers.forSpec({ provider: 'openai', baseUrl: 'http://127.0.0.1:1' });
    expect(openAi).toBeInstanceOf(OpenAiEmbeddingProvider);
    expect(openAi.modelId).toBe('openai:text-embedding-3-small:1536');
    // Built, not used: its threads start on the first request.
    expect(providers.forSpec({ provider: 'local' })).toBeInstanceOf(LocalUseEmbeddingProvider);
    await app.close();
  });
});
