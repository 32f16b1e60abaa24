import { type JsonSchema, SCHEMA_MARKERS } from '#contracts';
import { truncate } from '../../clean-text.js';
import { isObject } from '../../is-object.js';
/** A JSON or YAML document, whatever its format. */
type SpecDocument = Record<string, unknown>;

/**
 * Levels of nesting, each `$ref` followed counting as one, past which a schema is cut: no reader
 * follows it that far, and the walk recurses (a chain of `$ref`s to `$ref`s has no other end).
 */
export const MAX_SCHEMA_DEPTH = 100;
/** `$ref`s to `$ref`s followed for a parameter, response or body before giving up. */
const MAX_REF_HOPS = 32;

/** A schema where one may stand: an object, or `true`/`false` (OpenAPI 3.1, JSON Schema 2019+). */
export type Schema = JsonSchema | boolean;

/** Keys whose value is one schema (`items` holds a list of them in older drafts). */
const SCHEMA_KEYS = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
/** Keys whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keys whose value maps names (or patterns) to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Room a text needs to be worth cutting short rather than leaving out. */
const MIN_TEXT_CHARS = 40;
/** Whole schemas (a response's, a parameter's…) the budget ran out before that still get a marker; later ones are left out. */
const ROOT_MARKERS = 4;
/** What a boolean schema takes at most: `false` is `{"not":{}}` where an object must stand. */
const BOOLEAN_CHARS = 10;

/**
 * What one operation's schemas may take once expanded, shared by all of them (a schema that
 * refers to large ones many times grows far beyond its own text), counted as the JSON they make,
 * markers included: together they never pass `maxChars`. Once something does not fit, the budget
 * is spent: nothing more is written, and each schema object the walk was inside is closed with a
 * `$truncated` marker, whose room is kept while the object is open.
 */
export class SchemaBudget {
  private used = 0;
  /** Room kept for markers: of each schema object open on the path being written, and of ROOT_MARKERS whole schemas. */
  private reserved: number;
  private rootMarkers: number;
  private readonly note: string;
  /** What `"$truncated": note,` takes. */
  private readonly markerChars: number;
  /** Nothing more is written. */
  spent = false;
  /** Something was cut. */
  truncated = false;

  constructor(readonly maxChars: number) {
    this.note = `Cut here: this operation's schemas pass ${maxChars} characters (OPERATION_DETAIL_MAX_CHARS)`;
    this.markerChars = keyChars(SCHEMA_MARKERS.truncated) + jsonChars(this.note)!;
    // A quarter of the budget at most (the smallest one allowed, 1,000 characters, keeps two).
    this.rootMarkers = Math.min(ROOT_MARKERS, Math.floor(maxChars / 4 / (this.markerChars + 2)));
    this.reserved = this.rootMarkers * (this.markerChars + 2);
  }

  /** Counts `chars` more if they fit; else the budget is spent. */
  take(chars: number): boolean {
    if (!this.spent && this.used + this.reserved + chars <= this.maxChars) {
      this.used += chars;
      return true;
    }
    this.spent = true;
    this.truncated = true;
    return false;
  }

  /**
   * A parameter's, body's or response's schema as `write` makes it, `true` and `false` as the
   * objects that mean the same; one the budget ran out before is one marker (ROOT_MARKERS of
   * them), or left out.
   */
  root(write: () => Schema | undefined): JsonSchema | undefined {
    const schema = this.spent ? undefined : write();
    if (schema !== undefined) return typeof schema === 'boolean' ? (schema ? {} : { not: {} }) : schema;
    if (!this.spent || this.rootMarkers === 0) return undefined;
    this.rootMarkers--;
    this.reserved -= this.markerChars + 2;
    this.used += this.markerChars + 2;
    return this.marker(this.note);
  }

