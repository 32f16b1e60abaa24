import type { OpenAPIObject } from '@nestjs/swagger';
import type * as C from '#contracts';

/*
 * The shape of every response schema of the gateway's document, named as the controllers'
 * decorators name it (`@ApiOkResponse({ type: ApiRecordDoc })`) and given as the contract type
 * the route answers with. `contract-schemas.generated.ts` is generated from these aliases
 * (`contract-schemas.spec.ts`), so a change to a contract changes the document; no shape is kept
 * here by hand.
 */

export type ProblemDoc = C.Problem;
/** `GET /healthz` and `/readyz` (`HealthController`): probes read it, so it has no contract type of its own. */
export interface HealthDoc {
  status: 'ok';
  checks?: Record<string, string>;
}
export type AuthInfoDoc = C.AuthInfo;
export type DevTokenResponseDoc = C.DevTokenResponse;

export type ApiRecordDoc = C.ApiRecord;
export type ApiListResponseDoc = C.ApiListResponse;
export type ApiSourceDoc = C.ApiSource;
export type IndexingDoc = Required<C.ApiRecord>['indexing'];
export type IndexingStatusDoc = C.IndexingStatus;
export type ApiRefreshResultDoc = C.ApiRefreshResult;
export type VersionSummaryDoc = C.VersionSummary;
export type ApiVersionRecordDoc = C.ApiVersionRecord;
export type ApiVersionListDoc = C.ApiVersionList;
export type ApiChangeDoc = C.ApiChange;
export type ChangeGapDoc = C.ChangeGap;
export type RevisionRefDoc = C.ChangeReportResponse['from'];
export type ChangeReportDoc = C.ChangeReportResponse;
export type LintFindingDoc = C.LintFinding;
export type LintResponseDoc = C.LintResponse;

export type CatalogInfoDoc = C.CatalogInfo;
export type VersionSourceDoc = C.VersionSource;
export type TreePlanDoc = C.TreePlan;
export type TreePlanEntryDoc = C.TreePlanEntry;
export type TreePlanComparisonDoc = C.TreePlanComparison;
export type TreePlanChangeDoc = C.TreePlanChange;

export type WebhookCreatedDoc = C.WebhookCreated;
export type WebhookRecordDoc = C.WebhookRecord;
export type WebhookListDoc = C.WebhookList;
export type WebhookDeliveryDoc = C.WebhookDelivery;
export type DeliveryAttemptDoc = C.DeliveryAttempt;
export type WebhookDeliveryListDoc = C.WebhookDeliveryList;
export type WebhookTestResultDoc = C.WebhookTestResult;
export type ConsumedOperationDoc = C.ConsumedOperation;
export type ConsumerRecordDoc = C.ConsumerRecord;
export type ConsumerListDoc = C.ConsumerList;
export type ConsumedApiDoc = C.ConsumedApi;
export type ConsumerDependenciesDoc = C.ConsumerDependencies;
export type ConsumerDependencyViewDoc = C.ConsumerDependencyView;
export type AffectedConsumerDoc = C.AffectedConsumer;
export type ChangeImpactDoc = C.ChangeImpact;
export type WatchStateDoc = C.WatchState;
export type EventApiDoc = C.EventApi;
export type NotificationDoc = C.NotificationFeed['items'][number];
export type NotificationFeedDoc = C.NotificationFeed;

export type ApiKindInfoDoc = C.ApiKindInfo;
export type ApiKindsResponseDoc = C.ApiKindsResponse;
export type OperationPartNamesDoc = C.OperationPartNames;
export type ApiEndpointDoc = C.ApiEndpoint;
export type ApiEndpointsResponseDoc = C.ApiEndpointsResponse;
export type ServerDoc = C.ServerInfo;
export type SecuritySchemeDoc = C.SecuritySchemeInfo;
export type ApiOperationsDoc = C.ApiOperationsResponse;
export type MediaTypeSchemaDoc = C.MediaTypeSchema;
export type OperationParameterDoc = C.OperationParameter;
export type OperationRequestBodyDoc = C.OperationRequestBody;
export type OperationResponseDoc = C.OperationResponse;
export type ApiOperationDetailDoc = C.ApiOperationDetailResponse;

export type SearchResponseDoc = C.SearchResponse;
export type SearchResultDoc = C.SearchResult;
export type EndpointDoc = C.EndpointMatch;
export type ChunkMatchDoc = C.ChunkMatch;
export type RelevanceEvidenceDoc = C.RelevanceEvidence;
export type FeedbackEvidenceDoc = C.FeedbackEvidence;
export type SearchFacetsDoc = C.SearchFacets;
export type FacetCountDoc = C.FacetCount;

export type FeedbackReportDoc = C.FeedbackReport;
export type FeedbackLearningDoc = C.FeedbackReport['learning'];
export type FeedbackApiCountDoc = C.FeedbackReport['apis'][number];
export type FeedbackSignalDoc = C.FeedbackReport['recent'][number];
export type FeedbackErasedDoc = C.FeedbackErased;

export type ReindexAcceptedDoc = C.ReindexAccepted;
export type ReindexProgressDoc = C.ReindexProgress;
export type ReindexFailureDoc = C.ReindexProgress['failures'][number];
export type EmbeddingModelsStatusDoc = C.EmbeddingModelsStatus;
export type ActiveEmbeddingModelDoc = C.EmbeddingModelsStatus['active'];
export type EmbeddingModelSwitchDoc = Required<C.EmbeddingModelsStatus>['building'];
/** Also a request's part: `FeedbackRequestDoc`'s schema, from its validator, replaces this one. */
export type FeedbackOperationDoc = Required<C.FeedbackRequest>['operation'];

/** An OpenAPI 3.0 schema object, which @nestjs/swagger does not export by name. */
export type SchemaObject = Exclude<NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string], { $ref: string }>;
