import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
// The built bridge, as a desktop client starts it (`npm test` builds dist/ first).
const BRIDGE = join(process.cwd(), 'dist/apps/cli/src/mcp.js');

/** apps/cli/src/mcp.ts: the stdio bridge to /mcp, driven by the SDK's stdio client as a desktop client would. */
describe('MCP stdio bridge (npm run mcp)', () => {
  let stack: TestStack;
  let reader: string;
  let apiId: string;

  /** A client talking to a bridge child process; `stderr` collects what the bridge logged. */
  const bridge = (token: string | undefined, url = stack.url) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BRIDGE, '--url', url],
      env: token ? { API_DISCOVERY_TOKEN: token } : {},
      stderr: 'pipe',
    });
    const logged: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => logged.push(chunk.toString()));
    return { client: new Client({ name: 'mcp-bridge-e2e', version: '1.0.0' }), transport, stderr: () => logged.join('') };
  };
  const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

  beforeAll(async () => {
    stack = await startStack();
    const publisher = await stack.token([ORG], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    const registered = await request(stack.gateway.getHttpServer())
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Weather', version: '1', spec: weatherSpec() });
    apiId = registered.body.apiId;
    await waitForStatus(stack, reader, apiId, ['COMPLETED'], 120_000);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should carry initialize, tools, a search, an operation and the spec resource both ways, and exit when stdin ends', async () => {
    const { client, transport, stderr } = bridge(reader);
    await client.connect(transport, { timeout: 10_000 });
    try {
      expect(client.getServerVersion()?.name).toBeTruthy();
      expect(client.getInstructions()).toMatch(/search_apis/);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['compare_versions', 'get_api', 'get_operation', 'list_apis', 'rate_result', 'search_apis']);

      const search = (await client.callTool({ name: 'search_apis', arguments: { query: 'weather forecast for a city' } })) as CallToolResult;
      expect(search.isError).toBeFalsy();
      expect((search.structuredContent as { results: { apiId: string }[] }).results[0].apiId).toBe(apiId);
      expect(text(search)).toContain('GET /forecast/{city}');

      const operation = (await client.callTool({ name: 'get_operation', arguments: { apiId, operationId: 'getForecast' } })) as CallToolResult;
      expect(text(operation)).toMatch(/^GET \/forecast\/\{city\}/);
      expect(text(operation)).toContain('Base URL: https://api.weather.example/v1');

      const { contents } = await client.readResource({ uri: `api-spec://${apiId}` });
      expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({ info: { title: 'Weather' } });
    } finally {
      // The SDK ends the bridge's stdin and waits 2 s before SIGTERM: the bridge must leave by itself.
      const started = Date.now();
      await client.close();
      expect(Date.now() - started).toBeLessThan(1900);
    }
    expect(stderr()).toBe('');
  });

  it('should answer a refused token, a token without a role and an unreachable gateway with a clear JSON-RPC error, not a hang', async () => {
    const cases: [string | undefined, string, RegExp][] = [
      ['not-a-jwt', stack.url, /The gateway refused the token \(401\): get a new one with npm run token/],
      [await stack.token([ORG], []), stack.url, /no role that may use MCP \(403\)/],
      [reader, 'http://127.0.0.1:9', /Cannot reach the gateway at http:\/\/127\.0\.0\.1:9\/mcp .*is it running/],
    ];
    for (const [token, url, message] of cases) {
      const { client, transport, stderr } = bridge(token, url);
      await expect(client.connect(transport, { timeout: 10_000 })).rejects.toThrow(message);
      await client.close();
      expect(stderr()).toMatch(message);
    }
  });

  it('should exit non-zero with one line on stderr when the token is missing', async () => {
    const { API_DISCOVERY_TOKEN: _, ...env } = process.env;
    const run = promisify(execFile)(process.execPath, [BRIDGE, '--url', stack.url], { env, timeout: 10_000 });
    const failure = await run.then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2, stdout: '' });
    expect(failure!.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^No token: set API_DISCOVERY_TOKEN/)]);
  });
});

/** A small OpenAPI spec whose words the hash embeddings find. */
function weatherSpec(): object {
  return {
    openapi: '3.0.3',
    info: { title: 'Weather', version: '1', description: 'Weather forecasts and alerts' },
    servers: [{ url: 'https://api.weather.example/v1' }],
    paths: {
      '/forecast/{city}': {
        get: {
          operationId: 'getForecast',
          summary: 'Get the weather forecast for a city',
          parameters: [{ name: 'city', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'The forecast' } },
        },
      },
      '/alerts': {
        get: { operationId: 'listAlerts', summary: 'List severe weather alerts', responses: { 200: { description: 'The alerts' } } },
      },
    },
  };
}
