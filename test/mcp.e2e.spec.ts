import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import request from 'supertest';
import { restbenchSpec } from './fixtures/fixtures.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const OTHER_ORG = 'globex';
const SPEC_MAX_CHARS = 5000;

/** The MCP endpoint through HTTP with the SDK's own client, on a real stack with RestBench's Spotify and TMDB specs. */
describe('MCP server (/mcp)', () => {
  let stack: TestStack;
  let reader: string;
  let outsider: string;
  let client: Client;
  const ids: Record<string, string> = {};
  const http = () => request(stack.gateway.getHttpServer());

  const connect = async (token: string): Promise<Client> => {
    const connected = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return connected;
  };
  const call = async (name: string, args: Record<string, unknown>, as: Client = client) => (await as.callTool({ name, arguments: args })) as CallToolResult;
  const rawMcp = (body: unknown) =>
    http()
      .post('/mcp')
      .set('authorization', `Bearer ${reader}`)
      .set('accept', 'application/json, text/event-stream')
      .send(body as object);
  const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

  beforeAll(async () => {
    // hash: the tools are tested, not the model; the words of these queries are in the specs.
    stack = await startStack({ env: { MCP_SPEC_MAX_CHARS: String(SPEC_MAX_CHARS), RATE_LIMIT_PER_MINUTE: '200' } });
    const publisher = await stack.token([ORG], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    outsider = await stack.token([OTHER_ORG], ['reader', 'publisher']);
    const register = (name: string, spec: unknown, token = publisher, orgId = ORG) =>
      http().post('/api-management/apis').set('authorization', `Bearer ${token}`).send({ orgId, name, version: '1', spec });
    ids.spotify = (await register('Spotify', restbenchSpec('spotify'))).body.apiId;
    ids.tmdb = (await register('TMDB', restbenchSpec('tmdb'))).body.apiId;
    ids.capped = (await register('Capped', cappedSpec())).body.apiId;
    ids.booleans = (await register('Booleans', booleanSchemasSpec())).body.apiId;
    ids.graphql = (
      await register(
        'Code review',
        'type Query {\n  "Look up a pull request"\n  pullRequest(id: ID!): PullRequest\n}\ntype Mutation {\n  "Close a pull request"\n  closePullRequest(id: ID!, reason: CloseReason): PullRequest\n}\nenum CloseReason { MERGED ABANDONED }\ntype PullRequest { id: ID! title: String closed: Boolean }',
      )
    ).body.apiId;
    ids.foreign = (await register('Foreign', restbenchSpec('spotify'), outsider, OTHER_ORG)).body.apiId;
    for (const id of Object.values(ids)) await waitForStatus(stack, id === ids.foreign ? outsider : reader, id, ['COMPLETED'], 120_000);
    client = await connect(reader);
  }, 240_000);

  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  it('should list the six tools with input schemas that are valid JSON Schema, and the spec resource', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['compare_versions', 'get_api', 'get_operation', 'list_apis', 'rate_result', 'search_apis']);
    const ajv = new Ajv({ strict: false });
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(50);
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
    }
    expect(client.getInstructions()).toMatch(/search_apis/);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining([`api-spec://${ids.spotify}`, `api-spec://${ids.tmdb}`]));
    expect(resources.map((resource) => resource.uri)).not.toContain(`api-spec://${ids.foreign}`);
  });

  it('should search with the org left out when the token has one, giving short text and structured cards', async () => {
    const result = await call('search_apis', { query: 'add tracks to a playlist' });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as {
      searchId: string;
      orgId: string;
      results: { apiId: string; kind: string; endpoints: { method: string; path: string }[] }[];
    };
    expect(data.orgId).toBe(ORG);
    // What rate_result names the answer by, in the data and the text.
    expect(data.searchId).toMatch(/^[0-9a-f-]{36}$/);
    expect(text(result)).toContain(`rate_result (searchId ${data.searchId})`);
    expect(data.results[0]).toMatchObject({ apiId: ids.spotify, kind: 'openapi' });
    expect(data.results[0].endpoints.length).toBeLessThanOrEqual(3);
    expect(text(result)).toMatch(new RegExp(`^\\d+ of \\d+ APIs in org "${ORG}" for "add tracks to a playlist"`));
    expect(text(result)).toContain(`apiId ${ids.spotify}`);
    expect(text(result)).toContain('POST /playlists/{playlist_id}/tracks');
  });

  it("should give an API's servers, auth schemes and operations, paged", async () => {
    const first = await call('get_api', { apiId: ids.tmdb });
    expect(first.structuredContent).toMatchObject({
      apiId: ids.tmdb,
      kind: 'openapi',
      format: 'OpenAPI 3.0.0',
      servers: [{ url: 'https://api.themoviedb.org/3' }],
      page: 1,
      pages: 2,
      operationCount: 54,
    });
    expect((first.structuredContent as { operations: unknown[] }).operations).toHaveLength(50);
    expect(text(first)).toContain('Operations 1–50 of 54 (page 1 of 2)');
    expect(text(first)).toContain('More: get_api with page 2.');
    const second = await call('get_api', { apiId: ids.tmdb, page: 2 });
    expect((second.structuredContent as { operations: unknown[] }).operations).toHaveLength(4);
    const spotify = await call('get_api', { apiId: ids.spotify });
    expect(text(spotify)).toMatch(/Auth schemes: oauth_2_0 \(oauth2; scopes: .*playlist-modify-public/);
  });

  it('should give everything needed to call POST /playlists/{playlist_id}/tracks: URL, parameters, the uris body property, scopes and a curl', async () => {
    const result = await call('get_operation', { apiId: ids.spotify, method: 'post', path: '/playlists/{playlist_id}/tracks' });
    expect(result.isError).toBeFalsy();
    const body = text(result);
    expect(body).toContain('POST /playlists/{playlist_id}/tracks (operationId add-tracks-to-playlist)');
    expect(body).toContain('Base URL: https://api.spotify.com/v1');
    expect(body).toMatch(/- playlist_id \(path, required\): string/);
    expect(body).toMatch(/Request body \(application\/json\): \{position: integer — .*; uris: string\[\] — A JSON array of the/);
    expect(body).toMatch(/Auth: oauth_2_0 \(oauth2\) with scopes playlist-modify-public, playlist-modify-private/);
    expect(body).toMatch(
      /Example: curl -X POST 'https:\/\/api\.spotify\.com\/v1\/playlists\/\{playlist_id\}\/tracks' -H 'Authorization: Bearer \$OAUTH_2_0' -H 'Content-Type: application\/json' -d '\{"position":0,"uris":\["string"\]\}'$/m,
    );
    const data = result.structuredContent as {
      requestBody: { content: { schema: { properties: Record<string, unknown> } }[] };
      security: { scheme: string; scopes: string[] }[][];
    };
    expect(Object.keys(data.requestBody.content[0].schema.properties)).toContain('uris');
    expect(data.security[0][0]).toEqual({ scheme: 'oauth_2_0', scopes: ['playlist-modify-public', 'playlist-modify-private'] });
  });

  it('should find an operation by operationId, and give a GraphQL request for a GraphQL field', async () => {
    const movie = await call('get_operation', { apiId: ids.tmdb, operationId: 'GET_movie-movie_id' });
    expect(text(movie)).toMatch(/^GET \/movie\/\{movie_id\}/);
    const graphql = await call('get_operation', { apiId: ids.graphql, method: 'MUTATION', path: 'closePullRequest' });
    expect(text(graphql)).toContain('Arguments:\n- id (argument, required): string');
    expect(text(graphql)).toContain('reason (argument): "MERGED"|"ABANDONED"');
    expect(text(graphql)).toContain(`Example: curl -X POST 'https://api.example.com/graphql'`);
    expect(text(graphql)).toContain('mutation { closePullRequest(id: \\"string\\") { id title closed } }');
  });

  it('should cut a circular schema with a marker and a huge one at the size limit, with a note', async () => {
    const result = await call('get_operation', { apiId: ids.capped, operationId: 'getTree' });
    expect(text(result)).toContain('<circular #/components/schemas/Node>');
    expect(text(result)).toContain('Note: some schemas were cut at OPERATION_DETAIL_MAX_CHARS');
    expect(result.structuredContent).toMatchObject({ truncated: true });
    expect(JSON.stringify(result).length).toBeLessThan(60_000);
  });

  it('should describe an operation whose OpenAPI 3.1 schemas are booleans, and one cut at the size limit, as REST does (no tool failure)', async () => {
    const booleans = await call('get_operation', { apiId: ids.booleans, operationId: 'putNote' });
    expect(booleans.isError).toBeFalsy();
    expect(text(booleans)).toContain('Request body (application/json, required): {text*: string; meta: any; tags: any[]; secret: never}');
    const rest = await http().get(`/api-management/apis/${ids.booleans}/operations/detail?operationId=putNote`).set('authorization', `Bearer ${reader}`);
    expect(rest.body.requestBody.content[0].schema.properties).toMatchObject({ meta: true, tags: { items: true }, secret: false });
    // The schema cut at OPERATION_DETAIL_MAX_CHARS: what was kept, then the cut, and a runnable example.
    const cut = await call('get_operation', { apiId: ids.capped, operationId: 'getTree' });
    expect(cut.isError).toBeFalsy();
    expect(text(cut)).toMatch(/huge: \{field0: string — Field number 0 of a very large object; .*; …cut\}/);
    expect(text(cut)).toMatch(/^Example: curl /m);
  });

  it('should read a registered spec as a resource, cut at MCP_SPEC_MAX_CHARS with a note', async () => {
    const { contents } = await client.readResource({ uri: `api-spec://${ids.spotify}` });
    const [content] = contents as { text: string; mimeType: string }[];
    expect(content.mimeType).toBe('application/json');
    expect(content.text.startsWith(restbenchSpec('spotify').slice(0, SPEC_MAX_CHARS))).toBe(true);
    expect(content.text).toMatch(/\[Cut at 5,000 of [\d,]+ characters \(MCP_SPEC_MAX_CHARS\)/);
    const graphql = await client.readResource({ uri: `api-spec://${ids.graphql}` });
    expect(graphql.contents[0]).toMatchObject({ mimeType: 'text/plain' });
  });

  it('should browse APIs by org, kind and tag', async () => {
    const all = await call('list_apis', {});
    // The org's five (Spotify, TMDB, Capped, Booleans, Code review); not the other org's.
    expect((all.structuredContent as { total: number }).total).toBe(5);
    const graphql = await call('list_apis', { kind: 'graphql' });
    expect((graphql.structuredContent as { items: { apiId: string }[] }).items.map((api) => api.apiId)).toEqual([ids.graphql]);
    const tagged = await call('list_apis', { tag: 'playlists' });
    expect(text(tagged)).toContain(`apiId ${ids.spotify}`);
    expect(text(tagged)).not.toContain(ids.tmdb);
  });

  it("should show nothing of another org's API in any tool: not found", async () => {
    const answers = [
      await call('get_api', { apiId: ids.foreign }),
      await call('get_operation', { apiId: ids.foreign, method: 'POST', path: '/playlists/{playlist_id}/tracks' }),
      await call('search_apis', { query: 'playlist', orgId: OTHER_ORG }),
      await call('list_apis', { orgId: OTHER_ORG }),
    ];
    for (const answer of answers) {
      expect(answer.isError).toBe(true);
      expect(text(answer)).not.toMatch(/Spotify|playlist_id/);
    }
    expect(text(answers[0])).toBe(`API "${ids.foreign}" not found`);
    expect(text(answers[2])).toMatch(/not a member of org "globex"|org "globex"/);
    await expect(client.readResource({ uri: `api-spec://${ids.foreign}` })).rejects.toThrow(/not found/);
  });

  it('should answer bad arguments with a clear error, never a stack trace', async () => {
    const unnamed = await call('get_operation', { apiId: ids.spotify });
    expect(unnamed).toMatchObject({ isError: true });
    expect(text(unnamed)).toBe('Name the operation: operationId, or method and path');
    const missing = await call('get_operation', { apiId: ids.spotify, operationId: 'nope' });
    expect(text(missing)).toMatch(/has no operation operationId "nope"/);
    const tooMany = await client.callTool({ name: 'search_apis', arguments: { query: 'x', maxResults: 500 } }).then(
      (result) => text(result as CallToolResult),
      (error: Error) => error.message,
    );
    expect(tooMany).toMatch(/maxResults/);
    expect(tooMany).not.toMatch(/\n\s+at /);
  });

  it('should refuse a JSON-RPC batch whole, so that one POST is one call against the rate limit (400, -32600)', async () => {
    const search = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_apis', arguments: { query: 'playlist' } } });
    const answer = await rawMcp(Array.from({ length: 100 }, (_, i) => search(i + 1)));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^JSON-RPC batches are not supported/) } });
    // One message per POST is answered as before.
    expect((await rawMcp(search(1))).body.result.isError).toBeFalsy();
  });

  it('should refuse what it would otherwise echo back whole or answer in raw schema JSON: a 100 KB id or tool name, arguments as an array, a 1 MB body', async () => {
    // Within /mcp's body limit (128 KB), far past what may be echoed back.
    const long = 'n'.repeat(100 * 1024);
    const longId = await rawMcp({ jsonrpc: '2.0', id: long, method: 'tools/list' });
    expect(longId.status).toBe(400);
    expect(longId.body).toMatchObject({ id: null, error: { code: -32600, message: 'The id must be an integer or a string of at most 200 characters' } });
    const megabyte = await rawMcp({ jsonrpc: '2.0', id: 'n'.repeat(1024 * 1024), method: 'tools/list' });
    expect(megabyte.status).toBe(413);
    const longName = await rawMcp({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: long, arguments: {} } });
    expect(longName.status).toBe(400);
    expect(longName.text.length).toBeLessThan(500);
    expect(longName.body).toMatchObject({ id: 2, error: { code: -32602 } });
    const arrayArguments = await rawMcp({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_apis', arguments: ['playlist'] } });
    expect(arrayArguments.body).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: `params.arguments must be an object of the tool's named arguments, e.g. {"query": "send an SMS"}; it was an array` },
    });
    const unknownTool = await rawMcp({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'delete_everything', arguments: {} } });
    expect(unknownTool.body.result).toMatchObject({ isError: true, content: [{ text: 'MCP error -32602: Tool delete_everything not found' }] });
  });

  it('should answer a missing resource with the MCP not-found error (-32002), and DELETE and GET with 405', async () => {
    const missing = await rawMcp({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: `api-spec://${ids.foreign}` } });
    expect(missing.body).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32002, message: `MCP error -32002: API "${ids.foreign}" not found` } });
    for (const method of ['get', 'delete'] as const) {
      const answer = await http()[method]('/mcp').set('authorization', `Bearer ${reader}`);
      expect({ method, status: answer.status, allow: answer.headers.allow }).toEqual({ method, status: 405, allow: 'POST' });
    }
  });

  it('should refuse without a token (401 with WWW-Authenticate), without a role (403), and past the rate limit (429)', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (token?: string) => {
      const sent = http().post('/mcp').set('accept', 'application/json, text/event-stream');
      return (token ? sent.set('authorization', `Bearer ${token}`) : sent).send(initialize);
    };
    const anonymous = await post();
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect((await post(await stack.token([ORG], []))).status).toBe(403);
    expect((await post(reader)).status).toBe(200);

    const flooder = await stack.token([ORG], ['reader'], { sub: 'mcp-flooder' });
    const statuses: number[] = [];
    for (let i = 0; i < 201; i += 1) statuses.push((await post(flooder)).status);
    expect(statuses.at(-1)).toBe(429);
    await expect(connect(flooder)).rejects.toThrow(/429/);
  });
});

