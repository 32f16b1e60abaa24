import { SCHEMA_MARKERS } from '#contracts';
import { compareSchemas, type Direction, type SchemaChange } from './schema-changes.js';

/** Changes as `severity code pointer`, and each gap as `gap pointer: reason`. */
function changesOf(before: unknown, after: unknown, direction: Direction = 'output', strictInputs = false, nodes = 100_000): string[] {
  const found: string[] = [];
  compareSchemas(before, after, {
    direction,
    strictInputs,
    budget: { nodes },
    locate: (pointer) => `body ${pointer}`,
    emit: ({ severity, code, pointer }: SchemaChange) => found.push(`${severity} ${code} ${pointer}`),
    gap: (pointer, reason) => found.push(`gap ${pointer}: ${reason}`),
  });
  return found;
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

describe(compareSchemas.name, () => {
  it('should leave a $truncated cut to the operation, and name a recursive schema that changed as not compared', () => {
    const cut = { ...object({ a: { type: 'string' } }), [SCHEMA_MARKERS.truncated]: 'Cut here' };
    expect(changesOf(object({ a: { type: 'string' }, b: { type: 'string' } }), cut)).toEqual([]);
    const node = { [SCHEMA_MARKERS.circular]: '#/components/schemas/Node' };
    expect(changesOf(object({ node }), object({ node }))).toEqual([]);
    expect(changesOf(object({ node }), object({ node: { type: 'string' } }))).toEqual([
      'gap .node: a recursive schema changed what it refers to: not compared',
    ]);
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

  it('should merge allOf parts, and name a union it cannot pair as not compared unless it is unchanged', () => {
    const base = object({ id: { type: 'string' } }, ['id']);
    expect(changesOf({ allOf: [base, object({ name: { type: 'string' } })] }, { allOf: [base, object({})] })).toEqual(['breaking field-removed .name']);
    const union = { oneOf: [object({ a: {} }), object({ b: {} })] };
    expect(changesOf(union, { oneOf: [object({ a: {} })] })).toEqual(['gap : a union (oneOf, anyOf) or a `not` changed: its variants are not compared']);
    // The same union with its keys in another order is unchanged.
    expect(changesOf(union, { oneOf: [{ properties: { a: {} }, required: [], type: 'object' }, object({ b: {} })] })).toEqual([]);
  });

  it('should rate a removed input field by whether the API refuses fields it does not know', () => {
    const before = object({ a: { type: 'string' } });
    expect(changesOf(before, object({}), 'input')).toEqual(['info field-removed .a']);
    expect(changesOf(before, object({}), 'input', true)).toEqual(['breaking field-removed .a']);
    expect(changesOf(before, { ...object({}), additionalProperties: false }, 'input')).toEqual(['breaking field-removed .a']);
  });

  it('should name a difference past MAX_DEPTH levels of nesting as not compared', () => {
    const nested = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : object({ next: nested(levels - 1, leaf) }));
    const deep = changesOf(nested(40, { type: 'string' }), nested(40, { type: 'integer' }));
    expect(deep).toEqual([`gap ${'.next'.repeat(33)}: nested deeper than 32 levels: not compared`]);
    expect(changesOf(nested(40, { type: 'string' }), nested(40, { type: 'string' }))).toEqual([]);
    expect(changesOf(nested(3, { type: 'string' }), nested(3, { type: 'integer' }))).toEqual(['breaking type-changed .next.next.next']);
  });

  it('should say where the node budget ran out, once, and compare nothing after it', () => {
    const wide = (type: string) => object(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, { type }])));
    expect(changesOf(wide('string'), wide('integer'), 'output', false, 4)).toEqual([
      'breaking type-changed .f0',
      'breaking type-changed .f1',
      'breaking type-changed .f2',
      "gap .f3: the comparison's budget of schema nodes ran out here: this schema and the ones after it are not compared",
    ]);
  });
});
