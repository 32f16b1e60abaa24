import type { IndexingStatus } from './indexing-status.js';

/** An API as the registry returns it. */
export interface ApiRecord {
  apiId: string;
  orgId: string;
  name: string;
  version: string;
  teamName?: string;
  description?: string;
  /** Increases with every update; the indexer only ever applies the newest one. */
  revision: number;
  createdAt: string;
  updatedAt: string;
  /** Absent when the AI app could not be asked (it is down or slow). */
  indexing?: Omit<IndexingStatus, 'apiId'>;
}

export interface ApiListResponse {
  items: ApiRecord[];
  total: number;
}

/** `GET /api-management/apis/:apiId/endpoints`: every operation of the registered spec. */
export interface ApiEndpoint {
  method: string;
  path: string;
  summary?: string;
  operationId?: string;
  tags: string[];
  deprecated?: boolean;
}

export interface ApiEndpointsResponse {
  items: ApiEndpoint[];
}

/** The body of `POST /api-management/apis` and `PUT /api-management/apis/:apiId`. */
export interface ApiRegistration {
  orgId: string;
  name: string;
  version: string;
  teamName?: string;
  description?: string;
  /** An OpenAPI document, or its JSON/YAML text. */
  spec: string | Record<string, unknown>;
}
