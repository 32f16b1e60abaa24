import type { ApiModel, ApiOverview, LintFinding, OperationDetail, OperationSelector } from '#contracts';
import type { ReadSpec, SpecFileType, SpecFormat, SpecMarker } from '../spec-format.js';
import { type SpecSource, structuredFileType } from '../spec-source.js';
import { curlExample } from './call-example.js';
import { dereference } from './dereference.js';
import { lintOpenApi } from './lint-openapi.js';
import { openApiModel } from './openapi-model.js';
import { apiOverview, findOperation, operationDetail } from './operation-detail.js';
import { type OpenApiDocument, readSpecDocument } from './read-openapi.js';

/** OpenAPI 3.0 and 3.1, and Swagger 2.0: internal `$ref`s only, read with swagger-parser. */
export class OpenApiFormat implements SpecFormat<OpenApiDocument> {
  readonly kind = 'openapi';
  readonly name = 'OpenAPI';
  readonly label = 'OpenAPI 2.0, 3.0 and 3.1';
  // The ones people filter by; HEAD, OPTIONS and TRACE operations are rare.
  readonly verbs = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  readonly parts = { inputs: 'Parameters', body: 'Request body', responses: 'Responses' };
  readonly fileExtensions = ['.json', '.yaml', '.yml'];
  readonly signature = 'an OpenAPI document (an "openapi" or "swagger" field)';
  readonly moduleUrl = import.meta.url;
  readonly marker: SpecMarker = {
    in: (document) => document.openapi !== undefined || document.swagger !== undefined,
    text: /^\s*["']?(openapi|swagger)["']?\s*:/m,
  };

  detect(source: SpecSource): boolean {
    const document = source.object();
    return document !== undefined && this.marker.in(document);
  }

  read(source: SpecSource): ReadSpec<OpenApiDocument> {
    const document = readSpecDocument(source);
    const { swagger, openapi } = document.document;
    return { kind: this.kind, format: document.flavor === 'swagger-2.0' ? `Swagger ${String(swagger)}` : `OpenAPI ${String(openapi)}`, document };
  }

  info(spec: ReadSpec<OpenApiDocument>) {
    const { info } = spec.document.document;
    return typeof info === 'object' && info !== null ? (info as { title?: unknown; version?: unknown }) : undefined;
  }

  async model(spec: ReadSpec<OpenApiDocument>): Promise<ApiModel> {
    return openApiModel(await dereference(spec.document));
  }

  overview(spec: ReadSpec<OpenApiDocument>): ApiOverview {
    return { kind: this.kind, format: spec.format, ...apiOverview(spec.document.document, spec.document.flavor) };
  }

  operation(spec: ReadSpec<OpenApiDocument>, selector: OperationSelector, maxChars: number): OperationDetail | undefined {
    const { document, flavor } = spec.document;
    const entry = findOperation(document, selector);
    return entry && operationDetail(document, flavor, entry, maxChars);
  }

  callExample(api: ApiOverview, operation: OperationDetail): string {
    return curlExample(api, operation);
  }

  lint(spec: ReadSpec<OpenApiDocument>): Promise<LintFinding[]> {
    return lintOpenApi(spec.document);
  }

  fileType(text: string): SpecFileType {
    return structuredFileType(text);
  }
}

export default OpenApiFormat;
