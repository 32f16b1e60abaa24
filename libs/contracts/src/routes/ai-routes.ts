import type { SearchFacets, InternalFacetsRequest } from '../facets.js';
import type { FeedbackErased, FeedbackReport, InternalFeedbackRequest } from '../feedback.js';
import type { IndexingStatus, IndexState } from '../indexing-status.js';
import type { ApiOperationDetailResponse, ApiOperationsResponse, OperationSelector } from '../operation-detail.js';
import type { EmbeddingModelsStatus, InternalReindexRequest, ReindexAccepted, ReindexProgress } from '../reindex.js';
import type { SearchRequest, SearchResponse } from '../search.js';
import { route } from './route.js';

/** Internal: the registry revisions the gateway expects the index to hold, up to 500 APIs a call. */
export interface ExpectedRevisions {
  apis: { apiId: string; orgId: string; revision: number }[];
}

/** Internal: the org whose feedback an admin reads or erases, and optionally one of its APIs. */
export interface FeedbackOrgQuery {
  orgId: string;
  apiId?: string;
}

/**
 * The AI app's routes, which only the gateway calls (with the service token, `InternalHeader`): the
 * AI app mounts them and the gateway's `AiClient` calls them from this one table. Bodies and queries
 * are validated by the AI app's DTOs; routes about one API or a re-index run also read
 * `InternalHeader.CallerOrgs` (or `ApiOrg` and `ApiRevision` for `indexingStatus`).
 */
export const AI_ROUTES = {
  search: route<SearchResponse, SearchRequest>()('POST', '/search'),
  facets: route<SearchFacets, InternalFacetsRequest>()('POST', '/facets'),
  indexingStatus: route<IndexingStatus>()('GET', '/indexing-status/:apiId'),
  indexingStatuses: route<IndexingStatus[], ExpectedRevisions>()('POST', '/indexing-statuses'),
  /** For the gateway's reconciliation (see `IndexState`). */
  indexStates: route<IndexState[], ExpectedRevisions>()('POST', '/index-states'),
  /** 204, no body. */
  feedback: route<undefined, InternalFeedbackRequest>()('POST', '/feedback'),
  feedbackReport: route<FeedbackReport, undefined, FeedbackOrgQuery>()('GET', '/admin/feedback'),
  eraseFeedback: route<FeedbackErased, undefined, FeedbackOrgQuery>()('DELETE', '/admin/feedback'),
  startReindex: route<ReindexAccepted, InternalReindexRequest>()('POST', '/admin/reindex'),
  reindexProgress: route<ReindexProgress>()('GET', '/admin/reindex/:reindexId'),
  embeddingModels: route<EmbeddingModelsStatus>()('GET', '/admin/embedding-models'),
  /** `operations=false` leaves out the list of operations. */
  apiOperations: route<ApiOperationsResponse, undefined, { operations?: boolean }>()('GET', '/apis/:apiId/operations'),
  operationDetail: route<ApiOperationDetailResponse, undefined, OperationSelector>()('GET', '/apis/:apiId/operations/detail'),
  healthz: route<{ status: 'ok' }>()('GET', '/healthz'),
} as const;
