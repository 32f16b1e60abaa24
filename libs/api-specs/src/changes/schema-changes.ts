import { type ChangeSeverity, SCHEMA_MARKERS } from '#contracts';
import { isObject } from '../is-object.js';

/** What a caller does with a schema's values: sends them (`input`), or reads them (`output`). */
export type Direction = 'input' | 'output';

/** Levels compared: a difference deeper than this is reported as not compared. */
const MAX_DEPTH = 32;

/** One difference between two schemas, `pointer` inside the value they describe (`.items[].id`). */
export interface SchemaChange {
  severity: ChangeSeverity;
  /** `type-changed`, `field-removed`…: the caller prefixes where (`request-field-removed`). */
  code: string;
  pointer: string;
  message: string;
}

export interface SchemaComparison {
  direction: Direction;
  /**
   * The API rejects input fields it does not know (GraphQL validates every query), so removing one
   * breaks callers that still send it; elsewhere the field is ignored unless the schema is closed.
   */
  strictInputs: boolean;
  /** Where a pointer is, as the report writes it: `request body .customer.email`. */
  locate: (pointer: string) => string;
  emit: (change: SchemaChange) => void;
  /** A part that could not be compared (see `compareSchemas`), and why. */
  gap: (pointer: string, reason: string) => void;
  /**
   * Pairs of schema nodes the walk may still visit, shared by every comparison of one report (an
   * `allOf` is merged, so a node may be seen twice): what is left when it runs out is a gap.
   */
  budget: { nodes: number };
}

/** What a schema says about the values it allows, `allOf` merged and a nullable `anyOf` unwrapped. */
interface SchemaView {
  /** JSON types without `null`, or a GraphQL scalar's name (`DateTime`); undefined when it does not say. */
  types?: string[];
  nullable: boolean;
  properties: Map<string, unknown>;
  required: Set<string>;
  /** `additionalProperties: false`: a field it does not list is refused. */
  closed: boolean;
  items?: unknown;
  additionalProperties?: unknown;
  enum?: unknown[];
  default?: unknown;
  /** Cut at `$truncated`: what it does not list may be past the cut, so only what both sides list is compared. */
  cut: boolean;
}

/**
 * Compares two schemas of one value, reporting each difference by what it does to a caller of
 * `direction`. A part it cannot compare is a gap, never silence: a union (`oneOf`, `anyOf`) or
 * `not` that differs, a recursive schema that points elsewhere, a nesting past MAX_DEPTH, the
 * report's node budget spent. Parts that are the same on both sides need no comparing. Of a schema
 * cut at `$truncated`, what both sides list is compared; the rest is the operation's gap
 * (`OperationDetail.truncated`), not one per cut.
 */
export function compareSchemas(before: unknown, after: unknown, comparison: SchemaComparison): void {
  new SchemaWalk(comparison).compare(before, after, '', 0);
}

class SchemaWalk {
  private spent = false;

  constructor(private readonly comparison: SchemaComparison) {}

  compare(before: unknown, after: unknown, pointer: string, depth: number): void {
    if (this.spent) return;
    if (this.comparison.budget.nodes-- <= 0) {
      this.spent = true;
      this.comparison.gap(pointer, "the comparison's budget of schema nodes ran out here: this schema and the ones after it are not compared");
      return;
    }
    if (depth > MAX_DEPTH) {
      if (!sameValue(before, after)) this.comparison.gap(pointer, `nested deeper than ${MAX_DEPTH} levels: not compared`);
      return;
    }
    const old = viewOf(before, 0);
    const now = viewOf(after, 0);
    if (!old || !now) {
      this.unknown(before, after, pointer);
      return;
    }
    if (!this.sameType(old, now, pointer)) return;
    this.compareEnum(old, now, pointer);
    if (this.comparison.direction === 'input' && old.default !== undefined && now.default !== undefined && !sameValue(old.default, now.default)) {
      this.emit('info', 'default-changed', pointer, `The default of ${this.at(pointer)} changed from ${brief(old.default)} to ${brief(now.default)}`);
    }
    this.compareProperties(old, now, pointer, depth);
    if (old.items !== undefined && now.items !== undefined) this.compare(old.items, now.items, `${pointer}[]`, depth + 1);
    if (isObject(old.additionalProperties) && isObject(now.additionalProperties)) {
      this.compare(old.additionalProperties, now.additionalProperties, `${pointer}.*`, depth + 1);
    }
  }

