import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { route } from '../routes/route.js';
import { ApiError, GatewayClient } from './gateway-client.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback server that records each request and answers with the next of `answers` (the last one again when they run out). */
async function startServer(answers: ((response: ServerResponse) => void)[]): Promise<{ server: Server; baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      answers[Math.min(seen.length, answers.length) - 1](response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (response: ServerResponse) =>
    response.writeHead(status, { 'content-type': status < 300 ? 'application/json' : 'application/problem+json', ...headers }).end(JSON.stringify(body));

const ROUTES = {
  update: route<{ ok: boolean }, { name: string }, { version?: string; tag?: string[] }>()('PUT', '/apis/:apiId/versions/:version'),
  remove: route<undefined>()('DELETE', '/apis/:apiId'),
  list: route<{ items: string[] }, undefined, { orgId: string }>()('GET', '/apis'),
};

describe('GatewayClient', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  it("calls the route's URL, parameters encoded and a list repeated, with the JSON body and the client's token", async () => {
    const started = await startServer([json(200, { ok: true })]);
    server = started.server;
    const client = new GatewayClient({ baseUrl: started.baseUrl, token: 'client-token' });
    const answer = await client.request(ROUTES.update, { params: { apiId: 'a b', version: '1.0/beta' }, query: { tag: ['x', 'y&z'] }, body: { name: 'Pets' } });
    expect(answer).toEqual({ ok: true });
    const [seen] = started.seen;
    expect(seen).toMatchObject({ method: 'PUT', url: '/apis/a%20b/versions/1.0%2Fbeta?tag=x&tag=y%26z', body: '{"name":"Pets"}' });
    expect(seen.headers).toMatchObject({ authorization: 'Bearer client-token', 'content-type': 'application/json', accept: 'application/json' });
  });

  it("sends a call's own token, no body or content type without a body, and answers a 204 with undefined", async () => {
    const started = await startServer([(response) => response.writeHead(204).end()]);
    server = started.server;
    await expect(
      new GatewayClient({ baseUrl: started.baseUrl, token: 'client-token' }).request(ROUTES.remove, { params: { apiId: 'x' }, token: 'own' }),
    ).resolves.toBeUndefined();
    await new GatewayClient({ baseUrl: started.baseUrl }).request(ROUTES.remove, { params: { apiId: 'x' } });
    expect(started.seen.map(({ headers }) => headers.authorization)).toEqual(['Bearer own', undefined]);
    expect(started.seen[0].headers['content-type']).toBeUndefined();
    expect(started.seen[0].body).toBe('');
  });

  it("throws the gateway's problem document as an ApiError, with Retry-After in seconds", async () => {
    const problem = {
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The search service is busy',
      instance: 'req-1',
      errors: ['a', 'b'],
    };
    const started = await startServer([json(503, problem, { 'retry-after': '7' })]);
    server = started.server;
    const error = await new GatewayClient({ baseUrl: started.baseUrl }).request(ROUTES.list, { query: { orgId: 'o' } }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ problem, status: 503, retryAfterSeconds: 7, message: 'The search service is busy' });
  });

  it("stands in a problem for an answer that is not one (a proxy's page), without Retry-After", async () => {
    const started = await startServer([(response) => response.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>')]);
    server = started.server;
    const error = (await new GatewayClient({ baseUrl: started.baseUrl })
      .request(ROUTES.list, { query: { orgId: 'o' } })
      .catch((thrown: unknown) => thrown)) as ApiError;
    expect(error.problem).toEqual({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail: 'The server answered 502' });
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('tries again as told (429, 503 with Retry-After) when asked to, and fails at once otherwise', async () => {
    const busy = json(429, { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'slow down' }, { 'retry-after': '0' });
    const started = await startServer([busy, json(200, { items: ['a'] })]);
    server = started.server;
    await expect(new GatewayClient({ baseUrl: started.baseUrl, attempts: 3 }).request(ROUTES.list, { query: { orgId: 'o' } })).resolves.toEqual({
      items: ['a'],
    });
    expect(started.seen).toHaveLength(2);

    const once = await startServer([busy]);
    await expect(new GatewayClient({ baseUrl: once.baseUrl }).request(ROUTES.list, { query: { orgId: 'o' } })).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: 0,
    });
    await new Promise((resolve) => once.server.close(resolve));
  });

  it('takes what the route declares, checked when compiled', () => {
    const client = new GatewayClient();
    // @ts-expect-error the route's query has a required field
    const noQuery = () => client.request(ROUTES.list, {});
    // @ts-expect-error a path parameter is missing
    const noParam = () => client.request(ROUTES.update, { params: { apiId: 'x' }, body: { name: 'n' } });
    // @ts-expect-error the route takes no body
    const body = () => client.request(ROUTES.remove, { params: { apiId: 'x' }, body: {} });
    expect([noQuery, noParam, body].every((call) => typeof call === 'function')).toBe(true);
    expect(client.baseUrl).toBe('');
  });

  it('lets a subclass word its failures', async () => {
    class Worded extends GatewayClient {
      protected override failure(problem: ApiError['problem'], retryAfterSeconds?: number): ApiError {
        return new ApiError(problem, retryAfterSeconds, `${problem.status} ${problem.title}: ${problem.detail}`);
      }
    }
    const started = await startServer([json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No API "x"' })]);
    server = started.server;
    await expect(new Worded({ baseUrl: started.baseUrl }).request(ROUTES.remove, { params: { apiId: 'x' } })).rejects.toThrow('404 Not Found: No API "x"');
  });

  it("makes a network failure the problem it was given, or lets fetch's own error go on", async () => {
    const closed = await startServer([]);
    await new Promise((resolve) => closed.server.close(resolve));
    const unreachable = { type: 'about:blank', title: 'Network error', status: 0, detail: 'The server could not be reached.' };
    const call = (client: GatewayClient) => client.request(ROUTES.remove, { params: { apiId: 'x' } });
    await expect(call(new GatewayClient({ baseUrl: closed.baseUrl, unreachable }))).rejects.toMatchObject({ problem: unreachable, status: 0 });
    await expect(call(new GatewayClient({ baseUrl: closed.baseUrl }))).rejects.toThrow('fetch failed');
  });
});
