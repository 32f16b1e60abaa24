export const INDEXING_STATES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
export type IndexingState = (typeof INDEXING_STATES)[number];

export interface IndexingStatus {
  apiId: string;
  status: IndexingState;
  indexedAt?: string;
  chunkCount?: number;
  error?: string;
}
