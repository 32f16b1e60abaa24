import { headline } from '../../chunk-api.js';
import { cleanText } from '../../clean-text.js';
import type { ApiEndpoint } from '#contracts';
import { isObject } from '../../is-object.js';

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

/** An operation's one-line summary (see `headline`). */
export function operationSummary(operation: Record<string, unknown>): string {
  return headline({ summary: cleanText(operation.summary), description: cleanText(operation.description) });
}

/** What a catalogue shows of each operation; no `$ref` resolution needed. */
export function listOperations(document: SpecDocument): ApiEndpoint[] {
  return operationEntries(document).map(({ method, path, operation }) => {
    const summary = operationSummary(operation);
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
