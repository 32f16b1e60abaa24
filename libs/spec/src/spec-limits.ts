import { isObject } from './is-object.js';
import { SpecError } from './spec-error.js';

/**
 * What a spec may hold, so that one hostile document cannot exhaust a worker: the size limit
 * (SPEC_MAX_BYTES) bounds the text, these bound what the text expands to once parsed.
 */
export const SPEC_LIMITS = {
  /** Values after parsing, counting every use of a YAML alias (a "billion laughs" stops here). */
  maxValues: 1_000_000,
  /** Nesting of objects and arrays. */
  maxDepth: 200,
  /** Operations of one API, in any format. */
  maxOperations: 5000,
} as const;

/**
 * Walks the parsed document once (iteratively: no recursion to overflow) and refuses what no
 * worker should process: endless alias expansion, absurd nesting, NUL characters, `$ref`s that
 * point outside the document (files, URLs such as cloud metadata endpoints). For any JSON or YAML
 * format; each format also bounds its own operations (`maxOperations`).
 */
export function assertSafeSpec(document: Record<string, unknown>): void {
  let values = 0;
  const stack: [value: unknown, depth: number, inExtension: boolean][] = [[document, 0, false]];
  while (stack.length > 0) {
    const [value, depth, inExtension] = stack.pop()!;
    if (++values > SPEC_LIMITS.maxValues) {
      throw new SpecError(`The spec expands to more than ${SPEC_LIMITS.maxValues.toLocaleString('en-US')} values (YAML aliases?)`);
    }
    if (depth > SPEC_LIMITS.maxDepth) throw new SpecError(`The spec is nested more than ${SPEC_LIMITS.maxDepth} levels deep`);
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw new SpecError('The spec contains NUL characters');
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1, inExtension]);
    } else if (isObject(value)) {
      // Vendor extensions (`x-…`) are never resolved, so their `$ref`s are harmless.
      if (!inExtension && value.$ref !== undefined && (typeof value.$ref !== 'string' || !value.$ref.startsWith('#'))) {
        throw new SpecError(`External $ref "${String(value.$ref).slice(0, 200)}" is not allowed: bundle the spec into one document`);
      }
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) throw new SpecError('The spec contains NUL characters');
        stack.push([child, depth + 1, inExtension || key.startsWith('x-')]);
      }
    }
  }
}
