import { type DynamicModule, Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EMBEDDING_PROVIDER, type EmbeddingProvider } from './embedding-provider.js';
import { HashEmbeddingProvider } from './hash.provider.js';
import { LocalUseEmbeddingProvider } from './local-use.provider.js';
import { OpenAiEmbeddingProvider, type OpenAiEmbeddingOptions } from './openai.provider.js';

export interface EmbeddingsModuleOptions {
  provider: 'local' | 'openai' | 'hash';
  batchSize: number;
  openai: Omit<OpenAiEmbeddingOptions, 'batchSize'>;
}

function createProvider(options: EmbeddingsModuleOptions): EmbeddingProvider {
  switch (options.provider) {
    case 'local':
      return new LocalUseEmbeddingProvider(options.batchSize);
    case 'openai':
      return new OpenAiEmbeddingProvider({ ...options.openai, batchSize: options.batchSize });
    case 'hash':
      return new HashEmbeddingProvider();
  }
}

/** Loads the local model at start (not on the first search) and stops its threads at the end. */
@Injectable()
class EmbeddingProviderLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(EMBEDDING_PROVIDER) private readonly provider: EmbeddingProvider) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.provider instanceof LocalUseEmbeddingProvider) await this.provider.warmUp();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.provider instanceof LocalUseEmbeddingProvider) await this.provider.close();
  }
}

/** Provides the configured `EmbeddingProvider` under `EMBEDDING_PROVIDER`. */
@Module({})
export class EmbeddingsModule {
  static forRoot(options: EmbeddingsModuleOptions): DynamicModule {
    return {
      module: EmbeddingsModule,
      global: true,
      providers: [{ provide: EMBEDDING_PROVIDER, useFactory: () => createProvider(options) }, EmbeddingProviderLifecycle],
      exports: [EMBEDDING_PROVIDER],
    };
  }
}
