import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { loadGatewayConfig } from '#config';
import { InternalHeader, PROBLEM_CONTENT_TYPE } from '#contracts';
import { MAX_BODY_DEPTH } from '#http';
import { SPEC_LIMITS } from '#api-specs';
import { createGatewayApp } from '../apps/gateway/src/create-gateway-app.js';
import { isLoopbackAddress } from '../apps/gateway/src/auth/loopback.js';
import { IN_MEMORY } from './support/pglite-seed.js';
import { startStack, stackEnv, type TestStack } from './support/stack.js';

const ORG = 'acme';

/** JSON text of `depth` objects, one inside the other: as text, since JSON.stringify overflows on the deepest. */
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
const nestedArrays = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;

const tinySpec = (extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 'Weather', version: '1.0.0' },
  paths: { '/forecast': { get: { summary: 'Get the forecast', responses: { 200: { description: 'ok' } } } } },
  ...extra,
});

/** Objects nested so that the innermost one sits at `depth` in the spec: `assertSafeSpec` counts the document as 0. */
const deepExtension = (depth: number) => {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < depth; level += 1) value = { a: value };
  return value;
};

const tooDeep = (depth: number) => new RegExp(`^The request body is nested ${depth} levels deep; the limit is ${MAX_BODY_DEPTH}$`);

function expectProblem(response: { status: number; headers: Record<string, string>; body: { detail?: unknown } }, status: number, detail: RegExp): void {
  expect({ status: response.status, type: response.headers['content-type'], detail: response.body.detail }).toEqual({
    status,
    type: expect.stringContaining(PROBLEM_CONTENT_TYPE),
    detail: expect.stringMatching(detail),
  });
}

/** A request whose headers Node refuses before any handler runs: supertest would not show the answer as sent. */
async function fetchWithToken(url: string, tokenBytes: number): Promise<{ status: number; type: string | null; body: { detail?: string; status?: number } }> {
  const response = await fetch(`${url}/api-management/apis`, { headers: { authorization: `Bearer ${'a'.repeat(tokenBytes)}` } });
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as { detail?: string } };
}

