import { hashProviderFactory } from './hash.provider.js';
import { localUseProviderFactory } from './local-use.provider.js';
import { openAiProviderFactory } from './openai.provider.js';

/**
 * The providers this build knows: the one list of their names. A plain value rather than only
 * Nest providers because config validates `EMBEDDINGS_PROVIDER` (and the API docs list providers)
 * before any Nest module exists; `EmbeddingsModule` hands it to `EmbeddingProviders` by injection.
 */
export const BUILT_IN_EMBEDDING_PROVIDERS = [localUseProviderFactory, openAiProviderFactory, hashProviderFactory] as const;

export type EmbeddingProviderName = (typeof BUILT_IN_EMBEDDING_PROVIDERS)[number]['name'];

export const EMBEDDING_PROVIDER_NAMES: readonly EmbeddingProviderName[] = BUILT_IN_EMBEDDING_PROVIDERS.map((factory) => factory.name);
