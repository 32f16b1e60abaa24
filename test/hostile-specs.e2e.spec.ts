import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { hostileSpecs } from './fixtures/hostile/hostile-specs.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const SPEC_MAX_BYTES = 10 * 1024 * 1024;

/** A stack trace or a path of this server, which no answer or status may show. */
function internals(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return (
    [/\n/, /node_modules/, /\s+at\s+\S+\s+\(/, /:\d+:\d+\b/].find((pattern) => pattern.test(text))?.source ??
    (text.includes(process.cwd()) ? 'the working directory' : undefined)
  );
}

describe('Hostile and broken specs', () => {
  let stack: TestStack;
  let canary: Server;
  let canaryHits = 0;
  let publisher: string;
  const cases = () => hostileSpecs({ canaryUrl: `http://127.0.0.1:${(canary.address() as AddressInfo).port}`, specMaxBytes: SPEC_MAX_BYTES });

  beforeAll(async () => {
    // Any request here means a spec made the platform reach out.
    canary = createServer((_request, response) => {
      canaryHits += 1;
      response.end('{}');
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    // hash: what is tested is how specs are refused, failed or indexed, not what search finds.
    stack = await startStack({ env: { SPEC_MAX_BYTES: String(SPEC_MAX_BYTES) } });
    publisher = await stack.token([ORG], ['publisher']);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    if (canary?.listening) await new Promise((resolve) => canary.close(resolve));
  });

  it('should hold at least 60 cases', () => {
    expect(cases().length).toBeGreaterThanOrEqual(60);
  });

  it('should refuse each with a clear 4xx, or end it FAILED with the reason, or index it — and stay healthy', async () => {
    const accepted: { name: string; apiId: string; expect: ReturnType<typeof cases>[number]['expect'] }[] = [];
    for (const [index, hostile] of cases().entries()) {
      const response = await request(stack.gateway.getHttpServer())
        .post('/api-management/apis')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: ORG, name: `Hostile ${index}`, version: '1', spec: hostile.spec });
      const seen = { name: hostile.name, status: response.status, detail: response.body?.detail };
      expect({ name: hostile.name, internals: internals(seen.detail) }).toEqual({ name: hostile.name, internals: undefined });
      if ('refused' in hostile.expect) {
        expect(seen).toEqual({ name: hostile.name, status: hostile.expect.refused, detail: expect.stringMatching(hostile.expect.reason) });
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      } else {
        expect(seen).toMatchObject({ name: hostile.name, status: 201 });
        accepted.push({ name: hostile.name, apiId: response.body.apiId, expect: hostile.expect });
      }
    }

    for (const { name, apiId, expect: outcome } of accepted) {
      const status = await waitForStatus(stack, publisher, apiId, ['COMPLETED', 'FAILED'], 120_000);
      expect({ name, internals: internals(status.error) }).toEqual({ name, internals: undefined });
      if ('failed' in outcome)
        expect({ name, status: status.status, error: status.error }).toEqual({ name, status: 'FAILED', error: expect.stringMatching(outcome.failed) });
      else expect({ name, status: status.status, error: status.error }).toEqual({ name, status: 'COMPLETED', error: undefined });
    }

    expect(canaryHits).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The worker and the API are still fine: a normal spec goes through, and the stack is ready.
    const normal = await request(stack.gateway.getHttpServer())
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({
        orgId: ORG,
        name: 'After the storm',
        version: '1',
        spec: {
          openapi: '3.0.3',
          info: { title: 'Calm', version: '1' },
          paths: { '/calm': { get: { summary: 'Stay calm', responses: { 200: { description: 'ok' } } } } },
        },
      });
    await expect(waitForStatus(stack, publisher, normal.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
    expect((await request(stack.gateway.getHttpServer()).get('/readyz')).status).toBe(200);
  }, 300_000);
});
