import { defaultSpecFormats } from './spec-formats.module.js';
import { SpecThreads, SpecThreadsBusyError } from './spec-threads.js';

const { all: formats } = defaultSpecFormats();

/**
 * Rings of schemas, each schema referring to the next and the last to the first: circular, and
 * valid. Resolving one costs in the square of its length (4 rings of 4,500: 5 s on a quiet core).
 */
function schemaRings(size: number, rings = 1) {
  const schemas: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  for (let ring = 0; ring < rings; ring += 1) {
    for (let i = 0; i < size; i += 1) {
      schemas[`Ring${ring}Node${i}`] = {
        type: 'object',
        description: `Node ${i}`,
        properties: { next: { $ref: `#/components/schemas/Ring${ring}Node${(i + 1) % size}` } },
      };
    }
    const schema = { $ref: `#/components/schemas/Ring${ring}Node0` };
    paths[`/rings/${ring}/nodes/{id}`] = {
      get: { summary: 'Read a node', responses: { 200: { description: 'The node', content: { 'application/json': { schema } } } } },
    };
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Rings', version: '1' }, paths, components: { schemas } });
}

const facts = { name: 'Ring', version: '1' };
const limits = { maxChunks: 5000, maxSchemas: 5000, maxEmbedChars: 2000 };

/** Runs the built worker (`npm test` builds `dist/` first). */
describe(SpecThreads.name, () => {
  let threads: SpecThreads;
  afterEach(async () => threads?.close());

  it('should index a spec of 2,000 schemas that refer to each other in a ring', async () => {
    threads = new SpecThreads({ threads: 1, queue: 4, timeoutMs: 120_000, formats });
    const result = await threads.run('chunksOf', { spec: schemaRings(2000), facts, limits });
    expect(result).toMatchObject({ warnings: [] });
    expect('chunks' in result && result.chunks.filter((chunk) => chunk.level === 'L3')).toHaveLength(2000);
  }, 180_000);

  it('should refuse a spec its $refs lead too deep into, with the reason', async () => {
    threads = new SpecThreads({ threads: 1, queue: 4, timeoutMs: 120_000, formats });
    await expect(threads.run('chunksOf', { spec: schemaRings(6000), facts, limits })).resolves.toEqual({
      refused: expect.stringMatching(/its \$refs lead more than 10,000 levels deep/),
    });
  }, 180_000);

  it('should refuse a spec it cannot read within the time budget, and go on with the next', async () => {
    threads = new SpecThreads({ threads: 1, queue: 4, timeoutMs: 2500, formats });
    await expect(threads.run('chunksOf', { spec: schemaRings(4500, 4), facts, limits })).resolves.toEqual({
      refused: 'Reading the spec took longer than 2.5 s (SPEC_TIMEOUT_MS): it is too large or too complex to index',
    });
    await expect(threads.run('operationsOf', { text: schemaRings(2) })).resolves.toMatchObject({
      operations: [{ method: 'GET', path: '/rings/0/nodes/{id}' }],
    });
  }, 60_000);

  it('should refuse a registration over the size limit as too large, and an unreadable one with the reason', async () => {
    threads = new SpecThreads({ threads: 1, queue: 4, timeoutMs: 30_000, formats });
    await expect(threads.run('checkRegistration', { spec: schemaRings(2), maxBytes: 100 })).resolves.toMatchObject({
      tooLarge: true,
      refused: expect.stringMatching(/the limit is 100 bytes \(SPEC_MAX_BYTES\)/),
    });
    await expect(threads.run('checkRegistration', { spec: 'a: [unclosed', maxBytes: 10_000 })).resolves.toEqual({
      refused: expect.stringMatching(/neither valid JSON nor valid YAML/),
    });
    await expect(threads.run('checkRegistration', { spec: { swagger: '2.0', info: {}, paths: {} }, maxBytes: 10_000 })).resolves.toEqual({
      text: '{"swagger":"2.0","info":{},"paths":{}}',
      kind: 'openapi',
    });
  }, 60_000);

  it('should refuse at once a spec beyond the queue while every thread is busy', async () => {
    threads = new SpecThreads({ threads: 1, queue: 1, timeoutMs: 120_000, formats });
    const big = schemaRings(3000);
    const running = [threads.run('chunksOf', { spec: big, facts, limits }), threads.run('chunksOf', { spec: big, facts, limits })];
    await expect(threads.run('operationsOf', { text: big })).rejects.toThrow(SpecThreadsBusyError);
    await Promise.all(running);
  }, 180_000);
});
