import request from 'supertest';
import { heavyOpenApi, smallOpenApi } from '../benchmarks/synthetic-specs.js';
import { startStack, type TestStack, until } from './support/stack.js';

/** Publishes a large API: its lint takes 16 s on a quiet core, each change report between its versions 2 s. */
const LARGE_ORG = 'warehouse-co';
/** Publishes a two-operation API meanwhile. */
const SMALL_ORG = 'notes-co';
const THIRD_ORG = 'third-co';

type Timed = { status: number; body: Record<string, unknown>; ms: number };

/**
 * Issue #39: no org holds up another at the gateway's spec threads. One org's large spec is
 * linted in the background and three more versions of it are compared as they are registered;
 * meanwhile another org's change report and registration of a small API answer at once. Before
 * the threads were shared by turns, the report waited for the lint (and failed once it waited
 * 60 s, blaming its own spec) and the registration for every comparison queued ahead of it.
 */
describe('Fair share of the spec threads', () => {
  let stack: TestStack;
  let large: string;
  let small: string;
  let notesId: string;
  const apis = '/api-management/apis';
  const as = (token: string) => ({
    get: (path: string) => request(stack.gateway.getHttpServer()).get(path).set('authorization', `Bearer ${token}`),
    post: (path: string, body: object) => request(stack.gateway.getHttpServer()).post(path).set('authorization', `Bearer ${token}`).send(body),
  });
  const timed = async (call: () => PromiseLike<{ status: number; body: Record<string, unknown> }>): Promise<Timed> => {
    const started = performance.now();
    const { status, body } = await call();
    return { status, body, ms: performance.now() - started };
  };
  const linted = async (token: string, apiId: string) =>
    ((await as(token).get(`${apis}/${apiId}/versions`).expect(200)).body.items as { version: string; lint?: object }[])
      .filter((item) => item.lint)
      .map((item) => item.version);

  beforeAll(async () => {
    // No AI app: indexing the large spec would take the cores this test is about.
    stack = await startStack({ withoutAi: true });
    large = await stack.token([LARGE_ORG], ['publisher']);
    small = await stack.token([SMALL_ORG], ['publisher']);
    // A third org registers at the same time, so that both of the registrations' threads are
    // started: a thread's start (1-2 s) is not what this test measures.
    const third = await stack.token([THIRD_ORG], ['publisher']);
    const [notes] = await Promise.all([
      as(small)
        .post(apis, { orgId: SMALL_ORG, name: 'Notes', version: '1', spec: smallOpenApi('1') })
        .expect(201),
      as(third)
        .post(apis, { orgId: THIRD_ORG, name: 'Notes', version: '1', spec: smallOpenApi('1') })
        .expect(201),
    ]);
    notesId = notes.body.apiId;
    await as(small)
      .post(`${apis}/${notesId}/versions`, { version: '2', spec: smallOpenApi('2', true) })
      .expect(201);
    // Its own background lints are done (and a spec thread has loaded Spectral) before the large org starts.
    await until(
      () => linted(small, notesId),
      (versions) => versions.length === 2,
      30_000,
    );
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("should answer another org's change report and registration at once while one org's large specs are linted and compared", async () => {
    const warehouse = await as(large)
      .post(apis, { orgId: LARGE_ORG, name: 'Warehouse', version: '1', spec: heavyOpenApi('1') })
      .expect(201);
    const warehouseId: string = warehouse.body.apiId;
    const adds = Promise.all(
      ['2', '3', '4'].map((version) => timed(() => as(large).post(`${apis}/${warehouseId}/versions`, { version, spec: heavyOpenApi(version) }))),
    );
    // Their checks take milliseconds; then their comparisons (seconds each) hold or wait for the registrations' threads.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const [report, registration] = await Promise.all([
      timed(() => as(small).get(`${apis}/${notesId}/changes?from=1&to=2`)),
      timed(() => as(small).post(`${apis}/${notesId}/versions`, { version: '3', spec: smallOpenApi('3') })),
    ]);
    const largeLinted = await linted(large, warehouseId);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ nonBreaking: 1, breaking: 0 });
    // The large spec's lint is still running: the report did not wait for it (it did, 16 s and more, before #39).
    expect(largeLinted).toEqual([]);
    expect(report.ms).toBeLessThan(10_000);

    const added = await adds;
    expect(added.map((add) => add.status)).toEqual([201, 201, 201]);
    expect(registration.status).toBe(201);
    // Three comparisons of the large org's, one at a time on its one thread; the small org's on the other.
    expect(registration.ms).toBeLessThan(Math.max(...added.map((add) => add.ms)) / 3);
  }, 90_000);
});
