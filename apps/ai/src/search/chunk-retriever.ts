import type { EntityManager } from 'typeorm';
import { type EndpointRow, operations } from './api-cards.js';
import type { KeywordQuery } from './keyword-query.js';
import type { Candidate } from './rank-fusion.js';
import { type SearchScope, SearchSnapshot } from './search-snapshot.js';
import { chunkTermScores } from './stages/calibrate.stage.js';
import { vectorCandidates } from './stages/retrieve.stage.js';
import { keywordCandidates } from './stages/shape-cards.stage.js';

export type { SearchScope };

/**
 * A few of search's queries one at a time, outside a pipeline: for the test of what indexing
 * leaves for search to find (`test/index-store.e2e.spec.ts`) and the sizing benchmark
 * (`benchmarks/bench-sizing.ts`). Search runs each from its stage.
 */
export class ChunkRetriever {
  private readonly snapshot: SearchSnapshot;

  constructor(manager: EntityManager, scope: SearchScope) {
    this.snapshot = new SearchSnapshot(manager, scope);
  }

  vectorCandidates(vector: number[], limit: number): Promise<Candidate[]> {
    return vectorCandidates(this.snapshot, vector, limit);
  }

  async keywordCandidates(query: KeywordQuery, limit: number, apiIds: string[]): Promise<Candidate[]> {
    return keywordCandidates(await chunkTermScores(this.snapshot, query, apiIds), limit);
  }

  endpoints(apiIds: string[]): Promise<EndpointRow[]> {
    return operations(this.snapshot, apiIds);
  }
}
