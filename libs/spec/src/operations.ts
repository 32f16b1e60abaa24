import { cleanText } from './clean-text.js';
import type { ApiEndpoint } from '#contracts';
import { isObject } from './is-object.js';

type SpecDocument = Record<string, unknown>;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationEntry {
  /** Upper case: `GET`, `POST`… */
  method: string;
  path: string;
  operation: Record<string, unknown>;
  /** Parameters declared on the path item, shared by its operations. */
  sharedParameters: unknown[];
}

/** Every operation of a document's `paths`, in document order. */
export function operationEntries(document: SpecDocument): OperationEntry[] {
  const paths = isObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([path, item]) => {
    if (!isObject(item)) return [];
    const sharedParameters = Array.isArray(item.parameters) ? item.parameters : [];
    return HTTP_METHODS.filter((method) => isObject(item[method])).map((method) => ({
      method: method.toUpperCase(),
      path,
      operation: item[method] as Record<string, unknown>,
      sharedParameters,
    }));
  });
}

export function operationTags(operation: Record<string, unknown>): string[] {
  return Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : [];
}


/** What a catalogue shows of each operation; no `$ref` resolution needed. */
export function listOperations(document: SpecDocument): ApiEndpoint[] {
  return operationEntries(document).map(({ method, path, operation }) => {
    const summary = cleanText(operation.summary) || cleanText(operation.description).slice(0, 200);
    return {
      method,
      path,
      ...(summary ? { summary } : {}),
      ...(typeof operation.operationId === 'string' ? { operationId: operation.operationId } : {}),
      tags: operationTags(operation),
      ...(operation.deprecated === true ? { deprecated: true } : {}),
    };
  });
}
