/** Turns text into vectors. The provider is chosen by `EMBEDDINGS_PROVIDER` (see `EmbeddingProviders`). */
export interface EmbeddingProvider {
  /** Stored with every vector; vectors of different models are never compared. */
  readonly modelId: string;
  readonly dimensions: number;
  /** Embeds documents (chunks), in input order. */
  embedDocuments(texts: string[]): Promise<number[][]>;
  /** Embeds one search query; kept apart from bulk work so search stays fast during indexing. */
  embedQuery(text: string): Promise<number[]>;
  /** Loads what the first request would otherwise wait for; called at start for the configured model. */
  warmUp?(): Promise<void>;
  /** Releases what the provider holds (threads, connections); called when the app stops. */
  close?(): Promise<void>;
}

/**
 * What identifies an embedding model, without secrets: stored beside its vectors, so that any
 * process (or a later start with another model configured) can build its provider again.
 */
export interface EmbeddingModelSpec {
  /** A factory's name (`EMBEDDING_PROVIDER_NAMES`); a spec stored by another build may name one this build lacks. */
  provider: string;
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

/**
 * An embedding provider as a plugin: the name that `EMBEDDINGS_PROVIDER` and a stored spec's
 * `provider` refer to, and how to build the provider of a spec with that name.
 */
export interface EmbeddingProviderFactory<Name extends string = string> {
  readonly name: Name;
  create(spec: EmbeddingModelSpec, runtime: ProviderRuntime): EmbeddingProvider;
}

export class EmbeddingError extends Error {
  override name = 'EmbeddingError';
}
