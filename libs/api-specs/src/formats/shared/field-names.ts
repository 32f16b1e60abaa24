import { isObject } from '../../is-object.js';

/** Top-level property names of a JSON Schema, looking through arrays and allOf/oneOf/anyOf. */
export function fieldNames(schema: unknown, depth = 0): string[] {
  if (!isObject(schema) || depth > 3) return [];
  const names = new Set<string>();
  if (isObject(schema.properties)) Object.keys(schema.properties).forEach((name) => names.add(name));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const parts = schema[key];
    if (Array.isArray(parts)) parts.forEach((part) => fieldNames(part, depth + 1).forEach((name) => names.add(name)));
  }
  if (names.size === 0 && schema.items) fieldNames(schema.items, depth + 1).forEach((name) => names.add(name));
  return [...names];
}
