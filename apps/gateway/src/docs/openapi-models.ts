import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  type ApiChange,
  type ApiVersionList,
  type ApiVersionRecord,
  CHANGE_REPORT_LIMITS,
  type ChangeGap,
  CHANGE_SEVERITIES,
  type ChangeReportResponse,
  type ChangeSeverity,
  type LifecycleStage,
  LIFECYCLE_STAGES,
  LINT_LIMITS,
  LINT_SEVERITIES,
  type LintFinding,
  type LintResponse,
  type LintSeverity,
  type LintSummary,
  type VersionSummary,
  type ApiEndpoint,
  type ApiKindInfo,
  type ApiKindsResponse,
  type ApiEndpointsResponse,
  type ApiOperationDetailResponse,
  type ApiOperationsResponse,
  type ApiListResponse,
  type ApiRecord,
  type ApiRefreshResult,
  type ApiSource,
  type ChunkLevel,
  type ChunkMatch,
  type EmbeddingModelsStatus,
  type EndpointMatch,
  FACET_LIMIT,
  type FeedbackErased,
  type FeedbackEvidence,
  type FeedbackReport,
  type FeedbackRequest,
  type FeedbackSignal,
  FEEDBACK_SIGNALS,
  type FacetCount,
  INDEXING_STATES,
  type IndexingState,
  MATCH_BANDS,
  type MatchBand,
  type RelevanceEvidence,
  type IndexingStatus,
  type JsonSchema,
  LABEL_LIMITS,
  type MediaTypeSchema,
  type OAuthFlowInfo,
  type OperationPartNames,
  type OperationParameter,
  type OperationRequestBody,
  type OperationResponse,
  PARAMETER_LOCATIONS,
  type ParameterLocation,
  type Problem,
  type ReindexAccepted,
  type ReindexProgress,
  type ReindexState,
  SEARCH_LIMITS,
  type SearchFacets,
  type SearchFilters,
  type SearchRequest,
  type SearchResponse,
  type SearchResult,
  type SecurityRequirement,
  type SecuritySchemeInfo,
  type ServerInfo,
} from '#contracts';
import { EMBEDDING_PROVIDER_NAMES } from '#embeddings';
import { DECLARED_KIND_NAMES as KIND_NAMES, DECLARED_KINDS as KINDS } from '../kinds/kind-info.js';

/*
 * Schemas of the gateway's own OpenAPI document (`GET /docs`). Each class implements its
 * contract type, so the documentation cannot drift from what the code sends.
 */

/** The kinds of API, as the spec format plugins say them (what `GET /api-management/kinds` answers): the docs name no kind of their own. */
const [FIRST_KIND, SECOND_KIND = FIRST_KIND] = KINDS;
const KIND = `The kind of API: ${KIND_NAMES} (\`GET /api-management/kinds\` says how to read its operations' method and path)`;

export class ProblemDoc implements Problem {
  @ApiProperty({ example: 'https://httpstatuses.io/404' }) type: string;
  @ApiProperty({ example: 'Not Found' }) title: string;
  @ApiProperty({ example: 404 }) status: number;
  @ApiProperty({ example: 'API "6f1c…" not found' }) detail: string;
  @ApiPropertyOptional({ description: 'The request id (also in the X-Request-Id header)' }) instance?: string;
  @ApiPropertyOptional({ type: [String], description: 'Every validation message, for 400' }) errors?: string[];
}

export class IndexingDoc {
  @ApiProperty({ enum: INDEXING_STATES }) status: IndexingState;
  @ApiPropertyOptional({ example: FIRST_KIND.kind, description: `The kind the indexed spec was read as: ${KIND_NAMES}` }) kind?: string;
  @ApiPropertyOptional({ format: 'date-time' }) indexedAt?: string;
  @ApiPropertyOptional() chunkCount?: number;
  @ApiPropertyOptional({ type: [String], description: 'COMPLETED with parts of the spec left out by the index limits: what, in words' }) warnings?: string[];
  @ApiPropertyOptional({ description: 'Why indexing failed (FAILED only)' }) error?: string;
}

/** An API's labels, as records and cards show them. */
const LABELS: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { tier: 'gold', 'cost-center': 'CC-1234' },
  description: `The org's labels on the API (up to ${LABEL_LIMITS.maxLabels}, keys lower case); \`{}\` when none`,
};

