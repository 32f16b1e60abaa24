import type { ChangeImpact } from './consumers.js';
import type { IndexingStatus } from './indexing-status.js';
import type { ApiSource } from './sources.js';
import type { CatalogInfo } from './tree-import.js';
import type { ChangeCounts, LifecycleStage, VersionSummary } from './versions.js';

/** An API as the registry returns it. */
export interface ApiRecord {
  apiId: string;
  orgId: string;
  name: string;
  /** The recommended version (see `ApiVersionRecord.recommended`): the one search shows and routes act on without `?version=`. */
  version: string;
  /** The recommended version's stage; `retired` when every version is (search leaves the API out). */
  lifecycle: LifecycleStage;
  /** When the recommended version is deprecated and a sunset date was named: `YYYY-MM-DD`. */
  sunsetDate?: string;
  /** Every version, newest release first. */
  versions: VersionSummary[];
  teamName?: string;
  description?: string;
  /** The org's labels on the API (`LABEL_LIMITS`); `{}` when none. */
  labels: Record<string, string>;
  /** Which kind of API the recommended version's spec is (`openapi`, `asyncapi`, `graphql`, `grpc`, `mcp`). */
  kind: string;
  /** Increases with every change search must see (a spec of the recommended version, a stage, the details); the indexer only ever applies the newest one. */
  revision: number;
  createdAt: string;
  updatedAt: string;
  /** Where the spec comes from, for an API imported from a URL or a folder (#31). */
  source?: ApiSource;
  /** For a Backstage entity's API: its place in the catalogue (#42). */
  catalog?: CatalogInfo;
  /** Absent when the AI app could not be asked (it is down or slow). */
  indexing?: Omit<IndexingStatus, 'apiId'>;
  /** In a registration's answer: what the publisher should know, e.g. that the new spec breaks a version in production. */
  warnings?: string[];
  /** In a registration's answer that replaced a spec: what changed from the spec before (or the production version it follows). */
  changes?: ChangeCounts;
  /** In a registration's answer that replaced a spec: the consumers its breaking changes reach. */
  impact?: ChangeImpact;
}

export interface ApiListResponse {
  items: ApiRecord[];
  total: number;
}

/** `GET /api-management/apis/:apiId/endpoints`: every operation of the registered spec, in its kind's notation (see `ApiModel`). */
export interface ApiEndpoint {
  /** The verb: `GET`, `PUBLISH`, `MUTATION`, `RPC`… */
  method: string;
  /** The address: `/pets/{id}`, a channel, a field, `package.Service/Method`. */
  path: string;
  summary?: string;
  operationId?: string;
  tags: string[];
  deprecated?: boolean;
}

export interface ApiEndpointsResponse {
  items: ApiEndpoint[];
  /** What the answer's size limit (ANSWER_MAX_CHARS) cut, in words. */
  cuts?: string[];
}

/** How long a registration's texts may be: the registry's validation, a URL import's fields and the web forms. */
export const REGISTRATION_LIMITS = {
  nameMaxChars: 200,
  /** A version's name, as `version` of a registration and as `?version=`. */
  versionMaxChars: 100,
  teamNameMaxChars: 100,
  descriptionMaxChars: 5000,
  /** A folder import's file path in its tree (`source.path`). */
  sourcePathMaxChars: 1000,
} as const;

/** `GET /api-management/apis`: its pages. */
export const LIST_LIMITS = {
  /**
   * The last page a listing serves: a hundred million APIs at the largest page size, while the
   * query's OFFSET stays an exact integer (a page of 1e20 made the query fail with a 500).
   */
  maxPage: 1_000_000,
  pageSize: { min: 1, max: 100, default: 20 },
} as const;

/** The body of `POST /api-management/apis` and `PUT /api-management/apis/:apiId`. */
export interface ApiRegistration {
  orgId: string;
  name: string;
  version: string;
  teamName?: string;
  description?: string;
  /**
   * Up to 20 `{key: value}` labels (`LABEL_LIMITS`: lower-case keys, values of 1-100 characters,
   * stored trimmed). On `PUT`, leaving `labels` out keeps the API's labels and `{}` clears them.
   */
  labels?: Record<string, string>;
  /** An OpenAPI or AsyncAPI document (an object, or JSON/YAML text), a GraphQL schema (SDL) or a .proto file. */
  spec: string | Record<string, unknown>;
  /** The spec's format (a kind: `openapi`, `asyncapi`, `graphql`, `grpc`); detected when absent. */
  format?: string;
  /** The stage of the version registered (`POST`: default `production`; `PUT`: the version's stage stays when absent). */
  lifecycle?: LifecycleStage;
  /** `PUT` with `lifecycle: retired`: retire it although consumers use it (without: a 409 naming them). */
  force?: boolean;
}
