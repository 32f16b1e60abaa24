export const INDEXING_STATES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
export type IndexingState = (typeof INDEXING_STATES)[number];

export interface IndexingStatus {
  apiId: string;
  status: IndexingState;
  indexedAt?: string;
  chunkCount?: number;
  /** COMPLETED with parts left out by the index limits (INDEX_MAX_CHUNKS and the like): what, in words. */
  warnings?: string[];
  error?: string;
}