const WARNINGS: ApiPropertyOptions = { type: [String], description: 'In a registration\'s answer: e.g. breaking changes to a version in production' };
const CHANGE_COUNTS: ApiPropertyOptions = {
  type: 'object',
  properties: { breaking: { type: 'integer' }, nonBreaking: { type: 'integer' }, info: { type: 'integer' }, complete: { type: 'boolean' } },
  required: ['breaking', 'nonBreaking', 'info', 'complete'],
  description: 'In a registration\'s answer: the changes from the spec it follows; `complete: false` when part of it could not be compared (not proven safe)',
};

export class VersionSummaryDoc implements VersionSummary {
  @ApiProperty({ example: '1.0.0' }) version: string;
  @ApiProperty({ enum: LIFECYCLE_STAGES }) lifecycle: LifecycleStage;
  @ApiPropertyOptional({ format: 'date', description: 'A deprecated version\'s sunset date' }) sunsetDate?: string;
}

export class ApiSourceDoc implements ApiSource {
  @ApiPropertyOptional({ format: 'uri', description: 'URL import: where the spec is fetched from (`POST …/refresh`, IMPORT_REFRESH_INTERVAL_MS)' }) url?: string;
  @ApiPropertyOptional({ description: 'Folder import: the import\'s name for its tree' }) tree?: string;
  @ApiPropertyOptional({ description: 'Folder import: the file\'s path in the tree' }) path?: string;
  @ApiProperty({ description: 'The version of the API the source feeds' }) version: string;
  @ApiPropertyOptional({ description: 'SHA-256 (hex) of the spec text last imported' }) sha256?: string;
  @ApiPropertyOptional({ description: 'URL import: the last good fetch\'s ETag, sent back as If-None-Match' }) etag?: string;
  @ApiPropertyOptional({ description: 'URL import: the last good fetch\'s Last-Modified, sent back as If-Modified-Since' }) lastModified?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'URL import: when it was last fetched, good or not' }) fetchedAt?: string;
  @ApiPropertyOptional({ description: 'URL import: why the last fetch failed (the last good spec stays); absent after a good one' }) lastError?: string;
}

export class ApiRecordDoc implements ApiRecord {
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiProperty() orgId: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The recommended version: the highest in production, else the newest still being made, else the newest deprecated' }) version: string;
  @ApiProperty({ enum: LIFECYCLE_STAGES, description: 'The recommended version\'s stage (`retired`: every version is, and search leaves the API out)' }) lifecycle: LifecycleStage;
  @ApiPropertyOptional({ format: 'date', description: 'When the recommended version is deprecated with a sunset date' }) sunsetDate?: string;
  @ApiProperty({ type: [VersionSummaryDoc], description: 'Every version, newest release first' }) versions: VersionSummaryDoc[];
  @ApiPropertyOptional() teamName?: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty(LABELS) labels: Record<string, string>;
  @ApiProperty({ example: FIRST_KIND.kind, description: KIND }) kind: string;
  @ApiProperty({ description: 'Increases with every change search must see' }) revision: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiPropertyOptional({ type: ApiSourceDoc, description: 'Where the spec comes from, for an API imported from a URL or a folder' }) source?: ApiSourceDoc;
  @ApiPropertyOptional({ type: IndexingDoc, description: 'Absent when the search service could not be asked' })
  indexing?: IndexingDoc;
  @ApiPropertyOptional(WARNINGS) warnings?: string[];
  @ApiPropertyOptional(CHANGE_COUNTS) changes?: ApiRecord['changes'];
}

export class ApiRefreshResultDoc implements ApiRefreshResult {
  @ApiProperty({ enum: ['unchanged', 'updated', 'failed'] }) outcome: ApiRefreshResult['outcome'];
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiPropertyOptional({ description: '`updated`: the new revision of the source\'s version' }) revision?: number;
  @ApiPropertyOptional({ description: '`failed`: why (the last good spec stays; also on the record\'s `source.lastError`)' }) error?: string;
  @ApiPropertyOptional(WARNINGS) warnings?: string[];
  @ApiPropertyOptional(CHANGE_COUNTS) changes?: ApiRefreshResult['changes'];
}