/** Raw bytes that are not HTTP, and everything the server sends back before it closes the connection. */
function sendRaw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('bad input', () => {
  let stack: TestStack;
  let publisher: string;
  const http = () => request(stack.gateway.getHttpServer());
  const register = (body: string | object) =>
    http().post('/api-management/apis').set('authorization', `Bearer ${publisher}`).set('content-type', 'application/json').send(body);
  const search = (body: string | object) =>
    http().post('/api-management/ai/search').set('authorization', `Bearer ${publisher}`).set('content-type', 'application/json').send(body);

  beforeAll(async () => {
    // The hash provider: the few registrations here index in no time.
    stack = await startStack({ env: { EMBEDDINGS_PROVIDER: 'hash' } });
    publisher = await stack.token([ORG], ['reader', 'publisher']);
  });

  afterAll(async () => {
    await stack?.close();
  });

  describe('a body nested too deeply', () => {
    it('should refuse a spec object nested 10 000 deep with 400, saying how deep and the limit', async () => {
      const response = await register(`{"orgId":"${ORG}","name":"Deep","version":"1","spec":${nestedObjects(10_000)}}`);
      expectProblem(response, 400, tooDeep(10001));
    });

    it('should refuse a string field sent as arrays or objects nested 10 000 deep with 400', async () => {
      const asArrays = await register(`{"orgId":"${ORG}","name":${nestedArrays(10_000)},"version":"1","spec":"openapi: 3.0.3"}`);
      expectProblem(asArrays, 400, tooDeep(10001));
      const asObjects = await register(`{"orgId":"${ORG}","name":${nestedObjects(10_000)},"version":"1","spec":"openapi: 3.0.3"}`);
      expectProblem(asObjects, 400, tooDeep(10001));
    });

    it('should refuse search filters nested 5 000 deep with 400, not 503', async () => {
      const response = await search(`{"orgId":"${ORG}","query":"weather","filters":${nestedObjects(5000)}}`);
      expectProblem(response, 400, tooDeep(5001));
    });

    it('should refuse it in the AI app too, before its validation runs', async () => {
      const response = await request(stack.ai!.getHttpServer())
        .post('/search')
        .set(InternalHeader.ServiceToken, stack.aiConfig.serviceToken)
        .set('content-type', 'application/json')
        .send(`{"orgId":"${ORG}","query":${nestedArrays(100_000)}}`);
      expectProblem(response, 400, tooDeep(100001));
    });

    it('should validate a body nested right up to the limit in both apps, without overflowing', async () => {
      const name = await register(`{"orgId":"${ORG}","name":${nestedArrays(MAX_BODY_DEPTH - 1)},"version":"1","spec":"openapi: 3.0.3"}`);
      expectProblem(name, 400, /^name must be a string$/);
      const teamNames = await search(`{"orgId":"${ORG}","query":"weather","filters":{"teamNames":${nestedArrays(MAX_BODY_DEPTH - 2)}}}`);
      expectProblem(teamNames, 400, /teamNames must be a string/);
    });

    it('should still take a spec nested as deep as the spec checks allow, and leave deeper ones to them', async () => {
      const atLimit = await register({
        orgId: ORG,
        name: 'At the nesting limit',
        version: '1',
        spec: tinySpec({ 'x-deep': deepExtension(SPEC_LIMITS.maxDepth) }),
      });
      expect({ status: atLimit.status, detail: atLimit.body.detail }).toEqual({ status: 201, detail: undefined });
      const deeper = await register({
        orgId: ORG,
        name: 'Past the nesting limit',
        version: '1',
        spec: tinySpec({ 'x-deep': deepExtension(SPEC_LIMITS.maxDepth + 1) }),
      });
      expectProblem(deeper, 422, /nested more than 200 levels/);
    });
  });

  it.each(['1e20', '1e308', '1000001'])('should refuse page=%s with 400 naming the largest page', async (page) => {
    const response = await http().get(`/api-management/apis?orgId=${ORG}&page=${page}`).set('authorization', `Bearer ${publisher}`);
    expectProblem(response, 400, /^page must not be greater than 1000000$/);
  });

  it('should still list the last allowed page', async () => {
    const response = await http().get(`/api-management/apis?orgId=${ORG}&page=1000000`).set('authorization', `Bearer ${publisher}`);
    expect({ status: response.status, items: response.body.items }).toEqual({ status: 200, items: [] });
  });

  it.each([[[1, 2]], [[]], ['teams'], [7]])('should refuse search filters of %j with 400', async (filters) => {
    const response = await search({ orgId: ORG, query: 'weather', filters });
    expectProblem(response, 400, /^filters must be an object$/);
  });

  it.each([
    ['name', { name: '   ' }, /^name must not be blank$/],
    ['name', { name: '' }, /^name must not be blank$/],
    ['version', { version: ' \t\n ' }, /^version must not be blank$/],
  ])('should refuse a blank %s with 400', async (_field, blank, detail) => {
    const response = await register({ orgId: ORG, name: 'Weather', version: '1', spec: tinySpec(), ...blank });
    expectProblem(response, 400, detail);
  });

  it.each([
    ['name left out', { orgId: ORG, version: '1', spec: tinySpec() }, /^name is required$/],
    ['name null', { orgId: ORG, name: null, version: '1', spec: tinySpec() }, /^name is required$/],
    ['everything left out', {}, /^orgId is required; name is required; version is required; spec is required$/],
  ])('should answer a registration with %s with 400 saying what is required', async (_case, body, detail) => {
    expectProblem(await register(body), 400, detail);
  });

  it('should keep taking blank optional fields, stored as absent', async () => {
    const response = await register({ orgId: ORG, name: 'Weather blank team', version: '1', teamName: '  ', description: ' ', spec: tinySpec() });
    expect({ status: response.status, name: response.body.name, teamName: response.body.teamName, description: response.body.description }).toEqual({
      status: 201,
      name: 'Weather blank team',
      teamName: undefined,
      description: undefined,
    });
  });

  it.each([17 * 1024, 40 * 1024])('should answer a %d-byte token with 431 problem+json from both apps', async (tokenBytes) => {
    for (const url of [stack.url, (await stack.ai!.getUrl()).replace('[::1]', '127.0.0.1')]) {
      const response = await fetchWithToken(url, tokenBytes);
      expect({ url, ...response }).toEqual({
        url,
        status: 431,
        type: expect.stringContaining(PROBLEM_CONTENT_TYPE),
        body: expect.objectContaining({ status: 431, detail: 'The request headers are larger than 16 KB; a token this large is not accepted' }),
      });
    }
  });

  it('should answer a request that is not HTTP with 400 problem+json', async () => {
    const answer = await sendRaw(stack.url, 'HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain(`Content-Type: ${PROBLEM_CONTENT_TYPE}`);
    expect(answer).toContain('"detail":"The request is not valid HTTP"');
  });
});

describe(isLoopbackAddress.name, () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])('should take %s as this machine', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each(['192.0.2.2', '10.0.0.1', '128.0.0.1', '::2', 'fe80::1', '::ffff:192.0.2.2', '::ffff:10.0.0.1', 'localhost', '', undefined])(
    'should take %p as another machine',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(false);
    },
  );
});

