import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { createGenerator } from 'ts-json-schema-generator';
import type { SchemaObject } from './contract-shapes.js';

/*
 * `contract-schemas.generated.ts` is the JSON Schema of the aliases in `contract-shapes.ts`, made
 * by ts-json-schema-generator and turned into OpenAPI 3.0 component schemas. It is generated here
 * rather than in `npm run build` so the build and the gateway need no TypeScript compiler; this
 * test fails when a contract changed and the file was not regenerated:
 *   UPDATE_CONTRACT_SCHEMAS=1 NODE_OPTIONS=--experimental-vm-modules npx jest apps/gateway/src/docs/contract-schemas.spec.ts
 */

const DOCS = 'apps/gateway/src/docs';
const GENERATED = `${DOCS}/contract-schemas.generated.ts`;
type Json = Record<string, unknown>;
const DEFINITIONS = '#/definitions/';

/** The schema of every alias of `contract-shapes.ts`, by name, in OpenAPI 3.0. */
function generateContractSchemas(): Record<string, SchemaObject> {
  const generator = createGenerator({
    path: `${DOCS}/contract-shapes.ts`,
    tsconfig: 'tsconfig.json',
    expose: 'export',
    topRef: true,
    // Prose comes from `openapi-notes.ts`: contract comments are written for the code's readers.
    jsDoc: 'none',
    skipTypeCheck: true,
    additionalProperties: true,
  });
  const definitions = generator.createSchema('*').definitions as Record<string, Json>;
  const names = renameAliases(definitions);
  const inline = (schema: Json, seen: string[] = []): Json => toOpenApi(schema, names, definitions, seen);
  const docs = Object.keys(definitions).filter((name) => name.endsWith('Doc'));
  const shaped = Object.fromEntries(docs.map((name) => [name, inline(definitions[name], [name])]));
  return Object.fromEntries(docs.map((name) => [name, namedWhereShared(shaped[name], shaped, name, true)])) as Record<string, SchemaObject>;
}

/** An alias of a named contract type (`ApiRecordDoc = ApiRecord`) takes the type's definition; returns the component names. */
function renameAliases(definitions: Record<string, Json>): Map<string, string> {
  const names = new Map<string, string>();
  for (const [name, schema] of Object.entries(definitions)) {
    if (!name.endsWith('Doc')) continue;
    const target = typeof schema.$ref === 'string' && Object.keys(schema).length === 1 ? schema.$ref.slice(DEFINITIONS.length) : undefined;
    if (target && !target.endsWith('Doc')) {
      definitions[name] = definitions[target];
      names.set(target, name);
    }
    names.set(name, name);
  }
  return names;
}

/** A generated schema in OpenAPI 3.0: refs to components, other named types inlined, `const` and `null` as 3.0 says them. */
function toOpenApi(schema: Json, names: Map<string, string>, definitions: Record<string, Json>, seen: string[]): Json {
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref.slice(DEFINITIONS.length);
    const component = names.get(target);
    if (component) return { $ref: `#/components/schemas/${component}` };
    if (seen.includes(target)) throw new Error(`${target} contains itself: give it a …Doc alias in contract-shapes.ts`);
    return toOpenApi(definitions[target], names, definitions, [...seen, target]);
  }
  const converted: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    const child = (item: unknown) => (item && typeof item === 'object' ? toOpenApi(item as Json, names, definitions, seen) : item);
    if (key === 'const') converted.enum = [value];
    else if (key === 'properties') converted.properties = Object.fromEntries(Object.entries(value as Json).map(([name, item]) => [name, child(item)]));
    else if (key === 'required') converted.required = [...(value as string[])].sort();
    // `Record<string, unknown>`: any value, as 3.0 says it.
    else if (key === 'additionalProperties' && isDeepStrictEqual(value, {})) converted.additionalProperties = true;
    else if (['items', 'additionalProperties', 'not'].includes(key)) converted[key] = child(value);
    else if (['anyOf', 'oneOf', 'allOf'].includes(key)) converted[key] = (value as unknown[]).map(child);
    else converted[key] = value;
  }
  return oneEnum(nullableIn30(converted));
}

/** A union of string literal unions (`ParameterLocation | 'argument'`) is one enum. */
function oneEnum(schema: Json): Json {
  const variants = schema.anyOf as Json[] | undefined;
  if (!variants?.every((variant) => variant.type === 'string' && Array.isArray(variant.enum) && Object.keys(variant).length === 2)) return schema;
  const { anyOf: _variants, ...rest } = schema;
  return { ...rest, type: 'string', enum: variants.flatMap((variant) => variant.enum as unknown[]) };
}

/** JSON Schema's `type: [T, 'null']` (and `anyOf` with `{type: 'null'}`) is `nullable: true` in OpenAPI 3.0. */
function nullableIn30(schema: Json): Json {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((type) => type !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types, nullable: true };
  }
  const variants = schema.anyOf as Json[] | undefined;
  const others = variants?.filter((variant) => variant.type !== 'null');
  if (!variants || !others || others.length === variants.length) return schema;
  const { anyOf: _variants, ...rest } = schema;
  return { ...rest, ...(others.length === 1 ? others[0] : { anyOf: others }), nullable: true };
}

/**
 * An inline object shaped exactly as a component (a `FeedbackReport`'s `learning`, a re-index's
 * `failures[]`) becomes a `$ref` to it, as the document named such parts before.
 */
function namedWhereShared(schema: Json, components: Record<string, Json>, own: string, top = false): Json {
  if (!top && schema.type === 'object') {
    const same = Object.keys(components).find((name) => name !== own && isDeepStrictEqual(components[name], schema));
    if (same) return { $ref: `#/components/schemas/${same}` };
  }
  const walk = (item: unknown) => (item && typeof item === 'object' ? namedWhereShared(item as Json, components, own) : item);
  const walked: Json = { ...schema };
  if (schema.properties) walked.properties = Object.fromEntries(Object.entries(schema.properties as Json).map(([name, item]) => [name, walk(item)]));
  for (const key of ['items', 'additionalProperties'] as const) if (schema[key] && typeof schema[key] === 'object') walked[key] = walk(schema[key]);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(schema[key])) walked[key] = (schema[key] as unknown[]).map(walk);
  return walked;
}

/** JSON as TypeScript, a part on one line where it fits in the house's 160 characters. */
function compact(value: unknown, indent: string): string {
  const line = JSON.stringify(value);
  if (!value || typeof value !== 'object' || indent.length + line.length <= 140) return line;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${compact(item, inner)},`).join('\n')}\n${indent}]`;
  const entries = Object.entries(value).map(([key, item]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${compact(item, inner)},`);
  return `{\n${entries.join('\n')}\n${indent}}`;
}

function source(schemas: Record<string, SchemaObject>): string {
  return [
    '// Generated by contract-schemas.spec.ts from contract-shapes.ts: do not edit (UPDATE_CONTRACT_SCHEMAS=1 regenerates it).',
    "import type { SchemaObject } from './contract-shapes.js';",
    '',
    `export const CONTRACT_SCHEMAS: Record<string, SchemaObject> = ${compact(schemas, '')};`,
    '',
  ].join('\n');
}

describe('contract-schemas.generated.ts', () => {
  it('should be the schemas of the contract types as they are now', () => {
    const generated = generateContractSchemas();
    if (process.env.UPDATE_CONTRACT_SCHEMAS === '1') writeFileSync(GENERATED, source(generated));
    expect(readFileSync(GENERATED, 'utf8')).toBe(source(generated));
  });
});