  /** A schema object whose keys `fill` writes, closed with a marker if the budget runs out inside it. */
  object(fill: (fields: SchemaFields) => void): JsonSchema | undefined {
    if (!this.take(2 + this.markerChars)) return undefined;
    this.used -= this.markerChars;
    this.reserved += this.markerChars;
    const fields = new SchemaFields(this);
    fill(fields);
    this.reserved -= this.markerChars;
    if (!this.spent) return fields.schema;
    this.used += this.markerChars;
    return { ...fields.schema, ...this.marker(this.note) };
  }

  /** A schema object of plain values only (`{ type: 'string', enum: […] }`, a `$circular` marker). */
  plain(values: JsonSchema): JsonSchema | undefined {
    return this.object((fields) => fields.values(values));
  }

  /** A whole schema left out for `reason` (nested too deep), if its marker fits. */
  cut(reason: string): JsonSchema | undefined {
    const marker = { [SCHEMA_MARKERS.truncated]: `Cut here: ${reason}` };
    return this.take(jsonChars(marker)!) ? this.marker(marker[SCHEMA_MARKERS.truncated]) : undefined;
  }

  /** `value` if it fits beside `overhead` chars; a text cut short with '…' to the room left. */
  fit(value: unknown, overhead: number): unknown {
    if (this.spent) return undefined;
    const chars = jsonChars(value);
    if (chars === undefined) return undefined;
    if (this.take(chars + overhead)) return value;
    const room = this.maxChars - this.used - this.reserved - overhead;
    if (typeof value !== 'string' || room < MIN_TEXT_CHARS) return undefined;
    const text = shorten(value, room);
    this.used += jsonChars(text)! + overhead;
    return text;
  }

  private marker(note: string): JsonSchema {
    this.truncated = true;
    return { [SCHEMA_MARKERS.truncated]: note };
  }
}

/** The keys of one schema object as it is written, each within the budget (see `SchemaBudget.object`). */
export class SchemaFields {
  readonly schema: JsonSchema = {};

  constructor(private readonly budget: SchemaBudget) {}

  /** A plain value (`description`, `enum`, `example`…), left out once the budget is spent. */
  value(key: string, value: unknown): void {
    if (value === undefined) return;
    const kept = this.budget.fit(value, keyChars(key));
    if (kept !== undefined) this.schema[key] = kept;
  }

  values(values: JsonSchema): void {
    for (const [key, value] of Object.entries(values)) this.value(key, value);
  }

  /** One schema (`items`, `not`…). */
  child(key: string, write: () => Schema | undefined): void {
    if (!this.budget.take(keyChars(key))) return;
    const schema = write();
    if (schema !== undefined) this.schema[key] = schema;
  }

  /** A list of schemas (`oneOf`…), as many as fit. */
  list<T>(key: string, items: Iterable<T>, write: (item: T) => Schema | undefined): void {
    if (!this.budget.take(keyChars(key) + 2)) return;
    const schemas: Schema[] = [];
    for (const item of items) {
      if (!this.budget.take(1)) break;
      const schema = write(item);
      if (schema !== undefined) schemas.push(schema);
    }
    if (schemas.length > 0 || !this.budget.spent) this.schema[key] = schemas;
  }

  /** Schemas by name (`properties`…), as many as fit. */
  map<T>(key: string, entries: Iterable<[string, T]>, write: (value: T) => Schema | undefined): void {
    if (!this.budget.take(keyChars(key) + 2)) return;
    const schemas: Record<string, Schema> = {};
    for (const [name, value] of entries) {
      if (!this.budget.take(keyChars(name))) break;
      const schema = write(value);
      if (schema !== undefined) schemas[name] = schema;
    }
    if (Object.keys(schemas).length > 0 || !this.budget.spent) this.schema[key] = schemas;
  }
}

/** A list's (`items`) or map's (`additionalProperties`) schema around the one `write` makes, `extra` beside. */
export function containerSchema(
  budget: SchemaBudget,
  key: 'items' | 'additionalProperties',
  write: () => Schema | undefined,
  extra: JsonSchema = {},
): JsonSchema | undefined {
  return budget.object((fields) => {
    fields.value('type', key === 'items' ? 'array' : 'object');
    fields.child(key, write);
    fields.values(extra);
  });
}

