export const INDEXING_STATES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
export type IndexingState = (typeof INDEXING_STATES)[number];

export interface IndexingStatus {
  apiId: string;
  status: IndexingState;
  /** The kind of API its indexed spec is (`openapi`, `asyncapi`, `graphql`, `grpc`), once indexing read it. */
  kind?: string;
  indexedAt?: string;
  chunkCount?: number;
  /** COMPLETED with parts left out by the index limits (INDEX_MAX_CHUNKS and the like): what, in words. */
  warnings?: string[];
  error?: string;
}

/**
 * Internal (AI app → gateway): the newest revision of an API the index has received, where its
 * indexing stands and whether it is deleted. The gateway's reconciliation compares it with the
 * registry to find revisions whose job never reached the index (Redis lost it).
 */
export interface IndexState {
  apiId: string;
  revision: number;
  status: IndexingState;
  deleted: boolean;
}
