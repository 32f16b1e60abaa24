import { declaredKindNames, declaredKinds } from '#api-specs';
import type * as C from '#contracts';
import { CHANGE_REPORT_LIMITS, FACET_LIMIT, LABEL_LIMITS, LINT_LIMITS, SEARCH_LIMITS } from '#contracts';
import { EMBEDDING_PROVIDER_NAMES } from '#embeddings';
import type * as S from './contract-shapes.js';
import type { SchemaObject } from './contract-shapes.js';

const KINDS = declaredKinds();
const KIND_NAMES = declaredKindNames();

/*
 * What the gateway's document says about each schema's properties beyond their shape: prose,
 * examples, formats and value ranges that a TypeScript type cannot say. The shape (properties,
 * types, required) comes from the contract types and the validators (`derived-schemas.ts`); each
 * entry is checked against its contract type, so a note cannot name a property that is gone.
 */

/** Words and examples for one property; `integer` and `enum` narrow a contract's `number` or `string`. */
export interface Note extends Pick<SchemaObject, 'description' | 'example' | 'format' | 'default' | 'minimum' | 'maximum' | 'enum'> {
  type?: 'integer';
  /** Notes on the properties of an inline object (`changes.breaking`). */
  properties?: Record<string, Note>;
}
type Notes<T> = { [K in keyof T]?: Note };

/** The kinds of API, as the spec format plugins say them (what `GET /api-management/kinds` answers): the docs name no kind of their own. */
const [FIRST_KIND, SECOND_KIND = FIRST_KIND] = KINDS;
const KIND = `The kind of API: ${KIND_NAMES} (\`GET /api-management/kinds\` says how to read its operations' method and path)`;

/** An API's labels, as records and cards show them. */
const LABELS: Note = {
  example: { tier: 'gold', 'cost-center': 'CC-1234' },
  description: `The org's labels on the API (up to ${LABEL_LIMITS.maxLabels}, keys lower case); \`{}\` when none`,
};
const WARNINGS: Note = { description: "In a registration's answer: e.g. breaking changes to a version in production" };
const COUNT: Note = { type: 'integer' };
const CHANGE_COUNTS: Note = {
  properties: { breaking: COUNT, nonBreaking: COUNT, info: COUNT },
  description: "In a registration's answer: the changes from the spec it follows; `complete: false` when part of it could not be compared (not proven safe)",
};
const LINT_SUMMARY: Note = { properties: { error: COUNT, warning: COUNT, info: COUNT, hint: COUNT } };
/** What an answer's size limit (ANSWER_MAX_CHARS) cut: present only when something was. */
const CUTS: Note = { description: 'What the answer size limit cut, in words (`servers[0].url: 10,000 of 2,097,152 characters`)' };
const SECURITY_REQUIREMENTS: Note = {
  description: 'Any one entry lets a caller in; the schemes inside an entry apply together (an empty entry: no credentials needed)',
};
const JSON_SCHEMA: Note = {
  description:
    'The schema with its $refs expanded; `{"$circular": ref}` where it contains itself, `"$truncated"` (with the reason) past OPERATION_DETAIL_MAX_CHARS',
};
const INDEXING = {
  kind: { example: FIRST_KIND.kind, description: `The kind the indexed spec was read as: ${KIND_NAMES}` },
  indexedAt: { format: 'date-time' },
  warnings: { description: 'COMPLETED with parts of the spec left out by the index limits: what, in words' },
  error: { description: 'Why indexing failed (FAILED only)' },
} satisfies Notes<S.IndexingDoc>;
const EMBEDDING_MODEL = {
  model: { example: 'use-lite-512' },
  provider: { enum: [...EMBEDDING_PROVIDER_NAMES] },
  dimensions: { example: 512 },
} satisfies Notes<C.EmbeddingModelInfo>;

