import type { ChangeCounts } from './versions.js';

/**
 * Where an API's spec comes from when it was imported rather than sent (#31): a URL the
 * platform fetches (and refreshes), or a tree that `npm run import` walks, whose files feed its
 * versions (each version's own `VersionSource`, #42).
 */
export interface ApiSource {
  /** URL import: the address the spec is fetched from (`POST …/refresh`, periodic refresh). */
  url?: string;
  /** Folder import: the tree's name (`--tree`; by default the repository's remote and the folder's path in it). */
  tree?: string;
  /** Folder import: the API's identity in its tree (`TreeItem.key`); absent on an API imported before #42 until its next import. */
  key?: string;
  /** URL import: the version it feeds. */
  version?: string;
  /** URL import: SHA-256 (hex) of the spec text last fetched. */
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

/** The file of a tree a version is read from (`npm run import`), and the SHA-256 (hex) of its text last imported. */
export interface VersionSource {
  tree: string;
  path: string;
  sha256: string;
}