export class ApiVersionRecordDoc implements ApiVersionRecord {
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiProperty({ example: '2.0.0' }) version: string;
  @ApiProperty({ enum: LIFECYCLE_STAGES }) lifecycle: LifecycleStage;
  @ApiPropertyOptional({ format: 'date' }) sunsetDate?: string;
  @ApiProperty({ example: FIRST_KIND.kind, description: KIND }) kind: string;
  @ApiProperty({ description: 'Increases with every new spec of this version' }) revision: number;
  @ApiProperty({ description: 'The version search shows and routes act on without `?version=`' }) recommended: boolean;
  @ApiPropertyOptional({ description: 'For a deprecated version: the version to move to' }) moveTo?: string;
  @ApiPropertyOptional({ type: IndexingDoc, description: 'The recommended version\'s: only it is indexed for search' }) indexing?: IndexingDoc;
  @ApiPropertyOptional({ type: 'object', properties: { error: { type: 'integer' }, warning: { type: 'integer' }, info: { type: 'integer' }, hint: { type: 'integer' } }, description: 'Absent until linted' })
  lint?: LintSummary;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiPropertyOptional(WARNINGS) warnings?: string[];
  @ApiPropertyOptional(CHANGE_COUNTS) changes?: ApiVersionRecord['changes'];
}

export class ApiVersionListDoc implements ApiVersionList {
  @ApiProperty({ type: [ApiVersionRecordDoc] }) items: ApiVersionRecordDoc[];
}

export class ApiChangeDoc implements ApiChange {
  @ApiProperty({ enum: CHANGE_SEVERITIES }) severity: ChangeSeverity;
  @ApiProperty({ example: 'operation-removed' }) code: string;
  @ApiPropertyOptional({ example: 'GET /pets/{id}' }) operation?: string;
  @ApiProperty({ example: 'response 200 .items[].id' }) location: string;
  @ApiProperty() message: string;
}

class ChangeGapDoc implements ChangeGap {
  @ApiPropertyOptional({ example: 'POST /shapes' }) operation?: string;
  @ApiProperty({ example: 'request body' }) location: string;
  @ApiProperty({ example: 'a union (oneOf, anyOf) or a `not` changed: its variants are not compared' }) reason: string;
}

class RevisionRefDoc {
  @ApiProperty() version: string;
  @ApiProperty() revision: number;
}

export class ChangeReportDoc implements ChangeReportResponse {
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiProperty({ type: RevisionRefDoc }) from: RevisionRefDoc;
  @ApiProperty({ type: RevisionRefDoc }) to: RevisionRefDoc;
  @ApiProperty({ type: [ApiChangeDoc], description: `Breaking first; at most ${CHANGE_REPORT_LIMITS.maxChanges}` }) changes: ApiChangeDoc[];
  @ApiProperty() breaking: number;
  @ApiProperty() nonBreaking: number;
  @ApiProperty() info: number;
  @ApiPropertyOptional({ description: 'The list was cut; the counts are of every change' }) truncated?: boolean;
  @ApiProperty({ description: 'Every part of both specs was compared. When false the counts are of what could be compared, a breaking change may hide in the rest, and gates treat the report as not proven safe' })
  complete: boolean;
  @ApiPropertyOptional({ description: 'When not complete: the first part not compared and why, and how many more there were', example: 'POST /shapes request body: a union (oneOf, anyOf) or a `not` changed: its variants are not compared' }) incompleteReason?: string;
  @ApiPropertyOptional({ type: [ChangeGapDoc], description: `When not complete: the parts not compared, at most ${CHANGE_REPORT_LIMITS.maxGaps}` }) notCompared?: ChangeGapDoc[];
}

export class LintFindingDoc implements LintFinding {
  @ApiProperty({ example: 'operation-description' }) code: string;
  @ApiProperty({ enum: LINT_SEVERITIES }) severity: LintSeverity;
  @ApiProperty() message: string;
  @ApiProperty({ example: 'paths./pets.get' }) path: string;
  @ApiPropertyOptional({ example: 'GET /pets' }) operation?: string;
}

export class LintResponseDoc implements LintResponse {
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiProperty() version: string;
  @ApiProperty() revision: number;
  @ApiProperty({ type: 'object', properties: { error: { type: 'integer' }, warning: { type: 'integer' }, info: { type: 'integer' }, hint: { type: 'integer' } } }) summary: LintSummary;
  @ApiProperty({ type: [LintFindingDoc], description: `Errors first; at most ${LINT_LIMITS.maxFindings}` }) findings: LintFindingDoc[];
  @ApiPropertyOptional({ description: 'The list was cut; the summary counts every finding' }) truncated?: boolean;
}