/** Notes by component name, as the controllers' decorators name the schemas. */
export const SCHEMA_NOTES: Record<string, Record<string, Note>> = {
  ProblemDoc: {
    type: { example: 'https://httpstatuses.io/404' },
    title: { example: 'Not Found' },
    status: { example: 404 },
    detail: { example: 'API "6f1c…" not found' },
    instance: { description: 'The request id (also in the X-Request-Id header)' },
    errors: { description: 'Every validation message, for 400' },
  } satisfies Notes<S.ProblemDoc>,
  IndexingDoc: INDEXING,
  VersionSummaryDoc: {
    version: { example: '1.0.0' },
    sunsetDate: { format: 'date', description: "A deprecated version's sunset date" },
  } satisfies Notes<S.VersionSummaryDoc>,
  ApiSourceDoc: {
    url: { format: 'uri', description: 'URL import: where the spec is fetched from (`POST …/refresh`, IMPORT_REFRESH_INTERVAL_MS)' },
    tree: { description: "Folder import: the tree's name (`--tree`; by default the repository's remote and the folder's path in it)" },
    key: { description: "Folder import: the API's identity in its tree: `entity:<ref>`, `title:<title>` or `file:<path>`" },
    version: { description: 'URL import: the version of the API the source feeds' },
    sha256: { description: 'URL import: SHA-256 (hex) of the spec text last fetched' },
    etag: { description: "URL import: the last good fetch's ETag, sent back as If-None-Match" },
    lastModified: { description: "URL import: the last good fetch's Last-Modified, sent back as If-Modified-Since" },
    fetchedAt: { format: 'date-time', description: 'URL import: when it was last fetched, good or not' },
    lastError: { description: 'URL import: why the last fetch failed (the last good spec stays); absent after a good one' },
  } satisfies Notes<S.ApiSourceDoc>,
  ApiRecordDoc: {
    apiId: { format: 'uuid' },
    version: { description: 'The recommended version: the highest in production, else the newest still being made, else the newest deprecated' },
    lifecycle: { description: "The recommended version's stage (`retired`: every version is, and search leaves the API out)" },
    sunsetDate: { format: 'date', description: 'When the recommended version is deprecated with a sunset date' },
    versions: { description: 'Every version, newest release first' },
    labels: LABELS,
    kind: { example: FIRST_KIND.kind, description: KIND },
    revision: { description: 'Increases with every change search must see' },
    createdAt: { format: 'date-time' },
    updatedAt: { format: 'date-time' },
    source: { description: 'Where the spec comes from, for an API imported from a URL or a folder' },
    indexing: { description: 'Absent when the search service could not be asked' },
    warnings: WARNINGS,
    changes: CHANGE_COUNTS,
  } satisfies Notes<S.ApiRecordDoc>,
  ApiRefreshResultDoc: {
    apiId: { format: 'uuid' },
    revision: { description: "`updated`: the new revision of the source's version" },
    error: { description: "`failed`: why (the last good spec stays; also on the record's `source.lastError`)" },
    warnings: WARNINGS,
    changes: CHANGE_COUNTS,
  } satisfies Notes<S.ApiRefreshResultDoc>,
  ApiVersionRecordDoc: {
    apiId: { format: 'uuid' },
    version: { example: '2.0.0' },
    sunsetDate: { format: 'date' },
    kind: { example: FIRST_KIND.kind, description: KIND },
    revision: { description: 'Increases with every new spec of this version' },
    recommended: { description: 'The version search shows and routes act on without `?version=`' },
    moveTo: { description: 'For a deprecated version: the version to move to' },
    indexing: { description: "The recommended version's: only it is indexed for search" },
    lint: { ...LINT_SUMMARY, description: 'Absent until linted' },
    createdAt: { format: 'date-time' },
    updatedAt: { format: 'date-time' },
    warnings: WARNINGS,
    changes: CHANGE_COUNTS,
  } satisfies Notes<S.ApiVersionRecordDoc>,
  ApiChangeDoc: {
    code: { example: 'operation-removed' },
    operation: { example: 'GET /pets/{id}' },
    location: { example: 'response 200 .items[].id' },
  } satisfies Notes<S.ApiChangeDoc>,
  ChangeGapDoc: {
    operation: { example: 'POST /shapes' },
    location: { example: 'request body' },
    reason: { example: 'a union (oneOf, anyOf) or a `not` changed: its variants are not compared' },
  } satisfies Notes<S.ChangeGapDoc>,
  ChangeReportDoc: {
    apiId: { format: 'uuid' },
    changes: { description: `Breaking first; at most ${CHANGE_REPORT_LIMITS.maxChanges}` },
    truncated: { description: 'The list was cut; the counts are of every change' },
    complete: {
      description:
        'Every part of both specs was compared. When false the counts are of what could be compared, a breaking change may hide ' +
        'in the rest, and gates treat the report as not proven safe',
    },
    incompleteReason: {
      description: 'When not complete: the first part not compared and why, and how many more there were',
      example: 'POST /shapes request body: a union (oneOf, anyOf) or a `not` changed: its variants are not compared',
    },
    notCompared: { description: `When not complete: the parts not compared, at most ${CHANGE_REPORT_LIMITS.maxGaps}` },
  } satisfies Notes<S.ChangeReportDoc>,
  LintFindingDoc: {
    code: { example: 'operation-description' },
    path: { example: 'paths./pets.get' },
    operation: { example: 'GET /pets' },
  } satisfies Notes<S.LintFindingDoc>,
  LintResponseDoc: {
    apiId: { format: 'uuid' },
    summary: LINT_SUMMARY,
    findings: { description: `Errors first; at most ${LINT_LIMITS.maxFindings}` },
    truncated: { description: 'The list was cut; the summary counts every finding' },
  } satisfies Notes<S.LintResponseDoc>,
  ApiEndpointDoc: {
    method: {
      example: FIRST_KIND.verbs[0],
      description: `The verb in its kind's notation: ${KINDS.map((known) => `${known.verbs.join('/')} (${known.name})`).join(', ')}`,
    },
    path: { example: '/payments/{id}', description: 'The address: a path, a channel, a field name, or package.Service/Method' },
  } satisfies Notes<S.ApiEndpointDoc>,
  ApiEndpointsResponseDoc: {
    cuts: CUTS,
  } satisfies Notes<S.ApiEndpointsResponseDoc>,
  ServerDoc: {
    url: { example: 'https://{region}.example.com/v1' },
    variables: { description: 'Template variables: default, enum, description' },
  } satisfies Notes<S.ServerDoc>,
  SecuritySchemeDoc: {
    name: { example: 'petstore_auth' },
    type: { example: 'oauth2', description: 'apiKey, http, oauth2, openIdConnect or mutualTLS' },
    in: { example: 'header' },
    parameterName: { description: 'apiKey: the header, query parameter or cookie name' },
    scheme: { example: 'bearer' },
    flows: { description: 'oauth2: flow, its URLs and scopes (name, description)' },
  } satisfies Notes<S.SecuritySchemeDoc>,
  ApiOperationsDoc: {
    apiId: { format: 'uuid' },
    revision: { description: 'The indexed revision these details come from' },
    kind: { example: FIRST_KIND.kind, description: KIND },
    format: { example: 'OpenAPI 3.0.3', description: "The document's own format and version" },
    description: { description: "The spec's own description, as plain text" },
    security: { ...SECURITY_REQUIREMENTS, description: `What every operation requires unless it says otherwise. ${SECURITY_REQUIREMENTS.description}` },
    cuts: CUTS,
  } satisfies Notes<S.ApiOperationsDoc>,
  MediaTypeSchemaDoc: {
    mediaType: { example: 'application/json' },
    schema: JSON_SCHEMA,
  } satisfies Notes<S.MediaTypeSchemaDoc>,
  OperationParameterDoc: {
    schema: JSON_SCHEMA,
  } satisfies Notes<S.OperationParameterDoc>,
  OperationResponseDoc: {
    status: { example: '200' },
  } satisfies Notes<S.OperationResponseDoc>,
  ApiOperationDetailDoc: {
    apiId: { format: 'uuid' },
    revision: { description: 'The indexed revision these details come from' },
    method: { example: 'GET' },
    path: { example: '/pet/{petId}' },
    parameters: { description: 'Path-level parameters merged in; Swagger 2.0 body and formData parameters are the requestBody' },
    security: SECURITY_REQUIREMENTS,
    truncated: { description: 'Some schema was cut at OPERATION_DETAIL_MAX_CHARS' },
    cuts: CUTS,
  } satisfies Notes<S.ApiOperationDetailDoc>,
  IndexingStatusDoc: {
    ...INDEXING,
    apiId: { format: 'uuid' },
  } satisfies Notes<S.IndexingStatusDoc>,
  SearchFiltersDoc: {
    methods: { example: FIRST_KIND.verbs.slice(0, 2), description: `Verbs of any kind, in any case: ${KINDS.flatMap((known) => known.verbs).join(', ')}…` },
    kinds: { example: [SECOND_KIND.kind], description: `API kinds: ${KIND_NAMES}` },
    labels: { example: { tier: 'gold' }, description: 'Labels an API must carry, every one (AND): keys as given (lower case by rule), values in any case' },
    lifecycle: { description: "Stages of the API's recommended version; a retired API never shows, whatever the filter" },
  } satisfies Notes<C.SearchFilters>,
  SearchRequestDoc: {
    query: { description: 'What you need, in your words; empty to list every API matching the filters', example: 'send a verification code by sms' },
    maxResults: { default: SEARCH_LIMITS.maxResults.default },
    maxEndpoints: { default: SEARCH_LIMITS.maxEndpoints.default },
  } satisfies Notes<C.SearchRequest>,
  FacetCountDoc: {
    name: { example: 'checkout', description: 'The spelling most of these APIs use (values that differ only in case are one)' },
    apiCount: { example: 3, description: 'How many indexed APIs carry it' },
  } satisfies Notes<S.FacetCountDoc>,
  SearchFacetsDoc: {
    teams: { description: `Team names, most APIs first (up to ${FACET_LIMIT})` },
    tags: { description: `Operation tags, most APIs first (up to ${FACET_LIMIT})` },
    kinds: { description: `API kinds (${KIND_NAMES}), most APIs first` },
  } satisfies Notes<S.SearchFacetsDoc>,
  EndpointDoc: {
    method: { example: 'POST' },
    path: { example: '/verify' },
  } satisfies Notes<S.EndpointDoc>,
  ChunkMatchDoc: {
    chunkId: { format: 'uuid' },
    level: { description: 'L1 API, L2 operation, L3 schema' },
  } satisfies Notes<S.ChunkMatchDoc>,
  FeedbackEvidenceDoc: {
    helpful: { description: 'People who voted that this API answered the same need ("This answered it", MCP `rate_result`)' },
    opened: {
      description:
        'People who opened this API or one of its operations after a search for the same need (web UI, or their assistant over ' +
        'MCP `get_api` / `get_operation`): implicit, weaker than a vote',
    },
    notHelpful: { description: 'People who said it was not what they needed' },
    similarity: { minimum: 0, maximum: 1, description: "How sure the model is that the closest of those needs is this query's (1: the same words)" },
    weight: { minimum: -1, maximum: 1, description: "What it did to the card's score: -1 down as far as feedback may, 1 up as far as it may" },
    moved: { description: 'Places the card moved because of feedback: 2 up two, -1 down one, 0 held where the content put it' },
    reason: { description: 'Why, in a sentence to show as it is' },
  } satisfies Notes<S.FeedbackEvidenceDoc>,
  RelevanceEvidenceDoc: {
    relative: { minimum: 0, maximum: 1, description: "The API's fused vector and keyword evidence relative to the best API of this search" },
    similarity: { description: "Cosine similarity of the API's chunk nearest the query" },
    termCoverage: { minimum: 0, maximum: 1, description: "Share of the query's words (weighted by rarity) that the API's text holds" },
    feedback: { description: 'What people of the org voted or opened after searches for the same need (absent when none did)' },
  } satisfies Notes<S.RelevanceEvidenceDoc>,
  SearchResultDoc: {
    apiId: { format: 'uuid' },
    labels: { ...LABELS, description: "The labels of the API's indexed revision; `{}` when none" },
    kind: { example: FIRST_KIND.kind, description: KIND },
    lifecycle: {
      description: "The stage of `version`, the API's recommended version: a deprecated API ranks below an equally good one, a retired one never shows",
    },
    sunsetDate: { format: 'date', description: 'When `version` is deprecated with a sunset date' },
    versions: { description: "The API's versions that are not retired, newest release first" },
    relevanceScore: {
      minimum: 0,
      maximum: 1,
      description:
        'The estimated chance that this API answers the query, calibrated on judged searches: the same meaning across queries ' +
        'and orgs (1 when browsing with an empty query)',
    },
    match: { description: '`relevanceScore` in words: strong ≥ 0.5, partial ≥ 0.2, else weak; absent when browsing' },
    evidence: { description: 'What `relevanceScore` is computed from' },
    endpoints: { description: 'Best matching first' },
  } satisfies Notes<S.SearchResultDoc>,
  SearchResponseDoc: {
    searchId: { description: 'Names this answer in feedback (`POST /api-management/ai/feedback`)' },
    results: { description: 'One card per API, best first' },
    warnings: { description: 'What the search limits left out of the query (a very long query, many unknown words)' },
  } satisfies Notes<S.SearchResponseDoc>,
  FeedbackOperationDoc: {
    method: { example: 'POST' },
    path: { example: '/refunds' },
  } satisfies Notes<S.FeedbackOperationDoc>,
  FeedbackRequestDoc: {
    searchId: { description: 'The `searchId` of the answer acted on' },
    apiId: { format: 'uuid', description: "Any API of the search's org, also one the search did not return" },
    operation: { description: 'The operation that answered it (or did not), as the card lists it' },
    signal: { default: 'vote', description: '`vote`: said so; `opened`: opened the API or an operation after the search, a weaker signal' },
  } satisfies Notes<C.FeedbackRequest>,
  FeedbackApiCountDoc: {
    apiId: { format: 'uuid' },
    helpful: { description: 'People in favour (any need)' },
    notHelpful: { description: 'People against (any need)' },
  } satisfies Notes<S.FeedbackApiCountDoc>,
  FeedbackSignalDoc: {
    query: { description: 'The need, as it was searched' },
    apiId: { format: 'uuid' },
    person: { description: 'A short keyed hash of who gave it, never the identity' },
    at: { format: 'date-time' },
  } satisfies Notes<S.FeedbackSignalDoc>,
  FeedbackLearningDoc: {
    model: { description: 'The embedding model search uses now' },
    matches: { description: 'Which later queries a signal counts for: its need in other words too, or the same words only' },
    threshold: { description: 'The need-match score from which two needs are the same, fitted for the model' },
    recall: { description: "Share of the calibration set's paraphrase pairs that match" },
    falseMatchRate: { description: 'Share of its pairs of different needs that match' },
    reason: { description: 'Why paraphrases do not count (yet)' },
  } satisfies Notes<S.FeedbackLearningDoc>,
  FeedbackReportDoc: {
    signals: { description: 'Stored signals: one per person, search, API and operation' },
    people: { description: 'Distinct people who gave them' },
    retentionDays: { description: 'Days a signal is kept (FEEDBACK_RETENTION_DAYS)' },
    halfLifeDays: { description: "Days in which a signal's weight halves (FEEDBACK_HALF_LIFE_DAYS)" },
    learning: { description: 'How search tells that a query expresses the need a signal was given for' },
    recent: { description: 'The newest signals, up to 200' },
  } satisfies Notes<S.FeedbackReportDoc>,
  FeedbackErasedDoc: {
    apiId: { format: 'uuid', description: "When only this API's feedback was erased" },
    signals: { description: 'Signals erased' },
  } satisfies Notes<S.FeedbackErasedDoc>,
  ReindexAcceptedDoc: {
    reindexId: { format: 'uuid' },
    queued: { description: 'APIs queued for re-indexing' },
  } satisfies Notes<S.ReindexAcceptedDoc>,
  ReindexFailureDoc: {
    apiId: { format: 'uuid' },
  } satisfies Notes<S.ReindexFailureDoc>,
  ReindexProgressDoc: {
    reindexId: { format: 'uuid' },
    requestedAt: { format: 'date-time' },
    finishedAt: { format: 'date-time' },
    queued: { description: 'Waiting for, or in, a worker' },
  } satisfies Notes<S.ReindexProgressDoc>,
  ActiveEmbeddingModelDoc: {
    ...EMBEDDING_MODEL,
    activatedAt: { format: 'date-time' },
  } satisfies Notes<S.ActiveEmbeddingModelDoc>,
  EmbeddingModelSwitchDoc: {
    ...EMBEDDING_MODEL,
    startedAt: { format: 'date-time' },
    total: { description: 'Indexed APIs (every org)' },
    done: { description: "Indexed APIs that already have the new model's vectors" },
    failures: { description: "APIs of the caller's orgs whose re-embedding failed" },
  } satisfies Notes<S.EmbeddingModelSwitchDoc>,
  EmbeddingModelsStatusDoc: {
    active: { description: 'The model search uses' },
    building: { description: 'The model being switched to, while its vectors are made' },
  } satisfies Notes<S.EmbeddingModelsStatusDoc>,
  HealthDoc: {
    status: { example: 'ok' },
    checks: { example: { database: 'ok', redis: 'ok', ai: 'ok' } },
  } satisfies Notes<S.HealthDoc>,
  OperationPartNamesDoc: {
    inputs: { example: FIRST_KIND.parts.inputs, description: 'Named inputs' },
    body: { example: FIRST_KIND.parts.body, description: 'What is sent' },
    responses: { example: FIRST_KIND.parts.responses, description: 'What comes back' },
  } satisfies Notes<S.OperationPartNamesDoc>,
  ApiKindInfoDoc: {
    kind: { example: FIRST_KIND.kind, description: "The `kind` of records and cards, a `kinds` filter's value, and a registration's `format`" },
    name: { example: FIRST_KIND.name, description: 'What people call it' },
    label: { example: FIRST_KIND.label, description: 'The formats it reads' },
    verbs: { example: FIRST_KIND.verbs, description: 'The verbs its operations use (`method`), in the order people expect them' },
    parts: { description: "What an operation's parts are called in this kind" },
    fileExtensions: { example: FIRST_KIND.fileExtensions, description: "Endings of its documents' file names" },
  } satisfies Notes<S.ApiKindInfoDoc>,
  ApiKindsResponseDoc: {
    items: { description: 'Every kind this platform reads, in the order it tries them on a spec whose format is not named' },
  } satisfies Notes<S.ApiKindsResponseDoc>,
  AuthInfoDoc: { devLogin: { description: 'Whether POST /auth/dev-token gives this caller a token (development only)' } } satisfies Notes<S.AuthInfoDoc>,
};
