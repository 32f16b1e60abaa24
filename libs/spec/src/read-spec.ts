import yaml from 'js-yaml';
import { isObject } from './is-object.js';
import { assertSafeSpec } from './spec-limits.js';
import { SpecError } from './spec-error.js';

export type SpecFlavor = 'swagger-2.0' | 'openapi-3.0' | 'openapi-3.1';

export type SpecDocument = Record<string, unknown>;

/**
 * Parses JSON or YAML text (or takes an object), checks that it is a Swagger 2.0 or OpenAPI 3.x
 * document within the limits a worker can handle. Cheap enough to run in a request handler.
 */
export function readSpecDocument(input: unknown): { document: SpecDocument; flavor: SpecFlavor } {
  if (typeof input === 'string' && input.includes('\u0000')) throw new SpecError('The spec contains NUL characters');
  const document = typeof input === 'string' ? parseText(input) : input;
  if (!isObject(document)) throw new SpecError('The spec must be a JSON or YAML object (an OpenAPI document)');
  const flavor = detectFlavor(document);
  assertSafeSpec(document);
  return { document, flavor };
}

/** A spec text read as JSON (it must parse as JSON) rather than YAML: it opens with `{` or `[`. */
export function isJsonText(text: string): boolean {
  return /^\s*[{[]/.test(text);
}

function parseText(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) throw new SpecError('The spec is empty');
  if (isJsonText(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch (error) {
      throw new SpecError(`The spec is not valid JSON: ${tooDeep(error) ?? (error as Error).message}`);
    }
  }
  try {
    // JSON_SCHEMA: no custom tags, no dates turned into objects; `json` lets duplicate keys win last.
    return yaml.load(trimmed, { schema: yaml.JSON_SCHEMA, json: true });
  } catch (error) {
    const reason = error instanceof yaml.YAMLException ? error.message.split('\n')[0] : (tooDeep(error) ?? String(error));
    throw new SpecError(`The spec is neither valid JSON nor valid YAML: ${reason}`);
  }
}

function detectFlavor(doc: SpecDocument): SpecFlavor {
  let flavor: SpecFlavor;
  if (doc.swagger !== undefined) {
    if (String(doc.swagger) !== '2.0') throw new SpecError(`Unsupported Swagger version "${String(doc.swagger)}" (only 2.0)${unquoted(doc.swagger, 'swagger: "2.0"')}`);
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

/** The parsers recurse: absurd nesting ends in a stack overflow, which says nothing to a user. */
function tooDeep(error: unknown): string | undefined {
  return (error as Error)?.name === 'RangeError' ? 'it is nested too deeply' : undefined;
}
