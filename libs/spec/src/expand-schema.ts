import { type JsonSchema, SCHEMA_MARKERS } from '#contracts';
import { isObject } from './is-object.js';
/** A JSON or YAML document, whatever its format. */
type SpecDocument = Record<string, unknown>;

/**
 * Levels of nesting, each `$ref` followed counting as one, past which a schema is cut: no reader
 * follows it that far, and the walk recurses (a chain of `$ref`s to `$ref`s has no other end).
 */
export const MAX_SCHEMA_DEPTH = 100;
/** `$ref`s to `$ref`s followed for a parameter, response or body before giving up. */
const MAX_REF_HOPS = 32;

/**
 * What one operation's schemas may take once expanded, shared by all of them: a schema that
 * refers to large ones many times grows far beyond its own text.
 */
export class SchemaBudget {
  private used = 0;
  /** Something was cut. */
  truncated = false;

  constructor(readonly maxChars: number) {}

  /** Counts `chars` more (about what they take as JSON); false once the budget is spent. */
  spend(chars: number): boolean {
    this.used += chars;
    return this.used <= this.maxChars;
  }

  get spent(): boolean {
    return this.used > this.maxChars;
  }

  /** Why the rest is left out, as the `$truncated` marker says it. */
  cutNote(reason = `this operation's schemas pass ${this.maxChars} characters (OPERATION_DETAIL_MAX_CHARS)`): string {
    this.truncated = true;
    return `Cut here: ${reason}`;
  }

  cut(reason?: string): JsonSchema {
    return { [SCHEMA_MARKERS.truncated]: this.cutNote(reason) };
  }
}

/** The value a local `$ref` (`#/components/schemas/Pet`) points at, or undefined. `$anchor` names are not followed. */
export function resolvePointer(document: SpecDocument, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return document;
  if (!fragment.startsWith('/')) return undefined;
  let node: unknown = document;
  for (const token of fragment.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * A parameter, response or request body with its `$ref` followed (the keys beside a `$ref`
 * win, as in OpenAPI 3.1); undefined when it leads nowhere or in a loop.
 */
export function followRef(document: SpecDocument, value: unknown): Record<string, unknown> | undefined {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops === MAX_REF_HOPS) return undefined;
    const { $ref, ...siblings } = current;
    const target = resolvePointer(document, $ref);
    current = isObject(target) ? { ...target, ...siblings } : target;
  }
  return isObject(current) ? current : undefined;
}

/**
 * A schema with its `$ref`s replaced by what they point at, within `budget`: a schema met again
 * inside itself becomes `{ "$circular": ref }`, and what comes once the budget is spent (or
 * deeper than MAX_SCHEMA_DEPTH) one `"$truncated": reason`. Vendor extensions are left out.
 */
export function expandSchema(document: SpecDocument, schema: unknown, budget: SchemaBudget): JsonSchema {
  if (budget.spent) return budget.cut();
  const expanded = expand(document, schema, budget, [], 0);
  return isObject(expanded) ? expanded : { const: expanded };
}

function expand(document: SpecDocument, value: unknown, budget: SchemaBudget, refs: string[], depth: number): unknown {
  if (depth > MAX_SCHEMA_DEPTH) return budget.cut(`the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
  if (Array.isArray(value)) {
    budget.spend(2);
    const items: unknown[] = [];
    for (const item of value) {
      if (budget.spent) {
        items.push(budget.cut());
        break;
      }
      items.push(expand(document, item, budget, refs, depth + 1));
    }
    return items;
  }
  if (!isObject(value)) return budget.spend(JSON.stringify(value ?? null).length + 1) ? value : budget.cut();
  if (typeof value.$ref === 'string') {
    const ref = value.$ref;
    if (refs.includes(ref)) {
      budget.spend(ref.length + 16);
      return { [SCHEMA_MARKERS.circular]: ref };
    }
    const target = resolvePointer(document, ref);
    // Kept as written: it points at nothing in this document.
    if (target === undefined) return value;
    const { $ref, ...siblings } = value;
    return expand(document, isObject(target) ? { ...target, ...siblings } : target, budget, [...refs, ref], depth + 1);
  }
  budget.spend(2);
  const fields: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('x-')) continue;
    if (!budget.spend(key.length + 4)) {
      fields[SCHEMA_MARKERS.truncated] = budget.cutNote();
      break;
    }
    fields[key] = expand(document, child, budget, refs, depth + 1);
  }
  return fields;
}
