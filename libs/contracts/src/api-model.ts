/**
 * The format-neutral model every spec format is read into (see `SpecFormat` in libs/api-specs):
 * chunking, embedding, storage, search and every client consume this, never a format's own
 * document. An operation is a kind-specific verb and address:
 *
 * | kind     | method (verb)                                  | path (address)                         |
 * |----------|------------------------------------------------|----------------------------------------|
 * | openapi  | `GET`, `POST`…                                 | `/users/{id}`                          |
 * | asyncapi | `PUBLISH`/`SUBSCRIBE` (2.x), `SEND`/`RECEIVE` (3.0) | the channel: `user/signedup`      |
 * | graphql  | `QUERY`, `MUTATION`, `SUBSCRIPTION`            | the field: `createIssue`               |
 * | grpc     | `RPC`                                          | `payments.v1.PaymentService/Refund`    |
 */
export interface ApiModel {
  /** The plugin that read it (`openapi`, `asyncapi`, `graphql`, `grpc`): what cards and `kinds` filters say. */
  kind: string;
  /** The document's own format and version, for people: `OpenAPI 3.0.3`, `AsyncAPI 2.6.0`, `GraphQL SDL`, `proto3`. */
  format: string;
  title?: string;
  version?: string;
  /** Plain text (no HTML or Markdown). */
  description?: string;
  /** Base URLs or broker addresses, at most a few. */
  servers: string[];
  /** How callers authenticate: scheme names and types (`apiKey`, `oauth2`, `mutualTLS`…). */
  securitySchemes: { name: string; type?: string }[];
  tags: { name: string; description?: string }[];
  /** In document order. */
  operations: ApiModelOperation[];
  /** Named schemas (message types, object types, components), in document order. */
  schemas: ApiModelSchema[];
}

export interface ApiModelOperation {
  /** Upper case verb: see the table on `ApiModel`. */
  method: string;
  /** The address the verb applies to. */
  path: string;
  operationId?: string;
  /**
   * The name the kind calls the operation by, where that name is what the operation does: an RPC
   * method (`AddSecretVersion`), a GraphQL field, an MCP tool, an AsyncAPI operation's id. Its
   * words are indexed (`chunkApi`); REST has none (an operationId there is often generated).
   */
  name?: string;
  /** The document's own one-line summary, if it has one (plain text). */
  summary?: string;
  /** Plain text. */
  description?: string;
  tags: string[];
  deprecated?: boolean;
  /** Named inputs: parameters (`in` is `path`, `query`…), arguments (`argument`), message headers (`header`). */
  inputs: { name: string; in: string; description?: string }[];
  /** Field names of what is sent: a request body, a message payload, an input message or type. */
  body?: { label: string; fields: string[] };
  /** What comes back, one line each: `200 The pet fields id, name`, `returns Issue fields id, title`. */
  outputs?: { label: string; lines: string[] };
}

export interface ApiModelSchema {
  name: string;
  description?: string;
  /** Its fields (properties, message fields, type fields, enum values) in order. */
  fields: { name: string; description?: string }[];
}
