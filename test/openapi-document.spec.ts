import type { OpenAPIObject } from '@nestjs/swagger';
import { CONTRACT_SCHEMAS } from '../apps/gateway/src/docs/contract-schemas.generated.js';
import type { SchemaObject } from '../apps/gateway/src/docs/contract-shapes.js';
import { queryDtos } from '../apps/gateway/src/docs/derived-parameters.js';
import { LIMIT_KEYWORDS, validatorSchemas } from '../apps/gateway/src/docs/derived-schemas.js';
import { buildOpenApiDocument } from '../apps/gateway/src/docs/setup-docs.js';
import { startStack, type TestStack } from './support/stack.js';

type Json = Record<string, unknown>;

/** Every limit of `validated` that `documented` does not say, as `path.keyword`. */
function missingLimits(validated: Json, documented: Json | undefined, path: string): string[] {
  const missing = LIMIT_KEYWORDS.filter((keyword) => keyword in validated && JSON.stringify(documented?.[keyword]) !== JSON.stringify(validated[keyword])).map(
    (keyword) => `${path}.${keyword}`,
  );
  const nested = (key: string, name: string) =>
    validated[key] && typeof validated[key] === 'object' ? missingLimits(validated[key] as Json, documented?.[key] as Json | undefined, `${path}${name}`) : [];
  const properties = Object.entries((validated.properties ?? {}) as Record<string, Json>).flatMap(([field, schema]) =>
    missingLimits(schema, (documented?.properties as Record<string, Json> | undefined)?.[field], `${path}.${field}`),
  );
  return [...missing, ...nested('items', '[]'), ...nested('additionalProperties', '{}'), ...properties];
}

const refName = (schema: unknown) => (JSON.stringify(schema ?? null).match(/"#\/components\/schemas\/(\w+)"/) ?? [])[1];

describe("The gateway's OpenAPI document", () => {
  let stack: TestStack;
  let document: OpenAPIObject;
  let schemas: Record<string, SchemaObject>;

  beforeAll(async () => {
    stack = await startStack({ withoutAi: true });
    document = buildOpenApiDocument(stack.gateway);
    schemas = document.components!.schemas as Record<string, SchemaObject>;
  }, 180_000);

  afterAll(() => stack?.close());

  it('should say every limit the validators of its request bodies enforce', () => {
    const validated = validatorSchemas();
    const bodies = Object.values(document.paths)
      .flatMap((item) => Object.values(item as Record<string, { requestBody?: unknown }>))
      .map((operation) => refName(operation.requestBody))
      .filter((name): name is string => name !== undefined);
    expect(bodies).toEqual(expect.arrayContaining(['ApiBodyDto', 'SearchRequestDoc', 'FeedbackRequestDoc']));
    // A request body, and each schema it refers to, is validated by a class-validator DTO.
    const requestSchemas = new Set(bodies);
    for (const name of requestSchemas) for (const ref of JSON.stringify(schemas[name]).matchAll(/"#\/components\/schemas\/(\w+)"/g)) requestSchemas.add(ref[1]);
    for (const name of requestSchemas) {
      expect({ name, validated: name in validated }).toEqual({ name, validated: true });
      expect(missingLimits(validated[name] as Json, schemas[name] as Json, name)).toEqual([]);
    }
    expect(schemas.SearchFiltersDoc.properties!.tags).toMatchObject({ maxItems: 50, items: { maxLength: 200 } });
  });

  it('should say every limit the validators of its query DTOs enforce', () => {
    const validated = validatorSchemas();
    const dtos = queryDtos(stack.gateway);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item as Record<string, { operationId?: string; parameters?: Json[] }>));
    const checked = operations
      .filter((operation) => dtos.has(operation.operationId!))
      .flatMap((operation) => {
        const properties = validated[dtos.get(operation.operationId!)!.name].properties as Record<string, Json>;
        return (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'query' && properties[parameter.name as string])
          .map((parameter) => missingLimits(properties[parameter.name as string], parameter.schema as Json, `${operation.operationId} ?${parameter.name}`));
      });
    expect(checked.length).toBeGreaterThan(15);
    expect(checked.flat()).toEqual([]);
  });

  it('should show each response as its contract type says it', () => {
    const responses = Object.keys(schemas).filter((name) => name in CONTRACT_SCHEMAS && !(name in validatorSchemas()));
    expect(responses.length).toBeGreaterThan(40);
    for (const name of responses) {
      const { properties = {}, required } = CONTRACT_SCHEMAS[name];
      expect({ name, properties: Object.keys(schemas[name].properties ?? {}), required: schemas[name].required }).toEqual({
        name,
        properties: Object.keys(properties),
        required,
      });
    }
  });
});