  /** Whether the types are the same, so that comparing what is inside makes sense; reports the change if not. */
  private sameType(old: SchemaView, now: SchemaView, pointer: string): boolean {
    const input = this.comparison.direction === 'input';
    if (old.types && now.types && !sameSet(old.types, now.types)) {
      // An input may widen (integer to number), an output narrow, without breaking a caller.
      const compatible = input ? accepts(now.types, old.types) : accepts(old.types, now.types);
      this.emit(
        compatible ? 'non-breaking' : 'breaking',
        compatible ? 'type-relaxed' : 'type-changed',
        pointer,
        `The type of ${this.at(pointer)} changed from ${old.types.join(' or ')} to ${now.types.join(' or ')}`,
      );
      return false;
    }
    if (old.nullable !== now.nullable && !old.cut && !now.cut) {
      const breaking = input ? old.nullable : now.nullable;
      const message = input
        ? `${this.at(pointer)} ${now.nullable ? 'now accepts' : 'no longer accepts'} null`
        : `${this.at(pointer)} ${now.nullable ? 'may now be' : 'is no longer'} null`;
      this.emit(breaking ? 'breaking' : 'non-breaking', breaking ? 'type-changed' : 'type-relaxed', pointer, capitalised(message));
    }
    return true;
  }

  private compareEnum(old: SchemaView, now: SchemaView, pointer: string): void {
    if (!old.enum || !now.enum || old.cut || now.cut) return;
    const input = this.comparison.direction === 'input';
    const kept = new Set(now.enum.map(valueKey));
    const removed = old.enum.filter((value) => !kept.has(valueKey(value)));
    const had = new Set(old.enum.map(valueKey));
    const added = now.enum.filter((value) => !had.has(valueKey(value)));
    if (removed.length > 0) {
      // A caller may still send a value that is gone; a reader just never sees it again.
      this.emit(input ? 'breaking' : 'non-breaking', 'enum-value-removed', pointer, `${capitalised(this.at(pointer))} no longer allows ${values(removed)}`);
    }
    if (added.length > 0) {
      // A reader that handles every value it knows meets one it does not.
      this.emit(input ? 'non-breaking' : 'info', 'enum-value-added', pointer, `${capitalised(this.at(pointer))} now allows ${values(added)}`);
    }
  }

  private compareProperties(old: SchemaView, now: SchemaView, pointer: string, depth: number): void {
    const input = this.comparison.direction === 'input';
    const cut = old.cut || now.cut;
    for (const [name, schema] of old.properties) {
      const inner = `${pointer}.${name}`;
      if (!now.properties.has(name)) {
        if (cut) continue;
        if (!input) this.emit('breaking', 'field-removed', inner, `${capitalised(this.at(inner))} was removed: callers that read it break`);
        else if (this.comparison.strictInputs || now.closed)
          this.emit('breaking', 'field-removed', inner, `${capitalised(this.at(inner))} was removed: callers that send it are refused`);
        else this.emit('info', 'field-removed', inner, `${capitalised(this.at(inner))} was removed: callers that send it are ignored`);
        continue;
      }
      const wasRequired = old.required.has(name);
      const isRequired = now.required.has(name);
      if (wasRequired !== isRequired && !cut) {
        // Required means a caller must send it (input), or may count on it (output).
        const breaking = input ? isRequired : wasRequired;
        const made = isRequired ? 'required' : 'optional';
        const why = input ? (isRequired ? ': callers that leave it out are refused' : '') : isRequired ? '' : ': callers may no longer count on it';
        this.emit(breaking ? 'breaking' : 'non-breaking', `field-made-${made}`, inner, `${capitalised(this.at(inner))} was made ${made}${why}`);
      }
      this.compare(schema, now.properties.get(name), inner, depth + 1);
    }
    for (const name of now.properties.keys()) {
      if (old.properties.has(name) || cut) continue;
      const inner = `${pointer}.${name}`;
      if (input && now.required.has(name))
        this.emit('breaking', 'required-field-added', inner, `Required ${this.at(inner)} was added: callers that leave it out are refused`);
      else this.emit('non-breaking', 'field-added', inner, `${capitalised(input ? `optional ${this.at(inner)}` : this.at(inner))} was added`);
    }
  }

  /** Schemas the walk cannot read: the same on both sides, or a gap here. */
  private unknown(before: unknown, after: unknown, pointer: string): void {
    if (sameValue(before, after)) return;
    const circular = (schema: unknown) => isObject(schema) && SCHEMA_MARKERS.circular in schema;
    const reason =
      circular(before) || circular(after)
        ? 'a recursive schema changed what it refers to: not compared'
        : 'a union (oneOf, anyOf) or a `not` changed: its variants are not compared';
    this.comparison.gap(pointer, reason);
  }

  private at(pointer: string): string {
    return this.comparison.locate(pointer);
  }

  private emit(severity: ChangeSeverity, code: string, pointer: string, message: string): void {
    this.comparison.emit({ severity, code, pointer, message });
  }
}

