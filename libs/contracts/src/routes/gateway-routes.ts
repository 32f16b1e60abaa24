import type { ApiDetailsPatch } from '../api-details-patch.js';
import type { ApiEndpointsResponse, ApiListResponse, ApiRecord, ApiRegistration } from '../api-record.js';
import type { AuthInfo, DevTokenRequest, DevTokenResponse } from '../auth.js';
import type { SearchFacets } from '../facets.js';
import type { FeedbackErased, FeedbackReport, FeedbackRequest } from '../feedback.js';
import type { IndexingStatus } from '../indexing-status.js';
import type { ConsumerDeclaration, ConsumerDependencyQuery, ConsumerDependencyView, ConsumerList, ConsumerRecord } from '../consumers.js';
import type { ApiKindsResponse } from '../kinds.js';
import type {
  NotificationFeed,
  NotificationQuery,
  WatchState,
  WebhookCreated,
  WebhookDeliveryList,
  WebhookList,
  WebhookRecord,
  WebhookRegistration,
  WebhookTestResult,
} from '../notifications.js';
import type { ApiOperationDetailResponse, ApiOperationsResponse, OperationSelector } from '../operation-detail.js';
import type { EmbeddingModelsStatus, ReindexAccepted, ReindexProgress, ReindexRequest } from '../reindex.js';
import type { SearchRequest, SearchResponse } from '../search.js';
import type { ApiImportRequest, ApiRefreshResult } from '../sources.js';
import type { TreeImportRequest, TreePlan } from '../tree-import.js';
import type {
  ApiVersionList,
  ApiVersionPatch,
  ApiVersionRecord,
  ApiVersionRegistration,
  ChangeReportResponse,
  LifecycleStage,
  LintResponse,
} from '../versions.js';
import type { FeedbackOrgQuery } from './ai-routes.js';
import { route } from './route.js';

/** `GET /api-management/apis`: the caller's orgs' APIs, filtered; `label` (`key:value`) and `lifecycle` repeat. */
export interface ApiListQuery {
  orgId?: string;
  teamName?: string;
  kind?: string;
  /** Every one must match. */
  label?: string[];
  /** Any one matches. */
  lifecycle?: LifecycleStage[];
  /** The tree a folder import (`npm run import`) registered the API from; needs `orgId`. */
  sourceTree?: string;
  /** A Backstage entity's `spec.system`. */
  system?: string;
  /** Backstage tags (`metadata.tags`): every one must match. */
  tag?: string[];
  page?: number;
  pageSize?: number;
}

/** A version of the API other than the recommended one, which is read when `version` is absent. */
export interface VersionQuery {
  version?: string;
}

export interface SpecQuery extends VersionQuery {
  /** As an attachment, with a file name (`Content-Disposition`). */
  download?: boolean;
}

/** `force`: retire or delete what consumers still use (the answer without it is a 409 naming them). */
export interface ForceQuery {
  force?: boolean;
}

/** `from`, `to`: a version, or `version@revision`; no `to`: the recommended version. */
export interface ChangesQuery {
  from: string;
  to?: string;
}

/**
 * The gateway's public routes, declared once: its controllers mount them (`@Route`) and the web UI
 * and the CLIs call them (`GatewayClient`). Every route but `/auth/*` and the health checks needs a
 * bearer token; the DTOs of the gateway validate what comes in.
 */
