import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { largeSpec } from '../benchmarks/synthetic-specs.js';
import { startStack, type TestStack } from './support/stack.js';

const ORG = 'acme';
/** The spec's size: what makes a fetch worth bounding (several MB held, then parsed on a spec thread). */
const SPEC_BYTES = 2 * 1024 * 1024;
const IMPORT_TIMEOUT_MS = 4000;

/**
 * A spec server on 127.0.0.1 that holds `/large.json` answers until the gate opens, so that what
 * the gateway admitted is still in flight while the rest arrive; it counts the bodies it sent.
 */
async function gatedSpecServer(spec: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { requested: 0, bodiesSent: 0, closedEarly: 0 };
  const server: Server = createServer((req: IncomingMessage, res) => {
    if (req.url === '/small.json') {
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ openapi: '3.0.3', info: { title: 'Small', version: '1' }, paths: {} }));
    }
    if (req.url === '/missing.json') return void res.writeHead(404).end();
    state.requested += 1;
    res.on('close', () => {
      if (!res.writableFinished) state.closedEarly += 1;
    });
    if (req.url === '/hang') return; // never answers
    void gate.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end(spec, () => (state.bodiesSent += 1)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, state, open };
}

/**
 * Imports from a URL are bounded before anything is fetched (issue #39): per caller
 * (IMPORT_MAX_IN_FLIGHT_PER_CALLER, 429) and in all (IMPORT_MAX_IN_FLIGHT, 503), both with
 * Retry-After; a slot is held until the spec is checked and stored, and freed on every path.
 */
describe('Bounded imports from a URL', () => {
  let stack: TestStack;
  let specs: Awaited<ReturnType<typeof gatedSpecServer>>;
  const tokens = new Map<string, string>();

  const token = async (sub: string) => tokens.get(sub) ?? tokens.set(sub, await stack.token([ORG], ['publisher'], { sub })).get(sub)!;
  const at = (path: string) => `http://127.0.0.1:${specs.port}${path}`;
  const importAs = async (sub: string, name: string, path: string, signal?: AbortSignal) => {
    const started = Date.now();
    const response = await fetch(`${stack.url}/api-management/apis/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await token(sub)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orgId: ORG, url: at(path), name }),
      signal,
    });
    const body = (await response.json()) as { detail?: string };
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      type: response.headers.get('content-type'),
      body,
      ms: Date.now() - started,
    };
  };
  const healthzMs = async () => {
    const started = Date.now();
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    return Date.now() - started;
  };

  beforeAll(async () => {
    specs = await gatedSpecServer(largeSpec(SPEC_BYTES));
    stack = await startStack({
      withoutAi: true,
      env: {
        IMPORT_ALLOWED_HOSTS: `127.0.0.1:${specs.port}`,
        IMPORT_TIMEOUT_MS: String(IMPORT_TIMEOUT_MS),
        IMPORT_MAX_IN_FLIGHT: '4',
        IMPORT_MAX_IN_FLIGHT_PER_CALLER: '2',
      },
    });
  }, 120_000);

  afterAll(async () => {
    specs?.open();
    await stack?.close();
    specs?.server.closeAllConnections();
    specs?.server.close();
  });

  it('should refuse 16 of 20 concurrent imports at once with 429 or 503 and Retry-After, fetch only 4 bodies, and answer /healthz meanwhile', async () => {
    const callers = Array.from({ length: 10 }, (_, i) => `caller-${i}`);
    await Promise.all(['ann', ...callers].map(token));
    const settled: Awaited<ReturnType<typeof importAs>>[] = [];
    const start = (sub: string, name: string) => void importAs(sub, name, '/large.json').then((result) => settled.push(result));
    // One caller's 10 at once: 2 admitted, 8 past its own bound.
    for (let i = 0; i < 10; i++) start('ann', `Mine ${i}`);
    await until(() => settled.length >= 8);
    // Then 10 callers' one each: 2 more fill the gateway's 4, 8 past it.
    callers.forEach((sub) => start(sub, `Other ${sub}`));
    await until(() => settled.length >= 16);

    // Everything refused was refused before the server was asked, let alone sent a byte.
    expect(specs.state).toMatchObject({ requested: 4, bodiesSent: 0 });
    const refused = settled.slice(0, 16);
    const byStatus = (status: number) => refused.filter((result) => result.status === status);
    expect(byStatus(429)).toHaveLength(8);
    expect(byStatus(503)).toHaveLength(8);
    expect(byStatus(429).every((result) => result.retryAfter === '5' && /IMPORT_MAX_IN_FLIGHT_PER_CALLER/.test(result.body.detail ?? ''))).toBe(true);
    expect(byStatus(503).every((result) => result.retryAfter === '2' && /IMPORT_MAX_IN_FLIGHT\)/.test(result.body.detail ?? ''))).toBe(true);
    expect(refused.every((result) => result.type?.startsWith('application/problem+json'))).toBe(true);
    expect(await healthzMs()).toBeLessThan(500);

    specs.open();
    const healthz: number[] = [];
    while (settled.length < 20) {
      healthz.push(await healthzMs());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const admitted = settled.slice(16);
    expect(admitted.map((result) => result.status)).toEqual([201, 201, 201, 201]);
    expect(specs.state.bodiesSent).toBe(4);
    // The four specs are checked on the spec threads, stored meanwhile: the event loop still answers.
    expect(Math.max(...healthz)).toBeLessThan(2000);
  });

  it('should free a slot when a fetch fails, times out, or its client goes away', async () => {
    // Failed fetches, one after the other: a slot that stayed taken would make the third a 429.
    for (const name of ['Gone 1', 'Gone 2', 'Gone 3']) expect((await importAs('bob', name, '/missing.json')).status).toBe(422);

    // Two that time out hold both of cy's slots until IMPORT_TIMEOUT_MS, then free them.
    const hanging = [importAs('cy', 'Hang 1', '/hang'), importAs('cy', 'Hang 2', '/hang')];
    await until(() => specs.state.requested >= 6);
    expect((await importAs('cy', 'Too many', '/small.json')).status).toBe(429);
    expect((await Promise.all(hanging)).map((result) => result.status)).toEqual([504, 504]);
    expect((await importAs('cy', 'After the timeouts', '/small.json')).status).toBe(201);

    // A client that leaves: the gateway stops its fetch at once, well before the timeout.
    const leaving = new AbortController();
    const left = [importAs('dee', 'Left 1', '/hang', leaving.signal), importAs('dee', 'Left 2', '/hang', leaving.signal)].map((answer) =>
      answer.catch(() => 'aborted'),
    );
    await until(() => specs.state.requested >= 8);
    const closedBefore = specs.state.closedEarly;
    leaving.abort();
    expect(await Promise.all(left)).toEqual(['aborted', 'aborted']);
    await until(() => specs.state.closedEarly >= closedBefore + 2);
    const after = await importAs('dee', 'After leaving', '/small.json');
    expect(after.status).toBe(201);
    expect(after.ms).toBeLessThan(IMPORT_TIMEOUT_MS);
  });
});

/** Waits for `done` by polling every 20 ms (what is awaited is another process's or socket's doing). */
async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !done();) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
