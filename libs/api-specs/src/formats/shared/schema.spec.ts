import { type JsonSchema, SCHEMA_MARKERS } from '#contracts';
import { markerCount, schemaChars, shapeProblems } from '../../../../../test/support/schema-shape.js';
import { expandSchema, SchemaBudget } from './schema.js';

const MAX_CHARS = 20_000;
const NOTE = `Cut here: this operation's schemas pass ${MAX_CHARS} characters (OPERATION_DETAIL_MAX_CHARS)`;
const longText = (i: number) => `Field ${i}: ${'lorem ipsum dolor sit amet '.repeat(20)}`;
const manyProperties = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'string', description: longText(i), enum: ['a', 'b'] }]));

/** Each schema expanded in turn within one budget, as an operation's are. */
function expandAll(document: Record<string, unknown>, schemas: unknown[], maxChars = MAX_CHARS): { schemas: (JsonSchema | undefined)[]; budget: SchemaBudget } {
  const budget = new SchemaBudget(maxChars);
  return { schemas: schemas.map((schema) => expandSchema(document, schema, budget)), budget };
}

describe(SchemaBudget.name, () => {
  it('should never let what it writes pass maxChars, markers included', () => {
    const budget = new SchemaBudget(1000);
    const texts = Array.from({ length: 5000 }, (_, i): [string, string] => [`p${i}`, longText(i)]);
    const schemas = Array.from({ length: 10 }, () =>
      budget.root(() => budget.object((fields) => fields.map('properties', texts, (text) => budget.plain({ description: text })))),
    );

    expect(budget.truncated).toBe(true);
    expect(schemaChars(schemas)).toBeLessThanOrEqual(1000);
    expect(shapeProblems(schemas)).toEqual([]);
  });

  it('should give whole schemas the budget ran out before one marker each, two at 1,000 characters, then leave them out', () => {
    const budget = new SchemaBudget(1000);
    const schemas = Array.from({ length: 5 }, () => budget.root(() => budget.plain({ description: 'x'.repeat(2000) })));

    expect(schemas[0]).toEqual({ description: expect.stringMatching(/^x+…$/), [SCHEMA_MARKERS.truncated]: expect.any(String) });
    expect(schemas.slice(1)).toEqual([
      { [SCHEMA_MARKERS.truncated]: expect.any(String) },
      { [SCHEMA_MARKERS.truncated]: expect.any(String) },
      undefined,
      undefined,
    ]);
  });
});

