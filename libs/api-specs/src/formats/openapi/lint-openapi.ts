import type { LintFinding } from '#contracts';
import { spectralFindings } from '../../lint/spectral-lint.js';
import { HTTP_METHODS } from './operations.js';
import type { OpenApiDocument } from './read-openapi.js';

const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);

/** Spectral's `oas` ruleset (its recommended rules), for Swagger 2.0 and OpenAPI 3.x, on the document as written. */
export function lintOpenApi({ document }: OpenApiDocument): Promise<LintFinding[]> {
  return spectralFindings(document, 'oas', operationAt);
}

/** `GET /pets/{id}` for a path inside `paths./pets/{id}.get`, as the overview lists it. */
function operationAt([root, path, method]: string[]): string | undefined {
  return root === 'paths' && path !== undefined && method !== undefined && METHODS.has(method) ? `${method.toUpperCase()} ${path}` : undefined;
}
