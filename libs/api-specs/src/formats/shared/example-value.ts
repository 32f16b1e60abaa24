import { SCHEMA_MARKERS } from '#contracts';
import { isObject } from '../../is-object.js';

/** Levels of an example built from a schema: deeper parts are left out (an agent fills them in from the schema). */
const MAX_DEPTH = 4;
/** Properties of one object in an example: the required ones first. */
const MAX_PROPERTIES = 12;

/**
 * A value that fits a (dereferenced) JSON Schema, for an example request: the schema's own
 * `example`, `default` or first `enum` value where it has one, else a placeholder of its type.
 * Optional properties are shown too (up to a few), so a caller sees what it may send.
 */
export function exampleValue(schema: unknown, depth = 0): unknown {
  // A schema cut at the size limit keeps what fit beside its marker: the example is built from that.
  const cutWhole = isObject(schema) && SCHEMA_MARKERS.truncated in schema && Object.keys(schema).length === 1;
  if (!isObject(schema) || SCHEMA_MARKERS.circular in schema || cutWhole) return {};
  for (const key of ['example', 'default'] as const) if (schema[key] !== undefined) return schema[key];
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key]) && schema[key].length) return exampleValue(schema[key][0], depth);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => exampleValue(part, depth));
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts[0];
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || isObject(schema.properties)) {
    if (depth >= MAX_DEPTH) return {};
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const names = Object.keys(properties)
      .sort((a, b) => Number(required.has(b)) - Number(required.has(a)))
      .slice(0, MAX_PROPERTIES);
    return Object.fromEntries(names.map((name) => [name, exampleValue(properties[name], depth + 1)]));
  }
  if (type === 'array') return depth >= MAX_DEPTH ? [] : [exampleValue(schema.items, depth + 1)];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 0;
  if (type === 'boolean') return true;
  return stringExample(typeof schema.format === 'string' ? schema.format : undefined);
}

function stringExample(format: string | undefined): string {
  switch (format) {
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'date':
      return '2026-01-01';
    case 'email':
      return 'user@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com';
    case 'uuid':
      return '00000000-0000-0000-0000-000000000000';
    default:
      return 'string';
  }
}

/** Single-quoted for a POSIX shell, as the formats' example commands (curl, grpcurl) quote their values. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
