import { SCHEMA_MARKERS } from '#contracts';
import { compareSchemas, type Direction, type SchemaChange } from './schema-changes.js';

function changesOf(before: unknown, after: unknown, direction: Direction = 'output', strictInputs = false): string[] {
  const found: SchemaChange[] = [];
  compareSchemas(before, after, { direction, strictInputs, locate: (pointer) => `body ${pointer}`, emit: (change) => found.push(change) });
  return found.map(({ severity, code, pointer }) => `${severity} ${code} ${pointer}`);
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

describe(compareSchemas.name, () => {
  it('should not compare what a $circular or $truncated marker stands for', () => {
    const cut = { ...object({ a: { type: 'string' } }), [SCHEMA_MARKERS.truncated]: 'Cut here' };
    expect(changesOf(object({ a: { type: 'string' }, b: { type: 'string' } }), cut)).toEqual([]);
    expect(changesOf(object({ node: { [SCHEMA_MARKERS.circular]: '#/components/schemas/Node' } }), object({ node: { type: 'string' } }))).toEqual([]);
  });

  it('should read the ways OpenAPI 3.0 and 3.1 write a nullable value as the same', () => {
    const forms = [{ type: 'string', nullable: true }, { type: ['string', 'null'] }, { anyOf: [{ type: 'string' }, { type: 'null' }] }];
    for (const a of forms) for (const b of forms) expect(changesOf(a, b)).toEqual([]);
    expect(changesOf({ type: 'string' }, forms[1])).toEqual(['breaking type-changed ']);
    expect(changesOf({ type: 'string' }, forms[1], 'input')).toEqual(['non-breaking type-relaxed ']);
  });

  it('should let an input widen and an output narrow its type', () => {
    expect(changesOf({ type: 'integer' }, { type: 'number' }, 'input')).toEqual(['non-breaking type-relaxed ']);
    expect(changesOf({ type: 'integer' }, { type: 'number' }, 'output')).toEqual(['breaking type-changed ']);
    expect(changesOf({ type: ['string', 'integer'] }, { type: 'string' }, 'output')).toEqual(['non-breaking type-relaxed ']);
  });

  it('should merge allOf parts, and leave unions it cannot pair alone', () => {
    const base = object({ id: { type: 'string' } }, ['id']);
    expect(changesOf({ allOf: [base, object({ name: { type: 'string' } })] }, { allOf: [base, object({})] })).toEqual(['breaking field-removed .name']);
    expect(changesOf({ oneOf: [object({ a: {} }), object({ b: {} })] }, { oneOf: [object({ a: {} })] })).toEqual([]);
  });

  it('should rate a removed input field by whether the API refuses fields it does not know', () => {
    const before = object({ a: { type: 'string' } });
    expect(changesOf(before, object({}), 'input')).toEqual(['info field-removed .a']);
    expect(changesOf(before, object({}), 'input', true)).toEqual(['breaking field-removed .a']);
    expect(changesOf(before, { ...object({}), additionalProperties: false }, 'input')).toEqual(['breaking field-removed .a']);
  });

  it('should stop at MAX_DEPTH levels of nesting', () => {
    const nested = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : object({ next: nested(levels - 1, leaf) }));
    expect(changesOf(nested(40, { type: 'string' }), nested(40, { type: 'integer' }))).toEqual([]);
    expect(changesOf(nested(3, { type: 'string' }), nested(3, { type: 'integer' }))).toEqual(['breaking type-changed .next.next.next']);
  });
});
