import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { EmbeddingProvider } from '#embeddings';

/** Query embeddings kept (the same question is asked again and again, and voted on after). */
const QUERY_VECTOR_CACHE = 2000;

/** The vectors of queries, by model: search embeds a need, feedback stores the same vector with the vote. */
@Injectable()
export class QueryVectors {
  private readonly vectors = new LRUCache<string, number[]>({ max: QUERY_VECTOR_CACHE });

  async of(model: EmbeddingProvider, text: string): Promise<number[]> {
    const key = `${model.modelId}\n${text}`;
    let vector = this.vectors.get(key);
    if (!vector) this.vectors.set(key, (vector = await model.embedQuery(text)));
    return vector;
  }
}
