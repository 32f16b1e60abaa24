import type { ApiOverview, JsonSchema, OperationDetail } from '#contracts';
import { exampleValue, quote } from '../shared/example-value.js';
import { isObject } from '../../is-object.js';

/** Fields a selection asks for: the return type's scalar ones, first few. */
const MAX_SELECTED = 8;

/**
 * A curl command that posts the operation as a GraphQL request: its arguments as literals
 * built from their schemas, and a selection of the scalar fields it returns. SDL names no
 * endpoint: the first server, or a placeholder to replace.
 */
export function graphqlExample(api: ApiOverview, operation: OperationDetail): string {
  const args = operation.parameters
    .filter((parameter) => parameter.required)
    .map((parameter) => `${parameter.name}: ${literal(exampleValue(parameter.schema), parameter.schema)}`);
  const returned = operation.responses[0]?.content[0]?.schema;
  const document = `${operation.method.toLowerCase()} { ${operation.path}${args.length ? `(${args.join(', ')})` : ''}${selection(returned)} }`;
  const url = api.servers[0]?.url ?? 'https://api.example.com/graphql';
  return `curl -X POST ${quote(url)} -H 'Content-Type: application/json' -H 'Authorization: Bearer $TOKEN' -d ${quote(JSON.stringify({ query: document }))}`;
}

/** A value as a GraphQL literal: object keys bare, enum values bare, strings quoted. */
function literal(value: unknown, schema: unknown): string {
  if (isObject(schema) && Array.isArray(schema.enum) && typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, isObject(schema) ? schema.items : undefined)).join(', ')}]`;
  if (isObject(value)) {
    const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
    return `{${Object.entries(value)
      .map(([key, item]) => `${key}: ${literal(item, properties[key])}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** ` { id title }` for an object (through lists), nothing for a scalar. */
function selection(schema: JsonSchema | undefined): string {
  const object = isObject(schema) && schema.type === 'array' && isObject(schema.items) ? schema.items : schema;
  if (!isObject(object) || !isObject(object.properties)) return isObject(object) && object.type === 'object' ? ' { __typename }' : '';
  const scalars = Object.entries(object.properties)
    .filter(([, property]) => isObject(property) && property.type !== 'object' && property.type !== 'array' && !property.oneOf && !property.properties)
    .map(([name]) => name)
    .slice(0, MAX_SELECTED);
  return ` { ${scalars.length ? scalars.join(' ') : '__typename'} }`;
}