export class ApiListResponseDoc implements ApiListResponse {
  @ApiProperty({ type: [ApiRecordDoc] }) items: ApiRecordDoc[];
  @ApiProperty() total: number;
}

export class ApiEndpointDoc implements ApiEndpoint {
  @ApiProperty({ example: FIRST_KIND.verbs[0], description: `The verb in its kind's notation: ${KINDS.map((known) => `${known.verbs.join('/')} (${known.name})`).join(', ')}` })
  method: string;
  @ApiProperty({ example: '/payments/{id}', description: 'The address: a path, a channel, a field name, or package.Service/Method' }) path: string;
  @ApiPropertyOptional() summary?: string;
  @ApiPropertyOptional() operationId?: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiPropertyOptional() deprecated?: boolean;
}

/** What an answer's size limit (ANSWER_MAX_CHARS) cut: present only when something was. */
const CUTS: ApiPropertyOptions = { type: [String], description: 'What the answer size limit cut, in words (`servers[0].url: 10,000 of 2,097,152 characters`)' };

export class ApiEndpointsResponseDoc implements ApiEndpointsResponse {
  @ApiProperty({ type: [ApiEndpointDoc] }) items: ApiEndpointDoc[];
  @ApiPropertyOptional(CUTS) cuts?: string[];
}

const SECURITY_REQUIREMENTS = {
  type: 'array',
  description: 'Any one entry lets a caller in; the schemes inside an entry apply together (an empty entry: no credentials needed)',
  items: { type: 'array', items: { type: 'object', properties: { scheme: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } } } } },
} as const;
const JSON_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  description: 'The schema with its $refs expanded; `{"$circular": ref}` where it contains itself, `"$truncated"` (with the reason) past OPERATION_DETAIL_MAX_CHARS',
} as const;

export class ServerDoc implements ServerInfo {
  @ApiProperty({ example: 'https://{region}.example.com/v1' }) url: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Template variables: default, enum, description' })
  variables?: ServerInfo['variables'];
}

export class SecuritySchemeDoc implements SecuritySchemeInfo {
  @ApiProperty({ example: 'petstore_auth' }) name: string;
  @ApiProperty({ example: 'oauth2', description: 'apiKey, http, oauth2, openIdConnect or mutualTLS' }) type: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ example: 'header' }) in?: string;
  @ApiPropertyOptional({ description: 'apiKey: the header, query parameter or cookie name' }) parameterName?: string;
  @ApiPropertyOptional({ example: 'bearer' }) scheme?: string;
  @ApiPropertyOptional() bearerFormat?: string;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, description: 'oauth2: flow, its URLs and scopes (name, description)' })
  flows?: OAuthFlowInfo[];
  @ApiPropertyOptional() openIdConnectUrl?: string;
}

export class ApiOperationsDoc implements ApiOperationsResponse {
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiProperty({ description: 'The indexed revision these details come from' }) revision: number;
  @ApiProperty({ example: FIRST_KIND.kind, description: KIND }) kind: string;
  @ApiProperty({ example: 'OpenAPI 3.0.3', description: 'The document\'s own format and version' }) format: string;
  @ApiPropertyOptional({ description: "The spec's own description, as plain text" }) description?: string;
  @ApiProperty({ type: [ServerDoc] }) servers: ServerDoc[];
  @ApiProperty({ type: [SecuritySchemeDoc] }) securitySchemes: SecuritySchemeDoc[];
  @ApiProperty({ ...SECURITY_REQUIREMENTS, description: `What every operation requires unless it says otherwise. ${SECURITY_REQUIREMENTS.description}` })
  security: SecurityRequirement[];
  @ApiProperty({ type: [ApiEndpointDoc] }) operations: ApiEndpointDoc[];
  @ApiPropertyOptional(CUTS) cuts?: string[];
}

export class MediaTypeSchemaDoc implements MediaTypeSchema {
  @ApiProperty({ example: 'application/json' }) mediaType: string;
  @ApiPropertyOptional(JSON_SCHEMA) schema?: JsonSchema;
}