/** A schema as its values see it, or undefined when it is unknown here (see `compareSchemas`). */
function viewOf(schema: unknown, depth: number): SchemaView | undefined {
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  if (SCHEMA_MARKERS.circular in schema || 'not' in schema) return undefined;
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants !== undefined) {
    // `anyOf: [X, {type: null}]` is how OpenAPI 3.1 writes a nullable X; other unions are unknown.
    const nonNull = Array.isArray(variants) ? variants.filter((variant) => !(isObject(variant) && variant.type === 'null')) : [];
    if (nonNull.length !== 1 || Array.isArray(schema.allOf)) return undefined;
    const inner = viewOf({ ...withoutKeys(schema, ['oneOf', 'anyOf']), ...(nonNull[0] as object) }, depth + 1);
    return inner && { ...inner, nullable: inner.nullable || nonNull.length < (variants as unknown[]).length };
  }
  const own = ownView(schema);
  if (!Array.isArray(schema.allOf)) return own;
  let merged = own;
  for (const part of schema.allOf) {
    const view = viewOf(part, depth + 1);
    if (!view) return undefined;
    merged = mergedViews(merged, view);
  }
  return merged;
}

function ownView(schema: Record<string, unknown>): SchemaView {
  const declared =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((type) => typeof type === 'string') : undefined;
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  const types = declared?.filter((type) => type !== 'null') ?? impliedTypes(schema, properties);
  return {
    ...(types && types.length > 0 ? { types: [...new Set(types)].sort() } : {}),
    nullable: schema.nullable === true || (declared?.includes('null') ?? false),
    properties: new Map(Object.entries(properties ?? {})),
    required: new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : []),
    closed: schema.additionalProperties === false,
    ...(schema.items !== undefined && !Array.isArray(schema.items) ? { items: schema.items } : {}),
    ...(schema.additionalProperties !== undefined ? { additionalProperties: schema.additionalProperties } : {}),
    ...(Array.isArray(schema.enum) ? { enum: schema.enum } : {}),
    ...(schema.default !== undefined ? { default: schema.default } : {}),
    cut: SCHEMA_MARKERS.truncated in schema,
  };
}

/**
 * What a schema without `type` is: an object or array by its keywords, or a type that only has a
 * name (a GraphQL custom scalar, written `{ title: 'DateTime' }`).
 */
function impliedTypes(schema: Record<string, unknown>, properties: unknown): string[] | undefined {
  if (properties !== undefined || schema.additionalProperties !== undefined || schema.required !== undefined) return ['object'];
  if (schema.items !== undefined) return ['array'];
  const named = typeof schema.title === 'string' && schema.enum === undefined && schema.const === undefined && schema.allOf === undefined;
  return named ? [schema.title as string] : undefined;
}

/** `allOf` parts together: every part's fields, and the first part's type that says one. */
function mergedViews(a: SchemaView, b: SchemaView): SchemaView {
  const properties = new Map(a.properties);
  for (const [name, schema] of b.properties) if (!properties.has(name)) properties.set(name, schema);
  const types = a.types ?? b.types;
  return {
    ...(types ? { types } : {}),
    // `nullable: true` beside an `allOf` of one `$ref` is how OpenAPI 3.0 writes a nullable reference.
    nullable: a.nullable || b.nullable,
    properties,
    required: new Set([...a.required, ...b.required]),
    closed: a.closed || b.closed,
    ...(a.items !== undefined || b.items !== undefined ? { items: a.items ?? b.items } : {}),
    ...(a.additionalProperties !== undefined || b.additionalProperties !== undefined
      ? { additionalProperties: a.additionalProperties ?? b.additionalProperties }
      : {}),
    ...((a.enum ?? b.enum) ? { enum: a.enum ?? b.enum } : {}),
    ...(a.default !== undefined || b.default !== undefined ? { default: a.default ?? b.default } : {}),
    cut: a.cut || b.cut,
  };
}

/** Every value `narrower` allows, `wider` allows too (an integer is a number). */
function accepts(wider: string[], narrower: string[]): boolean {
  return narrower.every((type) => wider.includes(type) || (type === 'integer' && wider.includes('number')));
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((type) => b.includes(type));
}

/** A value as text, object keys sorted: two schemas that differ only in the order of their keys are the same. */
function valueKey(value: unknown): string {
  return (
    JSON.stringify(value, (_key, inner: unknown) =>
      isObject(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
    ) ?? 'undefined'
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  return valueKey(a) === valueKey(b);
}

/** A few values as a message lists them: `"A", "B" and 3 more`. */
function values(list: unknown[]): string {
  const shown = list.slice(0, 5).map(brief).join(', ');
  return list.length > 5 ? `${shown} and ${list.length - 5} more` : shown;
}

function brief(value: unknown): string {
  const text = valueKey(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function withoutKeys(schema: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}
