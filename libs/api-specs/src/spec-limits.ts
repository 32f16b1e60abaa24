import { isObject } from './is-object.js';
import { SpecError } from './spec-error.js';

/**
 * What a spec may hold, so that one hostile document cannot exhaust a worker: the size limit
 * (SPEC_MAX_BYTES) bounds the text, these bound what the text expands to once parsed.
 */
export const SPEC_LIMITS = {
  /** Values after parsing, counting every use of a YAML alias (a "billion laughs" stops here). */
  maxValues: 1_000_000,
  /**
   * Characters after parsing, about as `JSON.stringify` would write them: every string value and
   * key counted at every use, so each use of a YAML alias counts again. `maxValues` misses an
   * alias bomb made of few but long values: 17 kB of YAML that reuses one 16 kB string 65,536
   * times is 70,000 values but 1 GiB of text, which @asyncapi/parser tried to write out (850 MB,
   * then "Invalid string length"). A JSON spec is about as long parsed as written (at most
   * SPEC_MAX_BYTES, 10 MiB by default), and a real YAML one that reuses its anchors (shared
   * responses, parameters, schemas) a few times that at most: five times the default size limit
   * leaves a real spec room, and stops a bomb after counting 50 MB of its expansion (never built).
   */
  maxCharacters: 50_000_000,
  /** Nesting of objects and arrays. */
  maxDepth: 200,
  /** Operations of one API, in any format. */
  maxOperations: 5000,
} as const;

export interface SafeSpecOptions {
  /**
   * The format's parser resolves `$ref`s inside vendor extensions (`x-…`) too, as @asyncapi/parser
   * does: an external one there is refused as anywhere else. Otherwise extensions are never
   * resolved (swagger-parser skips them), and a `$ref` there is left alone: real specs have them
   * (RestBench's Spotify spec: `components.x-spotify-policy: {$ref: ../policies.yaml}`).
   */
  extensionRefsResolved?: boolean;
}

/**
 * Walks the parsed document once (iteratively: no recursion to overflow) and refuses what no
 * worker should process: endless alias expansion (in values or in characters), absurd nesting,
 * NUL characters, `$ref`s that point outside the document (files, URLs such as cloud metadata
 * endpoints; inside vendor extensions only where `extensionRefsResolved`). `SpecSource` runs it on
 * every JSON or YAML value it parses, before any format, parser or `JSON.stringify` sees the
 * value; each format also bounds its own operations (`maxOperations`).
 */
export function assertSafeSpec(document: unknown, { extensionRefsResolved = false }: SafeSpecOptions = {}): void {
  let values = 0;
  let characters = 0;
  const stack: [value: unknown, depth: number, inExtension: boolean][] = [[document, 0, false]];
  while (stack.length > 0) {
    const [value, depth, inExtension] = stack.pop()!;
    if (++values > SPEC_LIMITS.maxValues) {
      throw new SpecError(`The spec expands to more than ${SPEC_LIMITS.maxValues.toLocaleString('en-US')} values (YAML aliases?)`);
    }
    if (depth > SPEC_LIMITS.maxDepth) throw new SpecError(`The spec is nested more than ${SPEC_LIMITS.maxDepth} levels deep`);
    characters += jsonCharacters(value);
    if (characters > SPEC_LIMITS.maxCharacters) {
      throw new SpecError(`The spec expands to more than ${SPEC_LIMITS.maxCharacters.toLocaleString('en-US')} characters (YAML aliases?)`);
    }
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw new SpecError('The spec contains NUL characters');
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1, inExtension]);
    } else if (isObject(value)) {
      const resolved = !inExtension || extensionRefsResolved;
      if (resolved && value.$ref !== undefined && (typeof value.$ref !== 'string' || !value.$ref.startsWith('#'))) {
        throw new SpecError(`External $ref "${String(value.$ref).slice(0, 200)}" is not allowed: bundle the spec into one document`);
      }
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) throw new SpecError('The spec contains NUL characters');
        stack.push([child, depth + 1, inExtension || key.startsWith('x-')]);
      }
    }
  }
}

/**
 * What a value adds to its JSON text, its children apart: a string or key with its quotes (escapes
 * not counted), a number or literal as written, an object's or array's brackets and commas.
 */
function jsonCharacters(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (Array.isArray(value)) return 2 + Math.max(0, value.length - 1);
  if (isObject(value)) {
    let characters = 1;
    // `"key":` and a comma or the closing brace for each member.
    for (const key of Object.keys(value)) characters += key.length + 4;
    return Math.max(2, characters);
  }
  return 4;
}