export class OperationParameterDoc implements OperationParameter {
  @ApiProperty() name: string;
  @ApiProperty({ enum: PARAMETER_LOCATIONS }) in: ParameterLocation;
  @ApiProperty() required: boolean;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional() deprecated?: boolean;
  @ApiPropertyOptional(JSON_SCHEMA) schema?: JsonSchema;
}

export class OperationRequestBodyDoc implements OperationRequestBody {
  @ApiProperty() required: boolean;
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ type: [MediaTypeSchemaDoc] }) content: MediaTypeSchemaDoc[];
}

export class OperationResponseDoc implements OperationResponse {
  @ApiProperty({ example: '200' }) status: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ type: [MediaTypeSchemaDoc] }) content: MediaTypeSchemaDoc[];
}

export class ApiOperationDetailDoc implements ApiOperationDetailResponse {
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiProperty({ description: 'The indexed revision these details come from' }) revision: number;
  @ApiProperty({ example: 'GET' }) method: string;
  @ApiProperty({ example: '/pet/{petId}' }) path: string;
  @ApiPropertyOptional() operationId?: string;
  @ApiPropertyOptional() summary?: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiPropertyOptional() deprecated?: boolean;
  @ApiProperty({ type: [OperationParameterDoc], description: 'Path-level parameters merged in; Swagger 2.0 body and formData parameters are the requestBody' })
  parameters: OperationParameterDoc[];
  @ApiPropertyOptional({ type: OperationRequestBodyDoc }) requestBody?: OperationRequestBodyDoc;
  @ApiProperty({ type: [OperationResponseDoc] }) responses: OperationResponseDoc[];
  @ApiProperty(SECURITY_REQUIREMENTS) security: SecurityRequirement[];
  @ApiPropertyOptional({ description: 'Some schema was cut at OPERATION_DETAIL_MAX_CHARS' }) truncated?: boolean;
  @ApiPropertyOptional(CUTS) cuts?: string[];
}

export class IndexingStatusDoc extends IndexingDoc implements IndexingStatus {
  @ApiProperty({ format: 'uuid' }) apiId: string;
}

export class SearchFiltersDoc implements SearchFilters {
  @ApiPropertyOptional({ type: [String] }) teamNames?: string[];
  @ApiPropertyOptional({ type: [String] }) tags?: string[];
  @ApiPropertyOptional({ type: [String], example: FIRST_KIND.verbs.slice(0, 2), description: `Verbs of any kind, in any case: ${KINDS.flatMap((known) => known.verbs).join(', ')}…` })
  methods?: string[];
  @ApiPropertyOptional({ type: [String], example: [SECOND_KIND.kind], description: `API kinds: ${KIND_NAMES}` }) kinds?: string[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: LABEL_LIMITS.maxLabels,
    example: { tier: 'gold' },
    description: 'Labels an API must carry, every one (AND): keys as given (lower case by rule), values in any case',
  })
  labels?: Record<string, string>;
  @ApiPropertyOptional({ type: [String], enum: LIFECYCLE_STAGES, description: 'Stages of the API\'s recommended version; a retired API never shows, whatever the filter' })
  lifecycle?: LifecycleStage[];
}

export class SearchRequestDoc implements SearchRequest {
  @ApiProperty({ description: 'What you need, in your words; empty to list every API matching the filters', maxLength: SEARCH_LIMITS.queryMaxLength, example: 'send a verification code by sms' })
  query: string;
  @ApiProperty() orgId: string;
  @ApiPropertyOptional({ minimum: SEARCH_LIMITS.maxResults.min, maximum: SEARCH_LIMITS.maxResults.max, default: SEARCH_LIMITS.maxResults.default })
  maxResults?: number;
  @ApiPropertyOptional({ minimum: SEARCH_LIMITS.maxEndpoints.min, maximum: SEARCH_LIMITS.maxEndpoints.max, default: SEARCH_LIMITS.maxEndpoints.default })
  maxEndpoints?: number;
  @ApiPropertyOptional({ type: SearchFiltersDoc }) filters?: SearchFiltersDoc;
}

export class FacetCountDoc implements FacetCount {
  @ApiProperty({ example: 'checkout', description: 'The spelling most of these APIs use (values that differ only in case are one)' }) name: string;
  @ApiProperty({ example: 3, description: 'How many indexed APIs carry it' }) apiCount: number;
}

