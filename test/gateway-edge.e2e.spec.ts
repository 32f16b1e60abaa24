import { request as httpRequest } from 'node:http';
import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { TestIdentityProvider } from './support/identity-provider.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const OTHER_ORG = 'globex';

const tinySpec = (title: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title, version: '1.0.0', description: 'Looks up the weather forecast for a city' },
    paths: {
      '/forecast/{city}': {
        get: {
          summary: 'Get the forecast of a city',
          parameters: [{ name: 'city', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'The forecast' } },
        },
      },
    },
  });

/** Who calls: every kind of bad token, a member of another org with every role, and each role of the org. */
const PRINCIPALS = ['none', 'expired', 'badSignature', 'wrongIssuer', 'wrongAudience', 'otherOrg', 'reader', 'publisher', 'admin'] as const;
type Principal = (typeof PRINCIPALS)[number];

interface Fixture {
  /** An API of ORG for reads. */
  apiId: string;
  /** A re-index run of ORG. */
  reindexId: string;
  /** A fresh API of ORG, for a call that changes or deletes it. */
  freshApiId(): Promise<string>;
}

interface Route {
  name: string;
  call(http: () => request.Agent | ReturnType<typeof request>, fixture: Fixture, token?: string): Promise<request.Response>;
  expected: Record<Principal, number>;
}

const UNAUTHENTICATED = { none: 401, expired: 401, badSignature: 401, wrongIssuer: 401, wrongAudience: 401 } as const;

const withToken = (test: request.Test, token?: string) => (token ? test.set('authorization', `Bearer ${token}`) : test);
let counter = 0;

/** Every /api-management/** route, and the status each principal must get. */
const ROUTES: Route[] = [
  {
    name: 'POST /api-management/apis',
    call: (http, _f, token) =>
      withToken(http().post('/api-management/apis'), token).send({ orgId: ORG, name: `Weather ${++counter}`, version: '1', spec: tinySpec('Weather') }),
    expected: { ...UNAUTHENTICATED, otherOrg: 403, reader: 403, publisher: 201, admin: 201 },
  },
  {
    name: 'GET /api-management/apis?orgId',
    call: (http, _f, token) => withToken(http().get(`/api-management/apis?orgId=${ORG}`), token),
    expected: { ...UNAUTHENTICATED, otherOrg: 403, reader: 200, publisher: 200, admin: 200 },
  },
  {
    name: 'GET /api-management/apis/:apiId',
    call: (http, f, token) => withToken(http().get(`/api-management/apis/${f.apiId}`), token),
    expected: { ...UNAUTHENTICATED, otherOrg: 404, reader: 200, publisher: 200, admin: 200 },
  },
  {
    name: 'GET /api-management/apis/:apiId/endpoints',
    call: (http, f, token) => withToken(http().get(`/api-management/apis/${f.apiId}/endpoints`), token),
    expected: { ...UNAUTHENTICATED, otherOrg: 404, reader: 200, publisher: 200, admin: 200 },
  },
  {
    name: 'PUT /api-management/apis/:apiId',
    call: async (http, f, token) =>
      withToken(http().put(`/api-management/apis/${await f.freshApiId()}`), token).send({
        orgId: ORG,
        name: `Weather ${++counter}`,
        version: '2',
        spec: tinySpec('Weather v2'),
      }),
    expected: { ...UNAUTHENTICATED, otherOrg: 404, reader: 403, publisher: 200, admin: 200 },
  },
  {
    name: 'DELETE /api-management/apis/:apiId',
    call: async (http, f, token) => withToken(http().delete(`/api-management/apis/${await f.freshApiId()}`), token),
    expected: { ...UNAUTHENTICATED, otherOrg: 404, reader: 403, publisher: 204, admin: 204 },
  },
  {
    name: 'POST /api-management/ai/search',
    call: (http, _f, token) => withToken(http().post('/api-management/ai/search'), token).send({ orgId: ORG, query: 'weather forecast' }),
    expected: { ...UNAUTHENTICATED, otherOrg: 403, reader: 200, publisher: 200, admin: 200 },
  },
  {
    name: 'GET /api-management/ai/indexing-status/:apiId',
    call: (http, f, token) => withToken(http().get(`/api-management/ai/indexing-status/${f.apiId}`), token),
    expected: { ...UNAUTHENTICATED, otherOrg: 404, reader: 200, publisher: 200, admin: 200 },
  },
  {
    name: 'POST /api-management/ai/admin/reindex',
    call: (http, f, token) => withToken(http().post('/api-management/ai/admin/reindex'), token).send({ apiIds: [f.apiId] }),
    expected: { ...UNAUTHENTICATED, otherOrg: 404, reader: 403, publisher: 403, admin: 202 },
  },
  {
    name: 'GET /api-management/ai/admin/reindex/:reindexId',
    call: (http, f, token) => withToken(http().get(`/api-management/ai/admin/reindex/${f.reindexId}`), token),
    expected: { ...UNAUTHENTICATED, otherOrg: 404, reader: 403, publisher: 403, admin: 200 },
  },
  {
    // Which models exist is no org's secret; an admin of any org may see it (failures only of their orgs).
    name: 'GET /api-management/ai/admin/embedding-models',
    call: (http, _f, token) => withToken(http().get('/api-management/ai/admin/embedding-models'), token),
    expected: { ...UNAUTHENTICATED, otherOrg: 200, reader: 403, publisher: 403, admin: 200 },
  },
  {
    // The platform's kinds, the same for every org.
    name: 'GET /api-management/kinds',
    call: (http, _f, token) => withToken(http().get('/api-management/kinds'), token),
    expected: { ...UNAUTHENTICATED, otherOrg: 200, reader: 200, publisher: 200, admin: 200 },
  },
];