describe(expandSchema.name, () => {
  it('should keep what fits of an object with 5,000 long properties, and mark the object, not its properties', () => {
    const document = { components: { schemas: { Big: { type: 'object', properties: manyProperties(5000), required: ['p0'] } } } };
    const { schemas, budget } = expandAll(document, [{ $ref: '#/components/schemas/Big' }, { $ref: '#/components/schemas/Big' }]);

    expect(budget.truncated).toBe(true);
    expect(schemaChars(schemas)).toBeLessThanOrEqual(MAX_CHARS);
    expect(schemaChars(schemas)).toBeGreaterThan(MAX_CHARS - 1000);
    expect(shapeProblems(schemas)).toEqual([]);
    const [big, again] = schemas;
    expect(big).toMatchObject({
      type: 'object',
      properties: { p0: { type: 'string', description: longText(0), enum: ['a', 'b'] } },
      [SCHEMA_MARKERS.truncated]: NOTE,
    });
    expect(big!.properties).not.toHaveProperty(SCHEMA_MARKERS.truncated);
    // Cut inside its last property: that property and the object are marked, and nothing after them is visited.
    expect(markerCount([big])).toBe(2);
    expect(again).toEqual({ [SCHEMA_MARKERS.truncated]: NOTE });
  });

  it('should cut a 1 MB description short, as a string', () => {
    const {
      schemas: [schema],
    } = expandAll({}, [{ type: 'object', description: 'word '.repeat(200_000), properties: { a: { type: 'string' } } }]);

    expect(schema).toEqual({ type: 'object', description: expect.stringMatching(/^(word )+word…$/), [SCHEMA_MARKERS.truncated]: NOTE });
    expect(schemaChars([schema])).toBeLessThanOrEqual(MAX_CHARS);
  });

  it('should leave out, never replace, a plain value that does not fit', () => {
    const {
      schemas: [schema],
    } = expandAll({}, [{ type: 'string', enum: Array.from({ length: 10_000 }, (_, i) => `value${i}`), example: 'value1' }]);

    expect(schema).toEqual({ type: 'string', [SCHEMA_MARKERS.truncated]: NOTE });
  });

  it('should keep OpenAPI 3.1 boolean schemas as booleans, and give whole ones as the objects that mean the same', () => {
    const document = { components: { schemas: { Any: true } } };
    const { schemas } = expandAll(document, [
      { type: 'object', properties: { meta: true, never: false, any: { $ref: '#/components/schemas/Any' } }, additionalProperties: false },
      { type: 'array', items: true, prefixItems: [true, { type: 'string' }], unevaluatedItems: false },
      true,
      false,
    ]);

    expect(schemas).toEqual([
      { type: 'object', properties: { meta: true, never: false, any: true }, additionalProperties: false },
      { type: 'array', items: true, prefixItems: [true, { type: 'string' }], unevaluatedItems: false },
      {},
      { not: {} },
    ]);
  });

  it('should follow $refs in every keyword that holds schemas, and in no other', () => {
    const document = { components: { schemas: { S: { type: 'string' } } } };
    const ref = { $ref: '#/components/schemas/S' };
    const {
      schemas: [schema],
    } = expandAll(document, [
      {
        items: [ref],
        not: ref,
        if: ref,
        then: ref,
        else: ref,
        contains: ref,
        propertyNames: ref,
        anyOf: [ref],
        patternProperties: { '^x-': ref },
        $defs: { s: ref },
        dependentSchemas: { a: ref },
        properties: { 'x-name': ref },
        example: ref,
        default: { $ref: 'elsewhere' },
        'x-vendor': ref,
      },
    ]);

    const s = { type: 'string' };
    expect(schema).toEqual({
      items: [s],
      not: s,
      if: s,
      then: s,
      else: s,
      contains: s,
      propertyNames: s,
      anyOf: [s],
      patternProperties: { '^x-': s },
      $defs: { s },
      dependentSchemas: { a: s },
      properties: { 'x-name': s },
      example: ref,
      default: { $ref: 'elsewhere' },
    });
  });

  it('should leave out what stands where a schema should and is none', () => {
    const { schemas } = expandAll({}, [
      { type: 'object', properties: { a: 'text', b: null, c: { type: 'integer' } }, items: 'x', allOf: { not: 'a list' } },
      'not a schema',
    ]);

    expect(schemas).toEqual([{ type: 'object', properties: { c: { type: 'integer' } } }, undefined]);
  });

  it('should stop at the first thing that does not fit: no sibling, no ancestor visits more', () => {
    const branch = (i: number) => ({ type: 'object', description: longText(i), properties: { leaf: { type: 'string', description: longText(i) } } });
    const {
      schemas: [schema],
    } = expandAll({}, [{ allOf: Array.from({ length: 1000 }, (_, i) => ({ anyOf: [branch(i), branch(i)] })) }], 5000);

    expect(schemaChars([schema])).toBeLessThanOrEqual(5000);
    expect(shapeProblems([schema])).toEqual([]);
    // One marker per schema object on the path to the cut: the root, an allOf part, an anyOf branch, and perhaps its leaf.
    expect(markerCount([schema])).toBeGreaterThanOrEqual(3);
    expect(markerCount([schema])).toBeLessThanOrEqual(4);
  });

  it('should count the vendor extensions it leaves out, so that a schema full of them is not walked again and again', () => {
    const Ext = { type: 'string', ...Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`x-${i}`, i])) };
    const document = { components: { schemas: { Ext } } };
    const started = Date.now();
    const {
      schemas: [schema],
      budget,
    } = expandAll(document, [{ anyOf: Array.from({ length: 10_000 }, () => ({ $ref: '#/components/schemas/Ext' })) }]);

    expect(budget.truncated).toBe(true);
    expect(schema).toEqual({ anyOf: [{ type: 'string', [SCHEMA_MARKERS.truncated]: NOTE }], [SCHEMA_MARKERS.truncated]: NOTE });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('should mark a schema met again inside itself, within the budget', () => {
    const document = { components: { schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } } } };
    const {
      schemas: [schema],
    } = expandAll(document, [{ $ref: '#/components/schemas/Node' }]);

    expect(schema).toEqual({ type: 'object', properties: { next: { [SCHEMA_MARKERS.circular]: '#/components/schemas/Node' } } });
  });
});