export class SearchFacetsDoc implements SearchFacets {
  @ApiProperty({ type: [FacetCountDoc], description: `Team names, most APIs first (up to ${FACET_LIMIT})` }) teams: FacetCountDoc[];
  @ApiProperty({ type: [FacetCountDoc], description: `Operation tags, most APIs first (up to ${FACET_LIMIT})` }) tags: FacetCountDoc[];
  @ApiProperty({ type: [FacetCountDoc], description: `API kinds (${KIND_NAMES}), most APIs first` }) kinds: FacetCountDoc[];
}

export class EndpointDoc implements EndpointMatch {
  @ApiProperty({ example: 'POST' }) method: string;
  @ApiProperty({ example: '/verify' }) path: string;
  @ApiPropertyOptional() summary?: string;
}

export class ChunkMatchDoc implements ChunkMatch {
  @ApiProperty({ format: 'uuid' }) chunkId: string;
  @ApiProperty({ enum: ['L1', 'L2', 'L3'], description: 'L1 API, L2 operation, L3 schema' }) level: ChunkLevel;
  @ApiProperty() title: string;
  @ApiProperty() snippet: string;
  @ApiPropertyOptional() method?: string;
  @ApiPropertyOptional() path?: string;
  @ApiPropertyOptional() operationId?: string;
  @ApiProperty() score: number;
}

export class FeedbackEvidenceDoc implements FeedbackEvidence {
  @ApiProperty({ description: 'People who voted that this API answered the same need ("This answered it", MCP `rate_result`)' }) helpful: number;
  @ApiProperty({ description: 'People who opened this API or one of its operations after a search for the same need (web UI, or their assistant over MCP `get_api` / `get_operation`): implicit, weaker than a vote' })
  opened: number;
  @ApiProperty({ description: 'People who said it was not what they needed' }) notHelpful: number;
  @ApiProperty({ minimum: 0, maximum: 1, description: 'How sure the model is that the closest of those needs is this query\'s (1: the same words)' }) similarity: number;
  @ApiProperty({ minimum: -1, maximum: 1, description: 'What it did to the card\'s score: -1 down as far as feedback may, 1 up as far as it may' }) weight: number;
  @ApiProperty({ description: 'Places the card moved because of feedback: 2 up two, -1 down one, 0 held where the content put it' }) moved: number;
  @ApiProperty({ description: 'Why, in a sentence to show as it is' }) reason: string;
}

export class RelevanceEvidenceDoc implements RelevanceEvidence {
  @ApiProperty({ minimum: 0, maximum: 1, description: "The API's fused vector and keyword evidence relative to the best API of this search" }) relative: number;
  @ApiPropertyOptional({ description: "Cosine similarity of the API's chunk nearest the query" }) similarity?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: "Share of the query's words (weighted by rarity) that the API's text holds" }) termCoverage?: number;
  @ApiPropertyOptional({ type: FeedbackEvidenceDoc, description: 'What people of the org voted or opened after searches for the same need (absent when none did)' }) feedback?: FeedbackEvidenceDoc;
}

export class SearchResultDoc implements SearchResult {
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiProperty() apiName: string;
  @ApiProperty() version: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional() teamName?: string;
  @ApiProperty({ ...LABELS, description: "The labels of the API's indexed revision; `{}` when none" }) labels: Record<string, string>;
  @ApiProperty({ example: FIRST_KIND.kind, description: KIND }) kind: string;
  @ApiProperty({ enum: LIFECYCLE_STAGES, description: 'The stage of `version`, the API\'s recommended version: a deprecated API ranks below an equally good one, a retired one never shows' })
  lifecycle: LifecycleStage;
  @ApiPropertyOptional({ format: 'date', description: 'When `version` is deprecated with a sunset date' }) sunsetDate?: string;
  @ApiProperty({ type: [VersionSummaryDoc], description: 'The API\'s versions that are not retired, newest release first' }) versions: VersionSummaryDoc[];
  @ApiProperty({
    minimum: 0,
    maximum: 1,
    description: 'The estimated chance that this API answers the query, calibrated on judged searches: the same meaning across queries and orgs (1 when browsing with an empty query)',
  })
  relevanceScore: number;
  @ApiPropertyOptional({ enum: MATCH_BANDS, description: '`relevanceScore` in words: strong ≥ 0.5, partial ≥ 0.2, else weak; absent when browsing' })
  match?: MatchBand;
  @ApiPropertyOptional({ type: RelevanceEvidenceDoc, description: 'What `relevanceScore` is computed from' })
  evidence?: RelevanceEvidenceDoc;
  @ApiProperty({ type: [EndpointDoc], description: 'Best matching first' }) endpoints: EndpointDoc[];
  @ApiProperty({ type: [ChunkMatchDoc] }) matchedChunks: ChunkMatchDoc[];
}

