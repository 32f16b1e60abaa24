/** `POST /api-management/ai/admin/reindex`: how many APIs one run may name. */
export const REINDEX_LIMITS = { maxApiIds: 10_000 } as const;

/** `POST /api-management/ai/admin/reindex`: some APIs, one org, or (empty) every org of the admin. */
export interface ReindexRequest {
  orgId?: string;
  apiIds?: string[];
}

export interface ReindexAccepted {
  reindexId: string;
  /** How many APIs were queued for re-indexing. */
  queued: number;
}

export type ReindexState = 'RUNNING' | 'COMPLETED';

export interface ReindexProgress {
  reindexId: string;
  status: ReindexState;
  orgIds: string[];
  requestedAt: string;
  finishedAt?: string;
  total: number;
  /** Still waiting for (or in) a worker. */
  queued: number;
  done: number;
  failed: number;
  failures: { apiId: string; error: string }[];
}

/** What the gateway sends the AI app once it has authorised the caller. */
export interface InternalReindexRequest {
  orgIds: string[];
  apiIds?: string[];
  requestedBy: string;
}

/** A re-index of one API revision from the spec copy the AI app keeps. */
export interface ReindexApiJob {
  reindexId: string;
  apiId: string;
  revision: number;
}

/** An embedding model whose vectors the index holds. */
export interface EmbeddingModelInfo {
  model: string;
  provider: string;
  dimensions: number;
}

/** `GET /api-management/ai/admin/embedding-models`: the model search uses, and the switch under way, if any. */
export interface EmbeddingModelsStatus {
  active: EmbeddingModelInfo & { activatedAt?: string };
  building?: EmbeddingModelInfo & {
    startedAt: string;
    /** Indexed APIs (every org) and how many of them already have the new model's vectors. */
    total: number;
    done: number;
    /** APIs of the caller's orgs whose re-embedding failed (it is retried by re-registering or re-indexing them). */
    failures: { apiId: string; error: string }[];
  };
}
