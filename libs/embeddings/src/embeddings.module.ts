import { type DynamicModule, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { EmbeddingProvider } from './embedding-provider.js';
import { HashEmbeddingProvider } from './hash.provider.js';
import { LocalUseEmbeddingProvider } from './local-use.provider.js';
import { OpenAiEmbeddingProvider } from './openai.provider.js';

/**
 * What identifies an embedding model, without secrets: stored beside its vectors, so that any
 * process (or a later start with another model configured) can build its provider again.
 */
export interface EmbeddingModelSpec {
  provider: 'local' | 'openai' | 'hash';
  /** The provider's model name (`openai` only). */
  model?: string;
  /** Vector size, where the provider lets you choose (`openai`, `hash`). */
  dimensions?: number;
  /** OpenAI-compatible server (`openai` only). */
  baseUrl?: string;
}

/** How this process talks to providers: not part of a model's identity. */
export interface ProviderRuntime {
  batchSize: number;
  apiKey?: string;
  timeoutMs: number;
}

export interface EmbeddingsModuleOptions {
  /** The model to index with from now on. */
  model: EmbeddingModelSpec;
  runtime: ProviderRuntime;
}

export function createProvider(spec: EmbeddingModelSpec, runtime: ProviderRuntime): EmbeddingProvider {
  switch (spec.provider) {
    case 'local':
      return new LocalUseEmbeddingProvider(runtime.batchSize);
    case 'openai':
      return new OpenAiEmbeddingProvider({
        apiKey: runtime.apiKey,
        baseUrl: spec.baseUrl,
        model: spec.model ?? 'text-embedding-3-small',
        dimensions: spec.dimensions,
        timeoutMs: runtime.timeoutMs,
        batchSize: runtime.batchSize,
      });
    case 'hash':
      return new HashEmbeddingProvider(spec.dimensions);
  }
}

/**
 * The configured model's provider, and the provider of any other model whose vectors are still
 * in use (the one search serves from while a switch to the configured model is under way).
 * Providers are built once and stopped with the app; the configured local model is loaded at
 * start, not on the first search.
 */
@Injectable()
export class EmbeddingProviders implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly configured: EmbeddingProvider;
  /** By the JSON of their spec. */
  private readonly bySpec = new Map<string, EmbeddingProvider>();

  constructor(private readonly options: EmbeddingsModuleOptions) {
    this.configured = this.forSpec(options.model);
  }

  get configuredSpec(): EmbeddingModelSpec {
    return this.options.model;
  }

  /** The provider of the model `spec` describes (built on first use). */
  forSpec(spec: EmbeddingModelSpec): EmbeddingProvider {
    const key = JSON.stringify(spec, Object.keys(spec).sort());
    let provider = this.bySpec.get(key);
    if (!provider) this.bySpec.set(key, (provider = createProvider(spec, this.options.runtime)));
    return provider;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.configured instanceof LocalUseEmbeddingProvider) await this.configured.warmUp();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.bySpec.values()].map(close));
  }
}

async function close(provider: EmbeddingProvider): Promise<void> {
  if (provider instanceof LocalUseEmbeddingProvider) await provider.close();
}

/** Provides `EmbeddingProviders` for the configured model. */
@Module({})
export class EmbeddingsModule {
  static forRoot(options: EmbeddingsModuleOptions): DynamicModule {
    return {
      module: EmbeddingsModule,
      global: true,
      providers: [{ provide: EmbeddingProviders, useFactory: () => new EmbeddingProviders(options) }],
      exports: [EmbeddingProviders],
    };
  }
}
