/** Turns text into vectors. The provider is chosen by `EMBEDDINGS_PROVIDER` (see `EmbeddingProviders`). */
export interface EmbeddingProvider {
  /** Stored with every vector; vectors of different models are never compared. */
  readonly modelId: string;
  readonly dimensions: number;
  /** Embeds documents (chunks), in input order. */
  embedDocuments(texts: string[]): Promise<number[][]>;
  /** Embeds one search query; kept apart from bulk work so search stays fast during indexing. */
  embedQuery(text: string): Promise<number[]>;
}

export class EmbeddingError extends Error {
  override name = 'EmbeddingError';
}
