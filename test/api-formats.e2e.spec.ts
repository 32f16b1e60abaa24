import { readFileSync } from 'node:fs';
import request from 'supertest';
import { readFixture, restbenchSpec } from './fixtures/fixtures.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const OTHER_ORG = 'globex';
const repoFile = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/**
 * One API of each kind in one org, through the whole platform with the model it ships: each is
 * registered (its format detected), indexed, found first by a query aimed at it with the right
 * operation first, listed and shown in its kind's notation.
 */
describe('API kinds end to end (OpenAPI, AsyncAPI, GraphQL, gRPC)', () => {
  let stack: TestStack;
  let publisher: string;
  let outsider: string;
  const ids: Record<string, string> = {};
  const http = () => request(stack.gateway.getHttpServer());
  const search = (body: object) =>
    http()
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, ...body });

  beforeAll(async () => {
    stack = await startStack({ env: { EMBEDDINGS_PROVIDER: 'local' } });
    publisher = await stack.token([ORG], ['publisher']);
    outsider = await stack.token([OTHER_ORG], ['publisher']);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should register one API of each kind, detect its kind, and index each to COMPLETED', async () => {
    const apis = [
      { key: 'openapi', name: 'Spotify Web API', spec: restbenchSpec('spotify') },
      { key: 'asyncapi', name: 'Account Service', spec: repoFile('demo/asyncapi/account-service-2.6.yml') },
      { key: 'graphql', name: 'GitHub GraphQL API', spec: repoFile('node_modules/@octokit/graphql-schema/schema.graphql') },
      { key: 'grpc', name: 'Payments', spec: readFixture('payments.proto') },
    ];
    for (const api of apis) {
      const created = await http()
        .post('/api-management/apis')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: ORG, name: api.name, version: '1', spec: api.spec });
      expect({ name: api.name, status: created.status, kind: created.body.kind }).toEqual({ name: api.name, status: 201, kind: api.key });
      ids[api.key] = created.body.apiId;
    }
    for (const api of apis) {
      const status = await waitForStatus(stack, publisher, ids[api.key], ['COMPLETED', 'FAILED'], 240_000);
      expect({ name: api.name, status: status.status, kind: status.kind, error: status.error }).toEqual({
        name: api.name,
        status: 'COMPLETED',
        kind: api.key,
        error: undefined,
      });
    }
  }, 300_000);

  it.each([
    ['when a user signs up, notify me', 'asyncapi', 'SUBSCRIBE', 'user/signedup'],
    ['close a pull request', 'graphql', 'MUTATION', 'closePullRequest'],
    ['refund a payment over gRPC', 'grpc', 'RPC', 'payments.v1.PaymentService/Refund'],
    ['add some songs to one of my playlists', 'openapi', 'POST', '/playlists/{playlist_id}/tracks'],
  ])('should answer "%s" with the %s API first, its %s %s operation first', async (query, kind, method, path) => {
    const response = await search({ query });
    expect(response.status).toBe(200);
    const [first] = response.body.results;
    expect({ apiId: first.apiId, kind: first.kind }).toEqual({ apiId: ids[kind], kind });
    expect(first.endpoints[0]).toMatchObject({ method, path });
  });

  it("should filter by kind and by any kind's verb", async () => {
    const byKind = await search({ query: 'payments', filters: { kinds: ['grpc', 'graphql'] } });
    expect(new Set(byKind.body.results.map((card: { kind: string }) => card.kind))).toEqual(new Set(['grpc', 'graphql']));
    const byVerb = await search({ query: '', filters: { methods: ['MUTATION'] } });
    expect(byVerb.body.results.map((card: { apiId: string }) => card.apiId)).toEqual([ids.graphql]);
    const listed = await http().get(`/api-management/apis?orgId=${ORG}&kind=asyncapi`).set('authorization', `Bearer ${publisher}`);
    expect(listed.body.items.map((api: { apiId: string }) => api.apiId)).toEqual([ids.asyncapi]);
  });

  it("should list each API's operations and show one in full, in its kind's notation", async () => {
    const endpoints = await http().get(`/api-management/apis/${ids.grpc}/endpoints`).set('authorization', `Bearer ${publisher}`);
    expect(endpoints.body.items.map((op: { method: string; path: string }) => `${op.method} ${op.path}`)).toEqual([
      'RPC payments.v1.PaymentService/Charge',
      'RPC payments.v1.PaymentService/Refund',
      'RPC payments.v1.PaymentService/GetPayment',
      'RPC payments.v1.PaymentService/WatchPayments',
    ]);
    const overview = await http().get(`/api-management/apis/${ids.graphql}/operations`).set('authorization', `Bearer ${publisher}`);
    expect(overview.body).toMatchObject({ kind: 'graphql', format: 'GraphQL SDL' });
    const detail = await http()
      .get(`/api-management/apis/${ids.graphql}/operations/detail`)
      .query({ method: 'MUTATION', path: 'closePullRequest' })
      .set('authorization', `Bearer ${publisher}`);
    expect(detail.status).toBe(200);
    expect(detail.body.parameters).toEqual([expect.objectContaining({ name: 'input', in: 'argument', required: true })]);
    const refund = await http()
      .get(`/api-management/apis/${ids.grpc}/operations/detail`)
      .query({ operationId: 'PaymentService.Refund' })
      .set('authorization', `Bearer ${publisher}`);
    expect(refund.body.requestBody.content[0].schema.properties).toHaveProperty('payment_id');
    const spec = await http().get(`/api-management/apis/${ids.grpc}/spec?download=true`).set('authorization', `Bearer ${publisher}`);
    expect(spec.headers['content-disposition']).toBe('attachment; filename="Payments-1.proto"');
    expect(spec.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('should refuse a bad document of each kind with a 422 that names the problem, and an unknown format with a 400', async () => {
    const cases: [object, RegExp][] = [
      [{ spec: 'asyncapi: 1.2.0\ninfo: {title: x, version: "1"}\nchannels: {}\n' }, /Unsupported AsyncAPI version "1.2.0"/],
      [{ spec: 'type Query {\n  pullRequest(id: ID!): PullRequest\n\n' }, /The GraphQL schema is not valid: Syntax Error/],
      [{ spec: 'syntax = "proto3";\nservice Payments {\n  rpc Refund(Req) returns (Res) $\n}\n' }, /The .proto file is not valid/],
      [{ spec: 'type Query { a: String }', format: 'openapi' }, /OpenAPI/],
    ];
    for (const [body, reason] of cases) {
      const response = await http()
        .post('/api-management/apis')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: ORG, name: 'Bad', version: '1', ...body });
      expect({ status: response.status, detail: response.body.detail }).toEqual({ status: 422, detail: expect.stringMatching(reason) });
    }
    const unknown = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Bad', version: '1', spec: 'x', format: 'wsdl' });
    expect({ status: unknown.status, detail: unknown.body.detail }).toEqual({
      status: 400,
      detail: expect.stringMatching(/format must be one of openapi, asyncapi, grpc, graphql/),
    });
  });

  it("should show nothing of another org's APIs, whatever their kind", async () => {
    for (const apiId of Object.values(ids)) {
      const response = await http().get(`/api-management/apis/${apiId}/operations`).set('authorization', `Bearer ${outsider}`);
      expect(response.status).toBe(404);
    }
  });
});