/** An object type of named fields, as the GraphQL and gRPC formats write theirs: `head` (title, description), `properties`, `required`, `extra`. */
export function objectSchema<T extends { name: string }>(
  budget: SchemaBudget,
  {
    head,
    fields,
    write,
    isRequired,
    extra = {},
  }: { head: JsonSchema; fields: T[]; write: (field: T) => Schema | undefined; isRequired: (field: T) => boolean; extra?: JsonSchema },
): JsonSchema | undefined {
  return budget.object((schema) => {
    schema.values({ type: 'object', ...head });
    schema.map(
      'properties',
      fields.map((field): [string, T] => [field.name, field]),
      write,
    );
    const required = fields.filter(isRequired).map((field) => field.name);
    if (required.length > 0) schema.value('required', required);
    schema.values(extra);
  });
}

/** What `"key":` and a comma take. */
function keyChars(key: string): number {
  return jsonChars(key)! + 2;
}

/** What `value` takes as JSON; undefined if it is none (a cycle a YAML alias made). */
function jsonChars(value: unknown): number | undefined {
  try {
    return JSON.stringify(value)?.length;
  } catch {
    return undefined;
  }
}

/** `text` cut short with '…' to take at most `room` characters as JSON. */
function shorten(text: string, room: number): string {
  let short = truncate(text, room - 3);
  for (let excess = jsonChars(short)! - room; excess > 0; excess = jsonChars(short)! - room) {
    short = truncate(text, Math.max(0, short.length - 1 - excess));
  }
  return short;
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
 * inside itself becomes `{ "$circular": ref }`, one nested deeper than MAX_SCHEMA_DEPTH
 * `{ "$truncated": reason }`, and each schema object the budget ran out in keeps what fit beside
 * a `"$truncated"` key. Vendor extensions are left out. Undefined once the budget was spent
 * (or when `schema` is no schema).
 */
export function expandSchema(document: SpecDocument, schema: unknown, budget: SchemaBudget): JsonSchema | undefined {
  return budget.root(() => expand(document, schema, budget, [], 0));
}

/** Only keys that hold schemas are walked (see SCHEMA_KEYS): the others are copied as they are. */
function expand(document: SpecDocument, value: unknown, budget: SchemaBudget, refs: string[], depth: number): Schema | undefined {
  if (typeof value === 'boolean') return budget.take(BOOLEAN_CHARS) ? value : undefined;
  if (!isObject(value)) return undefined;
  if (depth > MAX_SCHEMA_DEPTH) return budget.cut(`the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
  if (typeof value.$ref === 'string') {
    const { $ref, ...siblings } = value;
    if (refs.includes($ref)) return budget.plain({ [SCHEMA_MARKERS.circular]: $ref });
    const target = resolvePointer(document, $ref);
    // Otherwise kept as written: it points at nothing in this document.
    if (target !== undefined) return expand(document, isObject(target) ? { ...target, ...siblings } : target, budget, [...refs, $ref], depth + 1);
  }
  const inner = (schema: unknown) => expand(document, schema, budget, refs, depth + 1);
  return budget.object((fields) => {
    for (const [key, child] of Object.entries(value)) {
      if (budget.spent) break;
      if (key.startsWith('x-')) {
        // Left out, yet counted: 100,000 of them in a schema referred to from everywhere would be walked for free each time.
        budget.take(1);
        continue;
      }
      if (SCHEMA_MAPS.has(key)) {
        if (isObject(child)) fields.map(key, Object.entries(child), inner);
      } else if (SCHEMA_LISTS.has(key) && Array.isArray(child)) fields.list(key, child, inner);
      else if (SCHEMA_KEYS.has(key)) fields.child(key, () => inner(child));
      else if (!SCHEMA_LISTS.has(key)) fields.value(key, child);
    }
  });
}
