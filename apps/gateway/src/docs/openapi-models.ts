/*
 * The names the controllers' decorators give the schemas of the gateway's document
 * (`@ApiOkResponse({ type: ApiRecordDoc })`). Empty on purpose: `buildOpenApiDocument` puts each
 * one's schema, derived from its contract type or validator (`derived-schemas.ts`), in its place.
 */

export class ProblemDoc {}
export class HealthDoc {}

export class ApiRecordDoc {}
export class ApiListResponseDoc {}
export class ApiRefreshResultDoc {}
export class IndexingStatusDoc {}
export class ApiVersionRecordDoc {}
export class ApiVersionListDoc {}
export class ChangeReportDoc {}
export class LintResponseDoc {}
export class TreePlanDoc {}

export class WebhookCreatedDoc {}
export class WebhookRecordDoc {}
export class WebhookListDoc {}
export class WebhookDeliveryListDoc {}
export class WebhookTestResultDoc {}
export class ConsumerRecordDoc {}
export class ConsumerListDoc {}
export class ConsumerDependencyViewDoc {}
export class WatchStateDoc {}
export class NotificationFeedDoc {}

export class ApiKindsResponseDoc {}
export class ApiEndpointsResponseDoc {}
export class ApiOperationsDoc {}
export class ApiOperationDetailDoc {}

export class SearchRequestDoc {}
export class SearchResponseDoc {}
export class SearchFacetsDoc {}
export class FeedbackRequestDoc {}
export class FeedbackReportDoc {}
export class FeedbackErasedDoc {}

export class ReindexAcceptedDoc {}
export class ReindexProgressDoc {}
export class EmbeddingModelsStatusDoc {}
