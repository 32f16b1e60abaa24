/** Queue, job names and options shared by the producer (gateway) and the worker (AI app). */
export const INDEXING_QUEUE = 'api-indexing';

export const IndexingJobName = {
  Index: 'index-api',
  Delete: 'delete-api',
  Reindex: 'reindex-api',
  Reembed: 'reembed-api',
} as const;
export type IndexingJobName = (typeof IndexingJobName)[keyof typeof IndexingJobName];

export const INDEXING_JOB_OPTIONS = {
  attempts: 5,
  // 2 s, 4 s, 8 s, 16 s, each shortened by up to half at random, so retries after an outage spread out.
  backoff: { type: 'exponential', delay: 2000, jitter: 0.5 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** One job per (API, revision): re-sending the same revision is a no-op in Redis. */
export function indexingJobId(apiId: string, revision: number, name: IndexingJobName): string {
  return `${name}-${apiId}-r${revision}`;
}

/** One job per (re-index run, API). */
export function reindexJobId(reindexId: string, apiId: string): string {
  return `${IndexingJobName.Reindex}-${reindexId}-${apiId}`;
}

/** One job per (model, API, indexed revision): a revision indexed later without the model gets its own. */
export function reembedJobId(model: string, apiId: string, revision: number): string {
  // BullMQ ids may not contain ':', which OpenAI model ids do.
  return `${IndexingJobName.Reembed}-${model.replace(/:/g, '_')}-${apiId}-r${revision}`;
}

import type { LifecycleStage, VersionSummary } from './versions.js';

/** Everything the AI app needs to index an API travels with the job. */
export interface IndexApiJob {
  apiId: string;
  orgId: string;
  revision: number;
  name: string;
  version: string;
  teamName?: string;
  description?: string;
  /** The API's labels; absent in jobs of older versions (none). */
  labels?: Record<string, string>;
  /** The spec exactly as registered (JSON, YAML or plain text). */
  spec: string;
  /** The format the registry read it as (a `SpecFormat` kind); absent in jobs of older versions: the worker detects it. */
  format?: string;
  /** The stage of `version` (the API's recommended version); absent in jobs of older versions: `production`. */
  lifecycle?: LifecycleStage;
  /** `YYYY-MM-DD`, when `version` is deprecated with a sunset date. */
  sunsetDate?: string;
  /** The API's versions that are not retired, newest release first, for its card; absent in jobs of older versions. */
  versions?: VersionSummary[];
}

export interface DeleteApiJob {
  apiId: string;
  orgId: string;
  revision: number;
}

/** Adds a model's vectors for one indexed revision (from the kept spec copy) during a model switch. */
export interface ReembedApiJob {
  apiId: string;
  revision: number;
  model: string;
}