export const GATEWAY_ROUTES = {
  authInfo: route<AuthInfo>()('GET', '/auth/info'),
  devToken: route<DevTokenResponse, DevTokenRequest>()('POST', '/auth/dev-token'),
  healthz: route<{ status: 'ok' }>()('GET', '/healthz'),
  readyz: route<{ status: 'ok'; checks: Record<string, string> }>()('GET', '/readyz'),

  kinds: route<ApiKindsResponse>()('GET', '/api-management/kinds'),
  registerApi: route<ApiRecord, ApiRegistration>()('POST', '/api-management/apis'),
  listApis: route<ApiListResponse, undefined, ApiListQuery>()('GET', '/api-management/apis'),
  getApi: route<ApiRecord>()('GET', '/api-management/apis/:apiId'),
  /** A new spec for the recommended version, or for `version`. */
  updateApi: route<ApiRecord, ApiRegistration, VersionQuery>()('PUT', '/api-management/apis/:apiId'),
  patchApi: route<ApiRecord, ApiDetailsPatch>()('PATCH', '/api-management/apis/:apiId'),
  /** 204, no body. */
  deleteApi: route<undefined, undefined, ForceQuery>()('DELETE', '/api-management/apis/:apiId'),
  endpoints: route<ApiEndpointsResponse, undefined, VersionQuery>()('GET', '/api-management/apis/:apiId/endpoints'),
  /** The spec's text as registered (JSON, YAML, SDL or .proto), not a JSON answer. */
  spec: route<string, undefined, SpecQuery>()('GET', '/api-management/apis/:apiId/spec'),
  importApi: route<ApiRecord, ApiImportRequest>()('POST', '/api-management/apis/import'),
  /** What importing a tree would do (`npm run import`): nothing is written. */
  planTreeImport: route<TreePlan, TreeImportRequest>()('POST', '/api-management/tree-imports/plan'),
  /** Writes the plan's entries whose spec is sent (and those that need none); deletes on `prune`. */
  applyTreeImport: route<TreePlan, TreeImportRequest>()('POST', '/api-management/tree-imports/apply'),
  /** Takes no fields, but a POST's body must be JSON: send `{}`. */
  refreshApi: route<ApiRefreshResult, Record<string, never>>()('POST', '/api-management/apis/:apiId/refresh'),

  /** `operations=false` leaves out the list of operations. */
  operations: route<ApiOperationsResponse, undefined, VersionQuery & { operations?: boolean }>()('GET', '/api-management/apis/:apiId/operations'),
  operationDetail: route<ApiOperationDetailResponse, undefined, VersionQuery & OperationSelector>()('GET', '/api-management/apis/:apiId/operations/detail'),

  listVersions: route<ApiVersionList>()('GET', '/api-management/apis/:apiId/versions'),
  addVersion: route<ApiVersionRecord, ApiVersionRegistration>()('POST', '/api-management/apis/:apiId/versions'),
  reviseVersion: route<ApiVersionRecord, Pick<ApiVersionRegistration, 'spec' | 'format'>>()('PUT', '/api-management/apis/:apiId/versions/:version'),
  patchVersion: route<ApiVersionRecord, ApiVersionPatch>()('PATCH', '/api-management/apis/:apiId/versions/:version'),
  /** 204, no body. */
  deleteVersion: route<undefined, undefined, ForceQuery>()('DELETE', '/api-management/apis/:apiId/versions/:version'),
  /** The current revision's findings, or `revision`'s. */
  lint: route<LintResponse, undefined, { revision?: number }>()('GET', '/api-management/apis/:apiId/versions/:version/lint'),
  changes: route<ChangeReportResponse, undefined, ChangesQuery>()('GET', '/api-management/apis/:apiId/changes'),

  listConsumers: route<ConsumerList>()('GET', '/api-management/apis/:apiId/consumers'),
  /** Any org member declares what their service uses; declaring the same name and version again updates it. */
  addConsumer: route<ConsumerRecord, ConsumerDeclaration>()('POST', '/api-management/apis/:apiId/consumers'),
  /** 204, no body: its declarer, a publisher or an admin. */
  deleteConsumer: route<undefined>()('DELETE', '/api-management/apis/:apiId/consumers/:consumerId'),
  /** The org's dependency view: each consumer, the API versions it uses and their stages. */
  consumerDependencies: route<ConsumerDependencyView, undefined, ConsumerDependencyQuery>()('GET', '/api-management/consumers'),

  getWatch: route<WatchState>()('GET', '/api-management/apis/:apiId/watch'),
  /** Takes no fields: send `{}`. */
  watchApi: route<WatchState, Record<string, never>>()('PUT', '/api-management/apis/:apiId/watch'),
  unwatchApi: route<WatchState>()('DELETE', '/api-management/apis/:apiId/watch'),
  notifications: route<NotificationFeed, undefined, NotificationQuery>()('GET', '/api-management/notifications'),

  createWebhook: route<WebhookCreated, WebhookRegistration>()('POST', '/api-management/webhooks'),
  listWebhooks: route<WebhookList, undefined, { orgId: string }>()('GET', '/api-management/webhooks'),
  /** 204, no body. */
  deleteWebhook: route<undefined>()('DELETE', '/api-management/webhooks/:webhookId'),
  /** Sends to a disabled webhook again (its failures count from zero). Takes no fields: send `{}`. */
  enableWebhook: route<WebhookRecord, Record<string, never>>()('POST', '/api-management/webhooks/:webhookId/enable'),
  webhookDeliveries: route<WebhookDeliveryList>()('GET', '/api-management/webhooks/:webhookId/deliveries'),
  /** Takes no fields: send `{}`. */
  testWebhook: route<WebhookTestResult, Record<string, never>>()('POST', '/api-management/webhooks/:webhookId/test'),

  search: route<SearchResponse, SearchRequest>()('POST', '/api-management/ai/search'),
  facets: route<SearchFacets, undefined, { orgId: string }>()('GET', '/api-management/ai/facets'),
  indexingStatus: route<IndexingStatus>()('GET', '/api-management/ai/indexing-status/:apiId'),
  /** 204, no body. */
  feedback: route<undefined, FeedbackRequest>()('POST', '/api-management/ai/feedback'),
  feedbackReport: route<FeedbackReport, undefined, FeedbackOrgQuery>()('GET', '/api-management/ai/admin/feedback'),
  eraseFeedback: route<FeedbackErased, undefined, FeedbackOrgQuery>()('DELETE', '/api-management/ai/admin/feedback'),
  startReindex: route<ReindexAccepted, ReindexRequest>()('POST', '/api-management/ai/admin/reindex'),
  reindexProgress: route<ReindexProgress>()('GET', '/api-management/ai/admin/reindex/:reindexId'),
  embeddingModels: route<EmbeddingModelsStatus>()('GET', '/api-management/ai/admin/embedding-models'),
} as const;
