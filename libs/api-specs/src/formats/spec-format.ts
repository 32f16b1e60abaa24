import type { ApiKindInfo, ApiModel, ApiOverview, LintFinding, OperationDetail, OperationSelector } from '#contracts';
import type { SpecSource } from './spec-source.js';

/**
 * A spec format as a plugin: it recognises its documents, checks them, and reads them into the
 * format-neutral `ApiModel` that indexing and search consume, plus the overview and operation
 * details that the detail routes show. Every method runs on a spec thread (`SpecThreads`), never
 * on a thread that answers requests, and must keep to the same safety limits as OpenAPI: no
 * file or network access (a spec is untrusted input), bounded nesting and size (`SPEC_LIMITS`),
 * and a `SpecError` with a reason its publisher can act on for anything it refuses.
 *
 * A format is a Nest provider listed in `SpecFormatsModule` (collected through `SPEC_FORMATS`),
 * and its module's default export is its class: spec threads run outside Nest and load it by
 * `moduleUrl`.
 */
export interface SpecFormat<Document = unknown> extends ApiKindInfo {
  /** What a document of this format has that others lack, for the "not recognised" error: `an "openapi" or "swagger" field`. */
  readonly signature: string;
  /** This plugin's module (`import.meta.url`), which spec threads import. */
  readonly moduleUrl: string;
  /** Whether the source looks like this format (cheap; no validation). Formats are asked in `SpecFormatsModule` order. */
  detect(source: SpecSource): boolean;
  /** For a format written in JSON or YAML: the field by which a file says it is one, valid or not. */
  readonly marker?: SpecMarker;
  /** Parses and checks within `SPEC_LIMITS`, throwing a `SpecError` that names the problem (a 422). Used at registration. */
  read(source: SpecSource): ReadSpec<Document>;
  /** Everything indexing needs (may dereference: the slow part). */
  model(spec: ReadSpec<Document>): Promise<ApiModel> | ApiModel;
  /** Description, servers, security and the operation list, for the detail page and `GET …/endpoints`. */
  overview(spec: ReadSpec<Document>): ApiOverview;
  /** One operation in full, its schemas expanded within `maxChars` (OPERATION_DETAIL_MAX_CHARS) and cut with `$truncated` past it. */
  operation(spec: ReadSpec<Document>, selector: OperationSelector, maxChars: number): OperationDetail | undefined;
  /**
   * How to call one operation, as a developer would type it (a curl command, a GraphQL request,
   * a grpcurl command, a message to publish), its values built from the operation's schemas.
   */
  callExample(api: ApiOverview, operation: OperationDetail): string;
  /**
   * What a reviewer would point out in the spec (missing descriptions, unused types, rule
   * violations), each finding with where it is and the operation it concerns. Runs on a spec
   * thread, on the document `read` returned: it never fetches or reads anything a `$ref` names.
   */
  lint(spec: ReadSpec<Document>): Promise<LintFinding[]> | LintFinding[];
  /** How a registered text of this format is served back to view or download. */
  fileType(text: string): SpecFileType;
  /** The name and version the document gives itself (`info.title`, `info.version`), for an import that names neither; absent where a format has none. */
  info?(spec: ReadSpec<Document>): { title?: unknown; version?: unknown } | undefined;
  /** How a change report rates this kind's changes where its callers differ from HTTP's; absent, as HTTP. */
  readonly changeRules?: ChangeRules;
}

/**
 * How a JSON or YAML file says it is a spec, valid or not: the folder import sends such a file, so
 * that one too large or too broken to read fails rather than being skipped like `package.json`.
 */
export interface SpecMarker {
  /** Whether a parsed document carries the marker. */
  in(document: Record<string, unknown>): boolean;
  /** The marker in text that is not parsed: the start of a file over the size limit, or a file that does not parse. */
  readonly text: RegExp;
}

/** What a kind's callers feel of a change (`changeReportOf`), where it is not what an HTTP caller feels. */
export interface ChangeRules {
  /** An input the schema no longer has is refused, not ignored (GraphQL validates every query against its schema). */
  readonly strictInputs?: boolean;
  /** The verbs whose body the API sends and its callers receive (AsyncAPI's 2.x `subscribe`, 3.0 `send`); others' bodies callers send. */
  readonly receivedBodyVerbs?: readonly string[];
}

/** A spec text's file type: `{ extension: 'yaml', mediaType: 'application/yaml' }`. */
export interface SpecFileType {
  extension: string;
  mediaType: string;
}

/** A document a format has read and checked. */
export interface ReadSpec<Document = unknown> {
  kind: string;
  /** As `ApiModel.format`: `OpenAPI 3.0.3`. */
  format: string;
  /** Plain data (objects, arrays, strings, numbers): it crosses from a spec thread to the app by structured clone. */
  document: Document;
}
