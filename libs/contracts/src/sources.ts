import type { ChangeCounts } from './versions.js';

/**
 * Where an API's spec comes from when it was imported rather than sent (#31): a URL the
 * platform fetches (and refreshes), or a file of a tree that `npm run import` walks.
 */
export interface ApiSource {
  /** URL import: the address the spec is fetched from (`POST …/refresh`, periodic refresh). */
  url?: string;
  /** Folder import: the import's name for the tree (`--tree`, default the folder's name) and the file's path in it, with `/`. */
  tree?: string;
  path?: string;
  /** The version of the API it feeds. */
  version: string;
  /** SHA-256 (hex) of the spec text last imported: a caller can tell an unchanged file without writing. */
  sha256?: string;
  /** URL import: the validators of the last good fetch, sent back as `If-None-Match` / `If-Modified-Since`. */
  etag?: string;
  lastModified?: string;
  /** URL import: when it was last fetched (ISO time), good or not. */
  fetchedAt?: string;
  /** URL import: the last fetch's failure in words (for a refused address, only that it was refused); cleared by a good fetch. */
  lastError?: string;
}

/** `POST /api-management/apis/import`: its URL's length (name, version and team as in `REGISTRATION_LIMITS`). */
export const IMPORT_LIMITS = { urlMaxChars: 2000 } as const;

/** `POST /api-management/apis/import`. */
export interface ApiImportRequest {
  orgId: string;
  url: string;
  /** From the spec (`info.title`, its service or file name) when left out. */
  name?: string;
  /** From the spec (`info.version`) when left out; else `1`. */
  version?: string;
  teamName?: string;
  format?: string;
  lifecycle?: string;
}

/** `POST /api-management/apis/:apiId/refresh`: what fetching its URL again did. */
export interface ApiRefreshResult {
  outcome: 'unchanged' | 'updated' | 'failed';
  apiId: string;
  /** `updated`: the new revision of the source's version. */
  revision?: number;
  /** `failed`: why (the last good spec stays). */
  error?: string;
  /** `updated`: as in a registration's answer. */
  warnings?: string[];
  changes?: ChangeCounts;
}

/** A folder import's registration says which file of which tree it is (the body of `POST /apis` and `PUT /apis/:apiId`, field `source`). */
export interface ApiSourceFile {
  tree: string;
  path: string;
}
