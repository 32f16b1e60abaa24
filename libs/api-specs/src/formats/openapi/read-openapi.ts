import { isObject } from '../../is-object.js';
import { SPEC_LIMITS } from '../../spec-limits.js';
import { SpecError } from '../../spec-error.js';
import { SpecSource } from '../spec-source.js';
import { operationEntries } from './operations.js';

export type SpecFlavor = 'swagger-2.0' | 'openapi-3.0' | 'openapi-3.1';

export type SpecDocument = Record<string, unknown>;

/**
 * Parses JSON or YAML text (or takes an object), checks that it is a Swagger 2.0 or OpenAPI 3.x
 * document within the limits a worker can handle (`SPEC_LIMITS`). Cheap enough to run in a request handler.
 */
export function readSpecDocument(input: string | Record<string, unknown> | SpecSource): OpenApiDocument {
  const source = input instanceof SpecSource ? input : new SpecSource(input);
  const document = source.parsed();
  if (!isObject(document)) throw new SpecError('The spec must be a JSON or YAML object (an OpenAPI document)');
  // `parsed()` has checked it against SPEC_LIMITS (aliases, depth, external $refs).
  const flavor = detectFlavor(document);
  const operations = operationEntries(document).length;
  if (operations > SPEC_LIMITS.maxOperations) {
    throw new SpecError(`The spec has ${operations} operations; the limit is ${SPEC_LIMITS.maxOperations}: split it into several APIs`);
  }
  return { document, flavor };
}

/** What the OpenAPI format reads: the document as written (its `$ref`s unresolved) and its version. */
export interface OpenApiDocument {
  document: SpecDocument;
  flavor: SpecFlavor;
}

function detectFlavor(doc: SpecDocument): SpecFlavor {
  let flavor: SpecFlavor;
  if (doc.swagger !== undefined) {
    if (String(doc.swagger) !== '2.0')
      throw new SpecError(`Unsupported Swagger version "${String(doc.swagger)}" (only 2.0)${unquoted(doc.swagger, 'swagger: "2.0"')}`);
    flavor = 'swagger-2.0';
  } else if (typeof doc.openapi === 'string' && /^3\.0\.\d+/.test(doc.openapi)) {
    flavor = 'openapi-3.0';
  } else if (typeof doc.openapi === 'string' && /^3\.1\.\d+/.test(doc.openapi)) {
    flavor = 'openapi-3.1';
  } else if (doc.openapi !== undefined) {
    throw new SpecError(`Unsupported OpenAPI version "${String(doc.openapi)}" (supported: 3.0.x, 3.1.x)${unquoted(doc.openapi, 'openapi: "3.0.3"')}`);
  } else {
    throw new SpecError('Not an OpenAPI document: it has neither an "openapi" nor a "swagger" field');
  }
  // info.title is not required: the registry names every API itself.
  if (!isObject(doc.info)) throw new SpecError('The spec has no "info" object');
  const hasPaths = isObject(doc.paths);
  if (doc.paths !== undefined && !hasPaths) throw new SpecError('"paths" must be an object');
  if (!hasPaths && !(flavor === 'openapi-3.1' && (isObject(doc.webhooks) || isObject(doc.components)))) {
    throw new SpecError('The spec has no "paths" object');
  }
  return flavor;
}

/** YAML reads an unquoted `2.0` as the number 2: say so, or "version 2" puzzles whoever wrote "2.0". */
function unquoted(version: unknown, example: string): string {
  return typeof version === 'number' ? `: the version is a number, not text; in YAML quote it, e.g. ${example}` : '';
}
