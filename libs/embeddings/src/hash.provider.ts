import { createHash } from 'node:crypto';
import type { EmbeddingProvider, EmbeddingProviderFactory } from './embedding-provider.js';

/**
 * FOR BENCHMARKS AND TESTS ONLY (`EMBEDDINGS_PROVIDER=hash`): a fast, deterministic bag-of-words
 * vector (feature hashing), so that a large index can be built in minutes to measure storage and
 * search speed, and test stacks need no model. It knows nothing of meaning beyond shared words:
 * never use it to judge relevance.
 */
export class HashEmbeddingProvider implements EmbeddingProvider {
  readonly modelId: string;

  constructor(readonly dimensions = 512) {
    this.modelId = `hash-${dimensions}`;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => hashEmbedding(text, this.dimensions));
  }

  async embedQuery(text: string): Promise<number[]> {
    return hashEmbedding(text, this.dimensions);
  }
}

export const hashProviderFactory = {
  name: 'hash',
  create: (spec) => new HashEmbeddingProvider(spec.dimensions),
} as const satisfies EmbeddingProviderFactory;

/** Feature hashing: each word adds ±1 to one dimension; unit length. Texts sharing words point the same way. */
export function hashEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const hash = createHash('md5').update(word).digest();
    vector[hash.readUInt32BE(0) % dimensions] += hash[4] & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}
