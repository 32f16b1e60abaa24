import { type DynamicModule, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BUILT_IN_EMBEDDING_PROVIDERS } from './embedding-provider-factories.js';
import { EmbeddingError, type EmbeddingModelSpec, type EmbeddingProvider, type EmbeddingProviderFactory, type ProviderRuntime } from './embedding-provider.js';

export interface EmbeddingsModuleOptions {
  /** The model to index with from now on. */
  model: EmbeddingModelSpec;
  runtime: ProviderRuntime;
}

/** The factories `EmbeddingProviders` chooses from by a spec's `provider`: the built-in ones, unless a test overrides them. */
export const EMBEDDING_PROVIDER_FACTORIES = Symbol('EMBEDDING_PROVIDER_FACTORIES');

/**
 * The configured model's provider, and the provider of any other model whose vectors are still
 * in use (the one search serves from while a switch to the configured model is under way).
 * Providers are built once and stopped with the app; the configured model is warmed up at
 * start (the local one loads its model then, not on the first search).
 */
@Injectable()
export class EmbeddingProviders implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly configured: EmbeddingProvider;
  private readonly factories: ReadonlyMap<string, EmbeddingProviderFactory>;
  /** By the JSON of their spec. */
  private readonly bySpec = new Map<string, EmbeddingProvider>();

  constructor(
    private readonly options: EmbeddingsModuleOptions,
    factories: readonly EmbeddingProviderFactory[],
  ) {
    this.factories = new Map(factories.map((factory) => [factory.name, factory]));
    this.configured = this.forSpec(options.model);
  }

  get configuredSpec(): EmbeddingModelSpec {
    return this.options.model;
  }

  /** The provider of the model `spec` describes (built on first use). */
  forSpec(spec: EmbeddingModelSpec): EmbeddingProvider {
    const key = JSON.stringify(spec, Object.keys(spec).sort());
    let provider = this.bySpec.get(key);
    if (!provider) this.bySpec.set(key, (provider = this.factory(spec.provider).create(spec, this.options.runtime)));
    return provider;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.configured.warmUp?.();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.bySpec.values()].map(async (provider) => provider.close?.()));
  }

  /** A spec stored in the database may name a provider this build no longer has. */
  private factory(name: string): EmbeddingProviderFactory {
    const factory = this.factories.get(name);
    if (!factory) throw new EmbeddingError(`Unknown embedding provider "${name}" (known: ${[...this.factories.keys()].join(', ')})`);
    return factory;
  }
}

/** Provides `EmbeddingProviders` for the configured model. */
@Module({})
export class EmbeddingsModule {
  static forRoot(options: EmbeddingsModuleOptions): DynamicModule {
    return {
      module: EmbeddingsModule,
      global: true,
      providers: [
        { provide: EMBEDDING_PROVIDER_FACTORIES, useValue: BUILT_IN_EMBEDDING_PROVIDERS },
        {
          provide: EmbeddingProviders,
          useFactory: (factories: readonly EmbeddingProviderFactory[]) => new EmbeddingProviders(options, factories),
          inject: [EMBEDDING_PROVIDER_FACTORIES],
        },
      ],
      exports: [EmbeddingProviders],
    };
  }
}