describe('Gateway edge: identity provider tokens, roles and tenancy on every route', () => {
  const idp = new TestIdentityProvider();
  let stack: TestStack;
  let http: () => ReturnType<typeof request>;
  const tokens = {} as Record<Principal, string | undefined>;
  let fixture: Fixture;

  beforeAll(async () => {
    await idp.start();
    await idp.addKey('rsa', 'RS256');
    await idp.addKey('ec', 'ES256');
    await idp.addKey('unpublished', 'RS256');
    idp.publish('rsa', 'ec');
    // hash: the one search that ranks asks in the words of the operation it must find.
    stack = await startStack({ env: { AUTH_JWKS_URL: idp.jwksUrl, AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience } });
    http = () => request(stack.gateway.getHttpServer());

    const member = (roles: string[], kid = 'rsa') => idp.sign({ kid, sub: `${roles.join('+')}@${ORG}`, orgs: [ORG], roles });
    Object.assign(tokens, {
      none: undefined,
      expired: await idp.sign({ orgs: [ORG], roles: ['admin'], expiresIn: -3600 }),
      badSignature: await idp.sign({ kid: 'unpublished', orgs: [ORG], roles: ['admin'] }),
      wrongIssuer: await idp.sign({ orgs: [ORG], roles: ['admin'], issuer: 'https://another-idp.test/' }),
      wrongAudience: await idp.sign({ orgs: [ORG], roles: ['admin'], audience: 'another-service' }),
      otherOrg: await idp.sign({ sub: `admin@${OTHER_ORG}`, orgs: [OTHER_ORG], roles: ['reader', 'publisher', 'admin'] }),
      reader: await member(['reader'], 'ec'),
      publisher: await member(['publisher']),
      admin: await member(['admin']),
    });

    const create = async () => {
      const created = await http()
        .post('/api-management/apis')
        .set('authorization', `Bearer ${tokens.admin}`)
        .send({ orgId: ORG, name: `Fixture ${++counter}`, version: '1', spec: tinySpec('Weather fixture') });
      expect(created.status).toBe(201);
      return created.body.apiId as string;
    };
    const apiId = await create();
    await waitForStatus(stack, tokens.admin!, apiId);
    const run = await http().post('/api-management/ai/admin/reindex').set('authorization', `Bearer ${tokens.admin}`).send({ orgId: ORG });
    expect(run.status).toBe(202);
    fixture = { apiId, reindexId: run.body.reindexId, freshApiId: create };
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    await idp.stop();
  });

  for (const route of ROUTES) {
    for (const principal of PRINCIPALS) {
      it(`${route.name} as ${principal} → ${route.expected[principal]}`, async () => {
        const response = await route.call(http, fixture, tokens[principal]);
        expect({ status: response.status, detail: response.body?.detail }).toMatchObject({ status: route.expected[principal] });
        if (response.status >= 400) {
          expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(response.body).toMatchObject({ status: response.status, instance: response.headers['x-request-id'] });
        }
      });
    }
  }

  it('should pass the request id on to the search service and return it in its errors', async () => {
    const response = await http()
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${tokens.reader}`)
      .set('x-request-id', 'trace-1234')
      .send({ orgId: ORG, query: 'weather', maxResults: 500 });
    expect(response.status).toBe(400);
    expect(response.headers['x-request-id']).toBe('trace-1234');
    // Written by the AI app: the id crossed the hop.
    expect(response.body).toMatchObject({ instance: 'trace-1234', detail: expect.stringContaining('maxResults') });
  });

  it('should set security headers and leave CORS off by default', async () => {
    const response = await http().get('/healthz').set('origin', 'https://somewhere.example');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('should serve its own OpenAPI document, valid, with every route and the problem responses', async () => {
    const response = await http().get('/docs/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body;
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const route of ROUTES) {
      const [method, path] = route.name.split(' ');
      expect(operations).toContain(`${method} ${path.split('?')[0].replace(/:(\w+)/g, '{$1}')}`);
    }
    expect(document.paths['/api-management/apis'].post.responses['422'].content['application/problem+json']).toBeDefined();
    expect(document.components.schemas.SearchResponseDoc).toBeDefined();
    expect((await http().get('/docs')).text).toContain('swagger-ui');
  });

  it('should index its own OpenAPI document and find it', async () => {
    const document = (await http().get('/docs/openapi.json')).body;
    const created = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${tokens.publisher}`)
      .send({ orgId: ORG, name: 'API discovery platform', version: '1', spec: document });
    expect(created.status).toBe(201);
    await expect(waitForStatus(stack, tokens.reader!, created.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
    const found = await http()
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${tokens.reader}`)
      .send({ orgId: ORG, query: 're-index the APIs of an org' });
    expect(found.body.results[0]).toMatchObject({ apiId: created.body.apiId });
    expect(found.body.results[0].endpoints[0]).toMatchObject({ method: 'POST', path: '/api-management/ai/admin/reindex' });
  });
});

/**
 * Sends a JSON body of `total` bytes to the gateway, its length declared or chunked: all of it,
 * or only the first `only` bytes, the request then left open; resolves with the answer (or
 * rejects after 10 s without one). A gateway that answers a request left open has not waited
 * for the rest of its body.
 */
function sendBody(base: string, method: string, path: string, total: number, { declared = true, only = total } = {}) {
  return new Promise<{ status: number; type?: string; detail?: string }>((resolve, reject) => {
    const headers = { 'content-type': 'application/json', ...(declared ? { 'content-length': String(total) } : {}) };
    const outgoing = httpRequest(new URL(path, base), { method, headers }, (response) => {
      clearTimeout(timer);
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => (text += part));
      response.on('end', () => {
        outgoing.destroy();
        resolve({ status: response.statusCode!, type: response.headers['content-type'], detail: JSON.parse(text || '{}').detail });
      });
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      reject(new Error(`no answer to ${method} ${path} after ${only} of ${total} bytes`));
    }, 10_000);
    outgoing.on('error', (error) => reject(error));
    outgoing.write(`{"pad":"${'x'.repeat(Math.max(0, only - 8))}`);
    if (only === total) outgoing.end();
  });
}

describe('Gateway edge: limits and CORS', () => {
  let stack: TestStack;
  let http: () => ReturnType<typeof request>;

  beforeAll(async () => {
    // Its own stack, with no AI app: a budget of 3 requests a minute would stop the matrix above.
    stack = await startStack({
      withoutAi: true,
      env: { RATE_LIMIT_PER_MINUTE: '3', CORS_ORIGINS: 'https://ui.example', SPEC_MAX_BYTES: '2048' },
    });
    http = () => request(stack.gateway.getHttpServer());
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should answer 429 with Retry-After once a caller has used its budget, and count each caller apart', async () => {
    const busy = await stack.token([ORG], ['reader'], { sub: 'busy' });
    for (let i = 0; i < 3; i += 1) {
      const response = await http().get('/api-management/apis').set('authorization', `Bearer ${busy}`);
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await http().get('/api-management/apis').set('authorization', `Bearer ${busy}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(limited.body.detail).toMatch(/at most 3 requests per minute/);

    const other = await stack.token([ORG], ['reader'], { sub: 'calm' });
    expect((await http().get('/api-management/apis').set('authorization', `Bearer ${other}`)).status).toBe(200);
    expect((await http().get('/healthz')).status).toBe(200);
  });

  it("should share a caller's budget across gateways of one Redis", async () => {
    // A second gateway: the same Redis keys and token secret, its own process state.
    const twin = await startStack({
      withoutAi: true,
      env: { RATE_LIMIT_PER_MINUTE: '3', QUEUE_PREFIX: stack.gatewayConfig.redis.queuePrefix, AUTH_JWT_SECRET: stack.gatewayConfig.auth.jwtSecret! },
    });
    try {
      const shared = await stack.token([ORG], ['reader'], { sub: 'shared' });
      const list = (on: TestStack) => request(on.gateway.getHttpServer()).get('/api-management/apis').set('authorization', `Bearer ${shared}`);
      expect((await list(stack)).status).toBe(200);
      expect((await list(twin)).status).toBe(200);
      const third = await list(stack);
      expect(third.status).toBe(200);
      expect(third.headers['ratelimit-remaining']).toBe('0');
      // The fourth request of the minute, through the other gateway.
      expect((await list(twin)).status).toBe(429);
    } finally {
      await twin.close();
    }
  });

  it('should refuse a spec over the limit with 413 naming the limit', async () => {
    const publisher = await stack.token([ORG], ['publisher'], { sub: 'big' });
    const spec = JSON.stringify({ openapi: '3.0.3', info: { title: 'Big', version: '1', description: 'x'.repeat(4000) }, paths: {} });
    const response = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Big', version: '1', spec });
    expect(response.status).toBe(413);
    expect(response.body.detail).toContain('2048 bytes');

    const huge = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ orgId: ORG, name: 'Huge', version: '1', spec: 'y'.repeat(200_000) }));
    expect(huge.status).toBe(413);
    expect(huge.body.detail).toMatch(/limit of [\d,]+ bytes/);
  });

  it('should refuse a 12 MB body to feedback with 413 at once, without waiting for the rest of it, declared or chunked', async () => {
    // 64 KB of a declared 12 MB (the rest never sent), and 128 KB of a chunked body: answered all the same.
    for (const [declared, only] of [
      [true, 64 * 1024],
      [false, 128 * 1024],
    ] as const) {
      const refused = await sendBody(stack.url, 'POST', '/api-management/ai/feedback', 12 * 1024 * 1024, { declared, only });
      expect(refused).toMatchObject({ status: 413, type: expect.stringMatching(/^application\/problem\+json/) });
      expect(refused.detail).toBe('The request body is larger than the limit of 65,536 bytes for POST /api-management/ai/feedback');
    }
    // The gateway still answers on new connections.
    expect((await http().get('/healthz')).status).toBe(200);
  });

  it('should give each route a limit that fits it: a spec route the spec-sized one, search more than PATCH', async () => {
    // 66,500 bytes: over the small limit (65,536), within this stack's spec-sized one (1.2 × 2048 + 64 KB = 67,994).
    const between = 66_500;
    const patch = await sendBody(stack.url, 'PATCH', '/api-management/apis/0b4c1a52-5f7e-4a8c-9d4e-1f2a3b4c5d6e', between);
    expect(patch).toMatchObject({ status: 413, detail: expect.stringContaining('65,536 bytes') });
    // Read whole, then refused as the unfinished JSON it is (before authentication): not a 413.
    const put = await sendBody(stack.url, 'PUT', '/api-management/apis/0b4c1a52-5f7e-4a8c-9d4e-1f2a3b4c5d6e', between);
    expect(put).toMatchObject({ status: 400, detail: expect.stringMatching(/not valid JSON/) });
    expect((await sendBody(stack.url, 'POST', '/api-management/ai/search', 100_000)).status).toBe(400);
    expect((await sendBody(stack.url, 'POST', '/api-management/ai/search', 200_000)).status).toBe(413);
    expect((await sendBody(stack.url, 'POST', '/mcp', 200_000)).status).toBe(413);
  });

  it('should allow only the configured origins from a browser', async () => {
    const allowed = await http().options('/api-management/apis').set('origin', 'https://ui.example').set('access-control-request-method', 'POST');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://ui.example');
    const refused = await http().options('/api-management/apis').set('origin', 'https://evil.example').set('access-control-request-method', 'POST');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
});