describe('development sign-in from the network', () => {
  /** This machine's address on its network, when it has one. */
  const networkAddress = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;

  const gateways: INestApplication[] = [];

  /** A gateway with dev sign-in on, listening on every interface (startStack listens on loopback only). */
  async function startGateway(env: Record<string, string>): Promise<number> {
    const config = loadGatewayConfig(stackEnv({ env: { AUTH_DEV_LOGIN: 'true', ...env } }));
    const gateway = await createGatewayApp({ ...config, database: { ...config.database, ...IN_MEMORY } });
    gateways.push(gateway);
    await gateway.listen(0, '0.0.0.0');
    return (gateway.getHttpServer().address() as { port: number }).port;
  }

  const devToken = (host: string, port: number) =>
    fetch(`http://${host}:${port}/auth/dev-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orgs: [ORG], roles: ['admin'] }),
    });
  const devLoginOffered = async (host: string, port: number) =>
    ((await (await fetch(`http://${host}:${port}/auth/info`)).json()) as { devLogin: boolean }).devLogin;

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
  });

  it('should give tokens to callers on this machine only, and tell the others it is off', async () => {
    if (!networkAddress) {
      // No address but loopback on this machine: check the rule the gateway applies instead.
      expect([isLoopbackAddress('127.0.0.1'), isLoopbackAddress('192.0.2.2')]).toEqual([true, false]);
      return;
    }
    const port = await startGateway({});
    const remote = await devToken(networkAddress, port);
    expect({ status: remote.status, type: remote.headers.get('content-type'), body: await remote.json() }).toEqual({
      status: 403,
      type: expect.stringContaining(PROBLEM_CONTENT_TYPE),
      body: expect.objectContaining({ detail: expect.stringMatching(/only for callers on the gateway's own machine.*AUTH_DEV_LOGIN_REMOTE=true/) }),
    });
    expect(await devLoginOffered(networkAddress, port)).toBe(false);

    const local = await devToken('127.0.0.1', port);
    expect({ status: local.status, token: ((await local.json()) as { token?: unknown }).token }).toEqual({ status: 200, token: expect.any(String) });
    expect(await devLoginOffered('127.0.0.1', port)).toBe(true);
  });

  describe('a token request without orgs or roles', () => {
    let port: number;

    beforeAll(async () => {
      port = await startGateway({});
    });

    it.each([
      [{ orgs: [], roles: ['admin'] }, 'orgs needs at least one org'],
      [{ orgs: [ORG], roles: [] }, 'roles needs at least one role'],
      [{ orgs: [], roles: [] }, 'orgs needs at least one org; roles needs at least one role'],
      [{}, 'orgs is required; roles is required'],
    ])('should be refused (%j) with 400: %s', async (body, detail) => {
      const response = await fetch(`http://127.0.0.1:${port}/auth/dev-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect({ status: response.status, detail: ((await response.json()) as { detail?: unknown }).detail }).toEqual({ status: 400, detail });
    });
  });

  it('should give tokens to the network with AUTH_DEV_LOGIN_REMOTE=true', async () => {
    const host = networkAddress ?? '127.0.0.1';
    const port = await startGateway({ AUTH_DEV_LOGIN_REMOTE: 'true' });
    const response = await devToken(host, port);
    expect({ status: response.status, token: ((await response.json()) as { token?: unknown }).token }).toEqual({ status: 200, token: expect.any(String) });
    expect(await devLoginOffered(host, port)).toBe(true);
  });
});
