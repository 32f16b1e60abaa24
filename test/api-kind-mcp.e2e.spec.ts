import request from 'supertest';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';

/** A GitHub MCP server as its tools/list answer, wrapped with its name, version and URL. */
const githubMcp = {
  name: 'github-mcp-server',
  version: '0.9.1',
  url: 'https://api.githubcopilot.com/mcp/',
  description: "GitHub's MCP server: issues, pull requests and code.",
  tools: [
    {
      name: 'create_issue',
      title: 'Create issue',
      description: 'Create a new issue in a GitHub repository.',
      inputSchema: {
        type: 'object',
        properties: {
          owner: { type: 'string', description: 'Repository owner' },
          repo: { type: 'string', description: 'Repository name' },
          title: { type: 'string', description: 'Issue title' },
          labels: { type: 'array', items: { type: 'string' } },
        },
        required: ['owner', 'repo', 'title'],
      },
      outputSchema: { type: 'object', properties: { number: { type: 'integer' }, url: { type: 'string' } } },
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    {
      name: 'list_pull_requests',
      description: 'List the pull requests of a repository, open ones first.',
      inputSchema: {
        type: 'object',
        properties: { owner: { type: 'string' }, repo: { type: 'string' }, state: { type: 'string', enum: ['open', 'closed', 'all'] } },
        required: ['owner', 'repo'],
      },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'get_file_contents',
      description: 'Get the contents of a file from a repository.',
      inputSchema: {
        type: 'object',
        properties: { owner: { type: 'string' }, repo: { type: 'string' }, path: { type: 'string' } },
        required: ['owner', 'repo', 'path'],
      },
      annotations: { readOnlyHint: true },
    },
  ],
};

const petsSpec = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: { '/pets': { post: { operationId: 'addPet', summary: 'Add a pet to the store', responses: { 201: { description: 'Added' } } } } },
};

/** An MCP server registered through the gateway (its kind detected), indexed, found, detailed over REST and MCP. */
describe('API kind mcp end to end', () => {
  let stack: TestStack;
  let publisher: string;
  const ids: Record<string, string> = {};
  const http = () => request(stack.gateway.getHttpServer());

  beforeAll(async () => {
    // hash embeddings: the words of the query are in the tool's summary and name.
    stack = await startStack();
    publisher = await stack.token([ORG], ['publisher', 'reader']);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should register an MCP tools/list answer as kind mcp, index it, find its tool, and detail it over REST and MCP', async () => {
    for (const [key, name, spec] of [
      ['mcp', 'GitHub MCP', githubMcp],
      ['pets', 'Pets', petsSpec],
    ] as const) {
      const created = await http().post('/api-management/apis').set('authorization', `Bearer ${publisher}`).send({ orgId: ORG, name, version: '1', spec });
      expect({ status: created.status, kind: created.body.kind }).toEqual({ status: 201, kind: key === 'mcp' ? 'mcp' : 'openapi' });
      ids[key] = created.body.apiId;
    }
    for (const id of Object.values(ids)) {
      const status = await waitForStatus(stack, publisher, id, ['COMPLETED', 'FAILED'], 90_000);
      expect({ status: status.status, error: status.error }).toEqual({ status: 'COMPLETED', error: undefined });
    }

    const search = await http()
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, query: 'create an issue in a repository' });
    expect(search.status).toBe(200);
    const [first] = search.body.results;
    expect({ apiId: first.apiId, kind: first.kind }).toEqual({ apiId: ids.mcp, kind: 'mcp' });
    expect(first.endpoints[0]).toMatchObject({ method: 'TOOL', path: 'create_issue' });

    const byKind = await http()
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, query: 'pets', filters: { kinds: ['mcp'], methods: ['TOOL'] } });
    expect(byKind.body.results.map((card: { apiId: string }) => card.apiId)).toEqual([ids.mcp]);

    const detail = await http()
      .get(`/api-management/apis/${ids.mcp}/operations/detail`)
      .query({ method: 'TOOL', path: 'create_issue' })
      .set('authorization', `Bearer ${publisher}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ method: 'TOOL', path: 'create_issue', operationId: 'create_issue', summary: 'Create issue' });
    expect(
      detail.body.parameters.map((parameter: { name: string; in: string; required: boolean }) => `${parameter.name} ${parameter.in} ${parameter.required}`),
    ).toEqual(['owner argument true', 'repo argument true', 'title argument true', 'labels argument false']);
    expect(detail.body.responses[0]).toMatchObject({ status: 'result', content: [{ mediaType: 'application/json', schema: { type: 'object' } }] });

    const mcp = await http()
      .post('/mcp')
      .set('authorization', `Bearer ${publisher}`)
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_operation', arguments: { apiId: ids.mcp, operationId: 'create_issue' } } });
    expect(mcp.status).toBe(200);
    expect(mcp.body.result.isError).toBeFalsy();
    const text = mcp.body.result.content.map((part: { text: string }) => part.text).join('\n');
    expect(text).toMatch(/^TOOL create_issue \(operationId create_issue\) — GitHub MCP 1 \[mcp\]/);
    expect(text).toContain('Base URL: https://api.githubcopilot.com/mcp/');
    expect(text).toMatch(/- owner \(argument, required\): string/);
    expect(text).toContain(`Example: curl -X POST 'https://api.githubcopilot.com/mcp/'`);
    expect(text).toContain(`"method":"tools/call","params":{"name":"create_issue","arguments":{"owner":"string","repo":"string","title":"string"}}`);
    expect(mcp.body.result.structuredContent).toMatchObject({ api: { apiId: ids.mcp, kind: 'mcp' }, method: 'TOOL', path: 'create_issue' });
  }, 180_000);
});
