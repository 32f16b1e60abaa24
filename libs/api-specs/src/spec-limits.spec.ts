import { describe, expect, it } from '@jest/globals';
import { SpecSource } from './formats/spec-source.js';
import { SpecError } from './spec-error.js';
import { defaultSpecFormats } from './spec-formats.module.js';
import { assertSafeSpec, SPEC_LIMITS } from './spec-limits.js';
import { checkRegistration, chunksOf } from './spec-tasks.js';
import { longStringBomb } from '../../../benchmarks/answer-bombs.js';

const CHARACTERS_REFUSAL = `The spec expands to more than ${SPEC_LIMITS.maxCharacters.toLocaleString('en-US')} characters (YAML aliases?)`;

function thrown(task: () => unknown): Error {
  try {
    task();
  } catch (error) {
    return error as Error;
  }
  throw new Error('nothing was thrown');
}

describe(assertSafeSpec.name, () => {
  it('should count characters as JSON.stringify writes them, every use of a shared value again', () => {
    const shared = 'x'.repeat((SPEC_LIMITS.maxCharacters - 16) / 2);
    const atTheLimit = { a: shared, bb: shared };
    expect(JSON.stringify(atTheLimit).length).toBe(SPEC_LIMITS.maxCharacters);
    expect(() => assertSafeSpec(atTheLimit)).not.toThrow();
    const overTheLimit = { a: shared, bbb: shared };
    expect(JSON.stringify(overTheLimit).length).toBe(SPEC_LIMITS.maxCharacters + 1);
    expect(thrown(() => assertSafeSpec(overTheLimit))).toEqual(new SpecError(CHARACTERS_REFUSAL));
  });

  it('should count keys at every use of the object that holds them', () => {
    const longKeys = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${i}`.padEnd(100_000, 'k'), 1]));
    const document = { openapi: '3.0.3', components: { examples: Array(6).fill(longKeys) } };
    expect(JSON.stringify(document).length).toBeGreaterThan(SPEC_LIMITS.maxCharacters);
    expect(thrown(() => assertSafeSpec(document)).message).toBe(CHARACTERS_REFUSAL);
  });

  it('should refuse an external $ref inside a vendor extension where the format resolves them there, and leave it alone elsewhere', () => {
    const spec = (extension: unknown) => ({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {}, 'x-source': extension });
    const deep = spec({ nested: [{ $ref: 'https://example.com/x.yaml' }] });
    expect(thrown(() => assertSafeSpec(deep, { extensionRefsResolved: true })).message).toBe(
      'External $ref "https://example.com/x.yaml" is not allowed: bundle the spec into one document',
    );
    expect(thrown(() => assertSafeSpec(spec({ $ref: 42 }), { extensionRefsResolved: true })).message).toMatch(/^External \$ref "42"/);
    expect(() => assertSafeSpec(spec({ $ref: '#/components/schemas/A' }), { extensionRefsResolved: true })).not.toThrow();
    // Real specs have them (RestBench's Spotify spec), and swagger-parser never follows them.
    expect(() => assertSafeSpec(deep)).not.toThrow();
  });
});

describe('the alias bomb of one long string', () => {
  const formats = defaultSpecFormats();

  it.each(['asyncapi', 'openapi'] as const)('should be refused by the characters it expands to, in the %s format and when its format is detected', (kind) => {
    const bomb = longStringBomb(kind);
    expect(bomb.length).toBeLessThan(17_500);
    const started = performance.now();
    expect(thrown(() => formats.read(bomb, kind))).toEqual(new SpecError(CHARACTERS_REFUSAL));
    expect(thrown(() => formats.read(bomb))).toEqual(new SpecError(CHARACTERS_REFUSAL));
    // Refused while walking the first few megabytes of its gigabyte.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('should be refused by the source before any format sees it: detection finds no object', () => {
    const source = new SpecSource(longStringBomb('asyncapi'));
    expect(source.object()).toBeUndefined();
    expect(thrown(() => source.parsed()).message).toBe(CHARACTERS_REFUSAL);
  });

  it('should be refused at registration (a 422 reason) and by the worker, which never models it', async () => {
    const bomb = longStringBomb('asyncapi');
    expect(checkRegistration(formats, { spec: bomb, maxBytes: 10 * 1024 * 1024 })).toEqual({ refused: CHARACTERS_REFUSAL });
    const facts = { name: 'Bomb', version: '1' };
    await expect(chunksOf(formats, { spec: bomb, format: 'asyncapi', facts, limits: undefined as never })).resolves.toEqual({ refused: CHARACTERS_REFUSAL });
  });

  it('should let a YAML spec that reuses its anchors a few times through', () => {
    const schema = `{type: object, properties: {id: {type: string, description: "${'d'.repeat(1000)}"}}}`;
    const paths = Array.from(
      { length: 200 },
      (_, i) => `  /things/${i}:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: *thing}}}`,
    ).join('\n');
    const yaml = `openapi: 3.0.3\ninfo: {title: Anchors, version: "1"}\ncomponents:\n  schemas:\n    Thing: &thing ${schema}\npaths:\n${paths}\n`;
    expect(formats.read(yaml).format.kind).toBe('openapi');
  });
});

describe('an external $ref in a vendor extension', () => {
  const extension = { 'x-source': { $ref: 'http://169.254.169.254/latest/meta-data/' } };

  it('should be refused in an AsyncAPI document when read (at registration), before @asyncapi/parser could resolve it', () => {
    const document = { asyncapi: '2.6.0', info: { title: 'x', version: '1' }, channels: {}, ...extension };
    expect(checkRegistration(defaultSpecFormats(), { spec: document, maxBytes: 1024 * 1024 })).toEqual({
      refused: 'External $ref "http://169.254.169.254/latest/meta-data/" is not allowed: bundle the spec into one document',
    });
  });

  it('should pass in an OpenAPI document, whose parser never resolves extensions', () => {
    const document = { openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: {}, components: extension };
    expect(checkRegistration(defaultSpecFormats(), { spec: document, maxBytes: 1024 * 1024 })).toMatchObject({ kind: 'openapi' });
  });
});
