/**
 * What one kind of API is, as its format plugin says it: the one place that names a kind. The web
 * UI, the MCP tools, validation and docs read this (`GET /api-management/kinds`) rather than a list
 * of their own, so a new format plugin needs no change anywhere else.
 */
export interface ApiKindInfo {
  /** The API's `kind` on records, cards and in `kinds` filters, and `format` in a registration: `openapi`. */
  readonly kind: string;
  /** What people call it, on badges and in filters: `OpenAPI`, `gRPC`. */
  readonly name: string;
  /** The formats it reads, for docs and errors: `OpenAPI 2.0, 3.0 and 3.1`. */
  readonly label: string;
  /** The verbs its operations use, in the order people expect them: `GET`, `POST`…; `QUERY`, `MUTATION`. */
  readonly verbs: readonly string[];
  /** What an operation's parts are called in this kind. */
  readonly parts: OperationPartNames;
  /** Endings of its documents' file names, for file pickers: `.graphql`, `.proto`. */
  readonly fileExtensions: readonly string[];
}

/** An HTTP request's body is a gRPC request message or an AsyncAPI message. */
export interface OperationPartNames {
  /** Named inputs: `Parameters`, `Arguments`. */
  readonly inputs: string;
  /** What is sent: `Request body`, `Message`, `Request`. */
  readonly body: string;
  /** What comes back: `Responses`, `Returns`, `Reply`. */
  readonly responses: string;
}

/** `GET /api-management/kinds` */
export interface ApiKindsResponse {
  items: ApiKindInfo[];
}