export class SearchResponseDoc implements SearchResponse {
  @ApiProperty({ description: 'Names this answer in feedback (`POST /api-management/ai/feedback`)' }) searchId: string;
  @ApiProperty({ type: [SearchResultDoc], description: 'One card per API, best first' }) results: SearchResultDoc[];
  @ApiProperty() totalFound: number;
  @ApiProperty() queryEmbeddingMs: number;
  @ApiProperty() searchMs: number;
  @ApiPropertyOptional({ type: [String], description: 'What the search limits left out of the query (a very long query, many unknown words)' }) warnings?: string[];
}

export class FeedbackOperationDoc {
  @ApiProperty({ example: 'POST' }) method: string;
  @ApiProperty({ example: '/refunds' }) path: string;
}

export class FeedbackRequestDoc implements FeedbackRequest {
  @ApiProperty({ description: 'The `searchId` of the answer acted on' }) searchId: string;
  @ApiProperty({ format: 'uuid', description: 'Any API of the search\'s org, also one the search did not return' }) apiId: string;
  @ApiPropertyOptional({ type: FeedbackOperationDoc, description: 'The operation that answered it (or did not), as the card lists it' }) operation?: FeedbackOperationDoc;
  @ApiProperty() helpful: boolean;
  @ApiPropertyOptional({ enum: FEEDBACK_SIGNALS, default: 'vote', description: '`vote`: said so; `opened`: opened the API or an operation after the search, a weaker signal' })
  signal?: FeedbackSignal;
}

export class FeedbackApiCountDoc {
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiProperty({ description: 'People in favour (any need)' }) helpful: number;
  @ApiProperty({ description: 'People against (any need)' }) notHelpful: number;
}

export class FeedbackSignalDoc {
  @ApiProperty({ description: 'The need, as it was searched' }) query: string;
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiPropertyOptional({ type: FeedbackOperationDoc }) operation?: FeedbackOperationDoc;
  @ApiProperty() helpful: boolean;
  @ApiProperty({ enum: FEEDBACK_SIGNALS }) signal: FeedbackSignal;
  @ApiProperty({ description: 'A short keyed hash of who gave it, never the identity' }) person: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class FeedbackLearningDoc {
  @ApiProperty({ description: 'The embedding model search uses now' }) model: string;
  @ApiProperty({ enum: ['paraphrases', 'same need'], description: 'Which later queries a signal counts for: its need in other words too, or the same words only' }) matches: 'paraphrases' | 'same need';
  @ApiPropertyOptional({ description: 'The need-match score from which two needs are the same, fitted for the model' }) threshold?: number;
  @ApiPropertyOptional({ description: 'Share of the calibration set\'s paraphrase pairs that match' }) recall?: number;
  @ApiPropertyOptional({ description: 'Share of its pairs of different needs that match' }) falseMatchRate?: number;
  @ApiPropertyOptional({ description: 'Why paraphrases do not count (yet)' }) reason?: string;
}

export class FeedbackReportDoc implements FeedbackReport {
  @ApiProperty() orgId: string;
  @ApiProperty({ description: 'Stored signals: one per person, search, API and operation' }) signals: number;
  @ApiProperty({ description: 'Distinct people who gave them' }) people: number;
  @ApiProperty({ description: 'Days a signal is kept (FEEDBACK_RETENTION_DAYS)' }) retentionDays: number;
  @ApiProperty({ description: 'Days in which a signal\'s weight halves (FEEDBACK_HALF_LIFE_DAYS)' }) halfLifeDays: number;
  @ApiProperty({ type: FeedbackLearningDoc, description: 'How search tells that a query expresses the need a signal was given for' }) learning: FeedbackLearningDoc;
  @ApiProperty({ type: [FeedbackApiCountDoc] }) apis: FeedbackApiCountDoc[];
  @ApiProperty({ type: [FeedbackSignalDoc], description: 'The newest signals, up to 200' }) recent: FeedbackSignalDoc[];
}

export class FeedbackErasedDoc implements FeedbackErased {
  @ApiProperty() orgId: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'When only this API\'s feedback was erased' }) apiId?: string;
  @ApiProperty({ description: 'Signals erased' }) signals: number;
}

