import { isObject } from '../../is-object.js';
import { SpecError } from '../../spec-error.js';
import { assertSafeSpec, SPEC_LIMITS } from '../../spec-limits.js';
import type { SpecSource } from '../spec-source.js';
import { type AsyncApiDocument, operationCount } from './asyncapi-operations.js';

export type { AsyncApiDocument };

/** AsyncAPI 2.0 to 2.6 and 3.0: what @asyncapi/parser validates and this plugin reads. */
const SUPPORTED = /^(2\.[0-6]|3\.0)\.\d+$/;

/** The major version of a document `readAsyncApi` accepted. */
export function majorVersion(document: AsyncApiDocument): 2 | 3 {
  return String(document.asyncapi).startsWith('3.') ? 3 : 2;
}

/**
 * The structural checks that need no parser (cheap, synchronous: used at registration): an object
 * with a supported `asyncapi` version, `info` with a title and version, `channels`, `operations`
 * and `components` objects where present, within SPEC_LIMITS (checked by the source before this
 * sees the document), and no external `$ref` inside vendor extensions either, which
 * @asyncapi/parser would resolve (the source lets them through). The full validation against the
 * AsyncAPI schemas (`validateAsyncApi`) is asynchronous and runs when the spec is indexed.
 */
export function readAsyncApi(source: SpecSource): AsyncApiDocument {
  const document = source.parsed();
  if (!isObject(document)) throw new SpecError('The spec must be a JSON or YAML object (an AsyncAPI document)');
  const version = document.asyncapi;
  if (version === undefined) throw new SpecError('Not an AsyncAPI document: it has no "asyncapi" field');
  if (typeof version !== 'string' || !SUPPORTED.test(version)) {
    const hint = typeof version === 'number' ? ` (write it as a string: asyncapi: "${version.toFixed(1)}.0"?)` : '';
    throw new SpecError(`Unsupported AsyncAPI version "${String(version).slice(0, 50)}" (supported: 2.0.x to 2.6.x, 3.0.x)${hint}`);
  }
  assertSafeSpec(document, { extensionRefsResolved: true });
  if (!isObject(document.info)) throw new SpecError('The AsyncAPI document is not valid: it has no "info" object');
  for (const field of ['title', 'version'] as const) {
    if (typeof document.info[field] !== 'string') throw new SpecError(`The AsyncAPI document is not valid: info.${field} must be a string`);
  }
  const major = majorVersion(document);
  if (major === 2 && !isObject(document.channels))
    throw new SpecError('The AsyncAPI document is not valid: "channels" must be an object (required in AsyncAPI 2.x)');
  for (const field of ['channels', 'operations', 'components', 'servers'] as const) {
    if (document[field] !== undefined && !isObject(document[field])) throw new SpecError(`The AsyncAPI document is not valid: "${field}" must be an object`);
  }
  if (major === 2 && document.operations !== undefined)
    throw new SpecError('The AsyncAPI document is not valid: AsyncAPI 2.x has no "operations" (operations are the channels\' publish and subscribe)');
  const operations = operationCount(document);
  if (operations > SPEC_LIMITS.maxOperations) {
    throw new SpecError(`The spec has ${operations} operations; the limit is ${SPEC_LIMITS.maxOperations}: split it into several APIs`);
  }
  return document;
}
