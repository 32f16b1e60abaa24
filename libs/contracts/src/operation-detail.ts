import type { ApiModelOperation } from './api-model.js';
import type { ApiEndpoint } from './api-record.js';

/**
 * A schema as the spec wrote it, with every internal `$ref` replaced by what it points at
 * (inside it, `true` and `false` stay the boolean schemas they are). Two markers stand in for
 * what is left out, only ever where a schema stands: `{ "$circular": "#/components/schemas/Node" }`
 * where a schema contains itself, and `"$truncated": "…why…"` where the operation's schemas
 * passed OPERATION_DETAIL_MAX_CHARS (or nested too deep). A cut schema object keeps what fit
 * beside its `$truncated` key (`{ "type": "object", "properties": {…}, "$truncated": "…" }`),
 * and so does each object it is inside; a schema cut before any of it fit is `{ "$truncated": "…" }`
 * alone. Never a key of `properties` (or any map of schemas), never in place of a description,
 * enum or example: those are left out past the cut, a long text cut short with '…'. Past a few
 * whole cut schemas, the parameters, bodies and responses after them have no `schema`.
 */
export type JsonSchema = Record<string, unknown>;

export const SCHEMA_MARKERS = { circular: '$circular', truncated: '$truncated' } as const;

/** Where a parameter goes; Swagger 2.0 `body` and `formData` parameters become the request body. */
export const PARAMETER_LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;
export type ParameterLocation = (typeof PARAMETER_LOCATIONS)[number];
/** Where an input goes: an HTTP location, or a GraphQL field's `argument`. */
export type InputLocation = ParameterLocation | 'argument';

/** A base URL, possibly a template (`https://{region}.example.com/v1`) with its variables. */
export interface ServerInfo {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

export interface OAuthFlowInfo {
  /** `implicit`, `password`, `clientCredentials` or `authorizationCode` (Swagger 2.0 names mapped to these). */
  flow: string;
  authorizationUrl?: string;
  tokenUrl?: string;
  refreshUrl?: string;
  scopes: { name: string; description?: string }[];
}

/** How a caller authenticates: what the spec declares about a scheme, never a credential. */
export interface SecuritySchemeInfo {
  /** The key that security requirements name. */
  name: string;
  /** `apiKey`, `http`, `oauth2`, `openIdConnect` or `mutualTLS` (Swagger 2.0 `basic` is `http` + `basic`). */
  type: string;
  description?: string;
  /** apiKey: `header`, `query` or `cookie`, and the name of that header, parameter or cookie. */
  in?: string;
  parameterName?: string;
  /** http: `basic`, `bearer`… */
  scheme?: string;
  bearerFormat?: string;
  flows?: OAuthFlowInfo[];
  openIdConnectUrl?: string;
}

/** One way to be let in: every scheme listed applies together; an empty list means no credentials are needed. */
export type SecurityRequirement = { scheme: string; scopes: string[] }[];

export interface OperationParameter {
  name: string;
  in: InputLocation;
  required: boolean;
  description?: string;
  deprecated?: boolean;
  schema?: JsonSchema;
}

export interface MediaTypeSchema {
  mediaType: string;
  schema?: JsonSchema;
}

export interface OperationRequestBody {
  required: boolean;
  description?: string;
  content: MediaTypeSchema[];
}

export interface OperationResponse {
  /** `200`, `4XX`, `default`… */
  status: string;
  description?: string;
  content: MediaTypeSchema[];
}

/** One operation in full, as its live indexed spec declares it: named as the model names it, with its parts in full. */
export interface OperationDetail extends Pick<ApiModelOperation, 'method' | 'path' | 'operationId' | 'summary' | 'description' | 'tags' | 'deprecated'> {
  /** Path-level parameters merged in (the operation's own win on the same name and location). */
  parameters: OperationParameter[];
  requestBody?: OperationRequestBody;
  responses: OperationResponse[];
  /** Any one of these lets a caller in; empty when the spec declares none. */
  security: SecurityRequirement[];
  /** Some schema was cut at OPERATION_DETAIL_MAX_CHARS (see `$truncated`). */
  truncated?: boolean;
  /** What the answer's size limit (ANSWER_MAX_CHARS) cut, in words: `parameters: 200 of 10,000 items`. */
  cuts?: string[];
}

/** An API at a glance, from its live indexed spec: how to reach it and what it offers. */
export interface ApiOverview {
  /** Which kind of API (`openapi`, `asyncapi`, `graphql`, `grpc`): how to read its operations' method and path. */
  kind: string;
  /** The document's own format and version: `OpenAPI 3.0.3`, `AsyncAPI 2.6.0`, `GraphQL SDL`, `proto3`. */
  format: string;
  /** The spec's own description, as plain text. */
  description?: string;
  servers: ServerInfo[];
  securitySchemes: SecuritySchemeInfo[];
  /** What every operation requires unless it says otherwise. */
  security: SecurityRequirement[];
  operations: ApiEndpoint[];
  /** What the answer's size limit (ANSWER_MAX_CHARS) cut, in words: `servers[0].url: 10,000 of 2,097,152 characters`. */
  cuts?: string[];
}

/** `GET /api-management/apis/:apiId/operations` */
export interface ApiOperationsResponse extends ApiOverview {
  apiId: string;
  /** The indexed revision these details come from (the registry's may be newer, still queued); with `version`, that version's revision. */
  revision: number;
  /** The version `?version=` named, when it is not the one search holds: its registered spec's details. */
  version?: string;
}

/** `GET /api-management/apis/:apiId/operations/detail?operationId=…` (or `?method=…&path=…`) */
export interface ApiOperationDetailResponse extends OperationDetail {
  apiId: string;
  revision: number;
  /** As `ApiOperationsResponse.version`. */
  version?: string;
}

/** Which operation: by `operationId`, or by `method` and `path` together. */
export interface OperationSelector {
  operationId?: string;
  method?: string;
  path?: string;
}