export class ReindexAcceptedDoc implements ReindexAccepted {
  @ApiProperty({ format: 'uuid' }) reindexId: string;
  @ApiProperty({ description: 'APIs queued for re-indexing' }) queued: number;
}

export class ReindexFailureDoc {
  @ApiProperty({ format: 'uuid' }) apiId: string;
  @ApiProperty() error: string;
}

export class ReindexProgressDoc implements ReindexProgress {
  @ApiProperty({ format: 'uuid' }) reindexId: string;
  @ApiProperty({ enum: ['RUNNING', 'COMPLETED'] }) status: ReindexState;
  @ApiProperty({ type: [String] }) orgIds: string[];
  @ApiProperty({ format: 'date-time' }) requestedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) finishedAt?: string;
  @ApiProperty() total: number;
  @ApiProperty({ description: 'Waiting for, or in, a worker' }) queued: number;
  @ApiProperty() done: number;
  @ApiProperty() failed: number;
  @ApiProperty({ type: [ReindexFailureDoc] }) failures: ReindexFailureDoc[];
}

export class EmbeddingModelDoc {
  @ApiProperty({ example: 'use-lite-512' }) model: string;
  @ApiProperty({ enum: EMBEDDING_PROVIDER_NAMES }) provider: string;
  @ApiProperty({ example: 512 }) dimensions: number;
}

export class ActiveEmbeddingModelDoc extends EmbeddingModelDoc {
  @ApiPropertyOptional({ format: 'date-time' }) activatedAt?: string;
}

export class EmbeddingModelSwitchDoc extends EmbeddingModelDoc {
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty({ description: 'Indexed APIs (every org)' }) total: number;
  @ApiProperty({ description: 'Indexed APIs that already have the new model\'s vectors' }) done: number;
  @ApiProperty({ type: [ReindexFailureDoc], description: "APIs of the caller's orgs whose re-embedding failed" }) failures: ReindexFailureDoc[];
}

export class EmbeddingModelsStatusDoc implements EmbeddingModelsStatus {
  @ApiProperty({ type: ActiveEmbeddingModelDoc, description: 'The model search uses' }) active: ActiveEmbeddingModelDoc;
  @ApiPropertyOptional({ type: EmbeddingModelSwitchDoc, description: 'The model being switched to, while its vectors are made' })
  building?: EmbeddingModelSwitchDoc;
}

export class HealthDoc {
  @ApiProperty({ example: 'ok' }) status: 'ok';
  @ApiPropertyOptional({ example: { database: 'ok', redis: 'ok', ai: 'ok' } }) checks?: Record<string, string>;
}

export class OperationPartNamesDoc implements OperationPartNames {
  @ApiProperty({ example: FIRST_KIND.parts.inputs, description: 'Named inputs' }) inputs: string;
  @ApiProperty({ example: FIRST_KIND.parts.body, description: 'What is sent' }) body: string;
  @ApiProperty({ example: FIRST_KIND.parts.responses, description: 'What comes back' }) responses: string;
}

export class ApiKindInfoDoc implements ApiKindInfo {
  @ApiProperty({ example: FIRST_KIND.kind, description: 'The `kind` of records and cards, a `kinds` filter\'s value, and a registration\'s `format`' }) kind: string;
  @ApiProperty({ example: FIRST_KIND.name, description: 'What people call it' }) name: string;
  @ApiProperty({ example: FIRST_KIND.label, description: 'The formats it reads' }) label: string;
  @ApiProperty({ type: [String], example: FIRST_KIND.verbs, description: 'The verbs its operations use (`method`), in the order people expect them' }) verbs: string[];
  @ApiProperty({ type: OperationPartNamesDoc, description: 'What an operation\'s parts are called in this kind' }) parts: OperationPartNamesDoc;
  @ApiProperty({ type: [String], example: FIRST_KIND.fileExtensions, description: 'Endings of its documents\' file names' }) fileExtensions: string[];
}

export class ApiKindsResponseDoc implements ApiKindsResponse {
  @ApiProperty({ type: [ApiKindInfoDoc], description: 'Every kind this platform reads, in the order it tries them on a spec whose format is not named' }) items: ApiKindInfoDoc[];
}
