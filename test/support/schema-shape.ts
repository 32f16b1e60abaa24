import { type OperationDetail, SCHEMA_MARKERS } from '#contracts';

/** What the checks below take as the JSON Schema vocabulary: keys holding one schema, a list, or a map of them. */
const ONE = [
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
];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const TEXT = ['description', 'title', SCHEMA_MARKERS.truncated, SCHEMA_MARKERS.circular];

/** Some schemas, or an operation's detail. */
type Schemas = OperationDetail | unknown[];

/** The schemas given, or those of a detail's parameters, request body and responses. */
export function schemasOf(detail: Schemas): unknown[] {
  const schemas = Array.isArray(detail)
    ? detail
    : [
        ...detail.parameters.map((parameter) => parameter.schema),
        ...(detail.requestBody?.content ?? []).map((media) => media.schema),
        ...detail.responses.flatMap((response) => response.content.map((media) => media.schema)),
      ];
  return schemas.filter((schema) => schema !== undefined);
}

/** What the schemas of a detail take as JSON: what OPERATION_DETAIL_MAX_CHARS bounds. */
export function schemaChars(detail: Schemas): number {
  return schemasOf(detail).reduce<number>((sum, schema) => sum + JSON.stringify(schema).length, 0);
}

/** `$truncated` markers anywhere in the detail's schemas. */
export function markerCount(detail: Schemas): number {
  return JSON.stringify(schemasOf(detail)).split(`"${SCHEMA_MARKERS.truncated}":`).length - 1;
}

/**
 * Where a schema is not shaped as JSON Schema: a schema position holding neither
 * an object nor a boolean, a text that is not a string, or a `$truncated` marker anywhere but
 * as a key of a schema object. Empty when all is well.
 */
export function shapeProblems(detail: Schemas): string[] {
  const problems: string[] = [];
  const schema = (value: unknown, at: string): void => {
    if (typeof value === 'boolean') return;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return void problems.push(`${at} is not a schema`);
    for (const [key, child] of Object.entries(value)) {
      const here = `${at}.${key}`;
      if (ONE.includes(key) && !(key === 'items' && Array.isArray(child))) schema(child, here);
      else if (LIST.includes(key) || key === 'items') list(child, here);
      else if (MAP.includes(key)) map(child, here);
      else if (TEXT.includes(key) && typeof child !== 'string') problems.push(`${here} is not a string`);
      else if (JSON.stringify(child).includes(`"${SCHEMA_MARKERS.truncated}"`)) problems.push(`${here} holds a marker`);
    }
  };
  const list = (value: unknown, at: string) =>
    Array.isArray(value) ? value.forEach((item, i) => schema(item, `${at}[${i}]`)) : problems.push(`${at} is not a list`);
  const map = (value: unknown, at: string) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return void problems.push(`${at} is not a map`);
    for (const [name, child] of Object.entries(value)) schema(child, `${at}.${name}`);
  };
  schemasOf(detail).forEach((root, i) => {
    if (typeof root !== 'object') problems.push(`schema ${i} is not an object`);
    schema(root, `schema ${i}`);
  });
  return problems;
}
