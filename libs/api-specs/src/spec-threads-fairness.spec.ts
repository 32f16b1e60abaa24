import { defaultSpecFormats } from './spec-formats.module.js';
import { SpecThreads, SpecThreadsBusyError } from './spec-threads.js';

// OpenAPI only: a new thread loads the formats it is given, and these tests time threads that start.
const formats = defaultSpecFormats().all.filter((format) => format.kind === 'openapi');

/** Rings of schemas each referring to the next: resolving one costs in the square of its length (8 rings of 4,500: about 10 s on a quiet core). */
function schemaRings(size: number, rings: number): string {
  const schemas: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  for (let ring = 0; ring < rings; ring += 1) {
    for (let i = 0; i < size; i += 1) {
      schemas[`Ring${ring}Node${i}`] = { type: 'object', properties: { next: { $ref: `#/components/schemas/Ring${ring}Node${(i + 1) % size}` } } };
    }
    const schema = { $ref: `#/components/schemas/Ring${ring}Node0` };
    paths[`/rings/${ring}`] = { get: { responses: { 200: { description: 'A node', content: { 'application/json': { schema } } } } } };
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Rings', version: '1' }, paths, components: { schemas } });
}

const heavy = { spec: schemaRings(4500, 8), facts: { name: 'Rings', version: '1' }, limits: { maxChunks: 5000, maxSchemas: 5000, maxEmbedChars: 2000 } };
const small = { text: schemaRings(2, 1) };
const smallOperations = { operations: [{ method: 'GET', path: '/rings/0' }] };

/** Runs the built worker (`npm test` builds `dist/` first). */
describe(`${SpecThreads.name} (fair share)`, () => {
  let threads: SpecThreads;
  afterEach(async () => threads?.destroy());

  it('should count only the time a spec runs against its time limit, never its wait for a thread', async () => {
    threads = new SpecThreads({ threads: 1, queue: 4, timeoutMs: 5000, maxWaitMs: 30_000, formats });
    const tooSlow = threads.run('chunksOf', heavy);
    // Waits the 5 s the one before it runs; then has 5 s of its own (a new thread, then a few ms).
    const waiting = threads.run('operationsOf', small);
    await expect(tooSlow).resolves.toEqual({ refused: expect.stringMatching(/took longer than 5 s \(SPEC_TIMEOUT_MS\)/) });
    await expect(waiting).resolves.toMatchObject(smallOperations);
  }, 60_000);

  it("should run another tenant's small spec at once while one tenant's large specs hold a thread and wait for it", async () => {
    threads = new SpecThreads({ threads: 2, threadsPerTenant: 1, queue: 4, timeoutMs: 30_000, formats });
    const finished: string[] = [];
    const run = (name: string, work: Promise<unknown>) => work.then(() => finished.push(name));
    const large = [run('a1', threads.run('chunksOf', heavy, { tenant: 'a' })), run('a2', threads.run('chunksOf', heavy, { tenant: 'a' }))];
    await expect(threads.run('operationsOf', small, { tenant: 'b' })).resolves.toMatchObject(smallOperations);
    expect(finished).toEqual([]);
    void Promise.allSettled(large);
  }, 60_000);

  it("should refuse a spec beyond its tenant's queue as busy, with a time to retry, and queue another tenant's", async () => {
    threads = new SpecThreads({ threads: 1, queue: 4, queuePerTenant: 1, timeoutMs: 30_000, formats });
    const running = [threads.run('chunksOf', heavy, { tenant: 'a' }), threads.run('chunksOf', heavy, { tenant: 'a' })];
    const refused = threads.run('operationsOf', small, { tenant: 'a' });
    await expect(refused).rejects.toThrow(SpecThreadsBusyError);
    await expect(refused).rejects.toMatchObject({ message: expect.stringMatching(/1 of its specs are waiting/), retryAfterSeconds: expect.any(Number) });
    const queued = threads.run('operationsOf', small, { tenant: 'b' });
    void Promise.allSettled([...running, queued]);
  }, 60_000);
});