/** An operation whose response holds a circular schema and one far past OPERATION_DETAIL_MAX_CHARS. */
function cappedSpec(): object {
  const huge = Object.fromEntries(
    Array.from({ length: 3000 }, (_, i) => [`field${i}`, { type: 'string', description: `Field number ${i} of a very large object` }]),
  );
  return {
    openapi: '3.0.3',
    info: { title: 'Capped', version: '1' },
    paths: {
      '/tree': {
        get: {
          operationId: 'getTree',
          summary: 'Get the tree',
          responses: {
            200: {
              description: 'The tree',
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { root: { $ref: '#/components/schemas/Node' }, huge: { $ref: '#/components/schemas/Huge' } } },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
        Huge: { type: 'object', properties: huge },
      },
    },
  };
}

/** OpenAPI 3.1 boolean schemas: `true` takes anything, `false` nothing. */
function booleanSchemasSpec(): object {
  const note = {
    type: 'object',
    required: ['text'],
    properties: { text: { type: 'string' }, meta: true, tags: { type: 'array', items: true }, secret: false },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Booleans', version: '1' },
    paths: {
      '/notes/{id}': {
        put: {
          operationId: 'putNote',
          requestBody: { required: true, content: { 'application/json': { schema: note } } },
          responses: { '204': { description: 'Saved' } },
        },
      },
    },
  };
}
