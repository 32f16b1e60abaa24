import { readFileSync } from 'node:fs';
import type { JsonSchema } from '#contracts';
import { markerCount, schemaChars, shapeProblems } from '../../../../../test/support/schema-shape.js';
import { chunkApi } from '../../chunk-api.js';
import { SpecError } from '../../spec-error.js';
import { defaultSpecFormats } from '../../spec-formats.module.js';
import { SpecSource } from '../spec-source.js';
import { PLACEHOLDER_URL } from './call-example.js';
import { McpFormat } from './mcp.format.js';

const format = new McpFormat();
const formats = defaultSpecFormats();
const read = (input: string | Record<string, unknown>) => format.read(new SpecSource(input));
const repoFile = (path: string) => readFileSync(new URL(`../../../../../${path}`, import.meta.url), 'utf8');

const repo = { owner: { type: 'string', description: 'Repository owner (user or organisation)' }, repo: { type: 'string', description: 'Repository name' } };

/** A GitHub MCP server's tools/list answer, as such servers write it (pydantic's `$defs`, zod's enums, 2025-06-18 annotations). */
const githubTools = () => [
  {
    name: 'create_issue',
    title: 'Create issue',
    description: 'Create a new issue in a GitHub repository. The caller needs push access to set labels and assignees.',
    inputSchema: {
      type: 'object',
      properties: {
        ...repo,
        title: { type: 'string', description: 'Issue title' },
        body: { type: 'string', description: 'Issue body (Markdown)' },
        labels: { type: 'array', items: { type: 'string' }, description: 'Labels to apply' },
        assignees: { type: 'array', items: { type: 'string' } },
        milestone: { type: 'integer', minimum: 1 },
      },
      required: ['owner', 'repo', 'title'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { number: { type: 'integer' }, url: { type: 'string', format: 'uri' }, state: { type: 'string', enum: ['open', 'closed'] } },
      required: ['number', 'url'],
    },
    annotations: { title: 'Create an issue', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'search_repositories',
    description: 'Search for GitHub repositories by keywords, language or topic. Results are paged.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search query (GitHub search syntax)' },
        sort: { type: 'string', enum: ['stars', 'forks', 'updated'], default: 'stars' },
        page: { type: 'integer', minimum: 1, default: 1 },
        perPage: { type: 'integer', minimum: 1, maximum: 100 },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  {
    name: 'get_file_contents',
    description: 'Get the contents of a file or directory from a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: { ...repo, path: { type: 'string' }, ref: { type: 'string', description: 'Branch, tag or commit' } },
      required: ['owner', 'repo', 'path'],
    },
    annotations: { title: 'Read a file', readOnlyHint: true },
  },
  {
    name: 'create_pull_request',
    description: 'Open a pull request from one branch into another.',
    inputSchema: {
      type: 'object',
      $defs: {
        BranchRef: {
          type: 'object',
          description: 'A branch, perhaps in a fork',
          properties: { branch: { type: 'string' }, fork: { $ref: '#/$defs/Fork' } },
          required: ['branch'],
        },
        Fork: { type: 'object', properties: { owner: { type: 'string' }, parent: { $ref: '#/$defs/Fork' } } },
      },
      properties: {
        ...repo,
        title: { type: 'string' },
        head: { $ref: '#/$defs/BranchRef', description: 'The branch with the changes' },
        base: { $ref: '#/$defs/BranchRef' },
        draft: { type: 'boolean', default: false },
      },
      required: ['owner', 'repo', 'title', 'head', 'base'],
    },
  },
  {
    name: 'list_commits',
    description: 'List the commits of a branch, newest first.',
    inputSchema: { type: 'object', properties: { ...repo, sha: { type: 'string' } }, required: ['owner', 'repo'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'merge_pull_request',
    description: 'Merge a pull request. <b>This cannot be undone.</b>',
    inputSchema: {
      type: 'object',
      properties: { ...repo, pull_number: { type: 'integer' }, merge_method: { type: 'string', enum: ['merge', 'squash', 'rebase'] } },
      required: ['owner', 'repo', 'pull_number'],
    },
    annotations: { destructiveHint: true, idempotentHint: true },
  },
  {
    name: 'get_me',
    description: 'Get the signed-in user',
    inputSchema: { type: 'object' },
  },
];

const github = () => ({
  name: 'github-mcp-server',
  version: '0.9.1',
  url: 'https://api.githubcopilot.com/mcp/',
  description: "GitHub's official **MCP server**: issues, pull requests, code.",
  tools: githubTools(),
});
const openapi = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: { '/pets': { get: { summary: 'List pets', responses: { 200: { description: 'ok' } } } } },
};

describe(McpFormat.name, () => {
  describe('detect', () => {
    it.each([
      ['a tools/list result', { tools: githubTools(), nextCursor: 'abc' }],
      ['one with its name, version and URL', github()],
      ['one with serverInfo', { serverInfo: { name: 'github', version: '1.0.0' }, url: 'https://example.com/mcp', tools: githubTools() }],
      ['a whole JSON-RPC response', { jsonrpc: '2.0', id: 2, result: { tools: githubTools() } }],
      ['JSON text', JSON.stringify(github(), null, 2)],
      ['YAML text', 'tools:\n  - name: ping\n    inputSchema: {type: object}\n'],
    ])('should recognise %s as an MCP server', (_name, spec) => {
      expect(formats.read(spec).format.kind).toBe('mcp');
    });

    it.each([
      ['an OpenAPI document, even with a tools list', { ...openapi, tools: githubTools() }, 'openapi'],
      ['an AsyncAPI document', repoFile('demo/asyncapi/account-service-2.6.yml'), 'asyncapi'],
      ['an AsyncAPI document with a tools list', { asyncapi: '2.6.0', info: { title: 'x', version: '1' }, channels: {}, tools: githubTools() }, 'asyncapi'],
      ['a GraphQL schema', 'type Query { tools: [String] }', 'graphql'],
      ['a .proto file', 'syntax = "proto3";\nservice Tools { rpc List (Req) returns (Res); }\nmessage Req {}\nmessage Res {}', 'grpc'],
    ])('should leave %s to its format', (_name, spec, kind) => {
      expect(format.detect(new SpecSource(spec as string | Record<string, unknown>))).toBe(false);
      expect(formats.read(spec as string | Record<string, unknown>).format.kind).toBe(kind);
    });

    it('should not be recognised by the other formats', () => {
      for (const input of [github(), JSON.stringify(github())]) {
        const others = formats.all.filter((candidate) => candidate.kind !== 'mcp' && candidate.detect(new SpecSource(input)));
        expect(others.map((candidate) => candidate.kind)).toEqual([]);
      }
    });

    it('should not take objects whose tools are not MCP tools', () => {
      for (const input of [
        { tools: [] },
        { tools: ['hammer'] },
        { tools: [{ name: 'hammer' }] },
        { tools: [{ name: 'x', parameters: { type: 'object' } }] },
        { name: 'left-pad', version: '1.3.0' },
      ]) {
        expect(format.detect(new SpecSource(input))).toBe(false);
      }
    });
  });

  describe("a GitHub server's tools", () => {
    const spec = read(github());

    it('should read the server facts and tools as plain data', () => {
      expect(spec).toMatchObject({ kind: 'mcp', format: 'MCP tools/list' });
      expect(spec.document).toMatchObject({ title: 'github-mcp-server', version: '0.9.1', url: 'https://api.githubcopilot.com/mcp/' });
      expect(spec.document.tools.map((tool) => tool.name)).toEqual([
        'create_issue',
        'search_repositories',
        'get_file_contents',
        'create_pull_request',
        'list_commits',
        'merge_pull_request',
        'get_me',
      ]);
      const cloned = structuredClone(spec);
      expect(format.operation(cloned, { operationId: 'create_pull_request' }, 20_000)).toEqual(
        format.operation(spec, { operationId: 'create_pull_request' }, 20_000),
      );
    });

    it('should model each tool as a TOOL operation, headlined by its title or first sentence', () => {
      const model = format.model(spec);
      expect(model).toMatchObject({
        kind: 'mcp',
        format: 'MCP tools/list',
        title: 'github-mcp-server',
        version: '0.9.1',
        servers: ['https://api.githubcopilot.com/mcp/'],
        securitySchemes: [],
        tags: [],
        schemas: [],
      });
      expect(model.description).toBe("GitHub's official MCP server : issues, pull requests, code.");
      const [createIssue, search, file, pull, , merge, me] = model.operations;
      expect(createIssue).toEqual({
        method: 'TOOL',
        path: 'create_issue',
        operationId: 'create_issue',
        name: 'create_issue',
        summary: 'Create issue',
        description: 'Create a new issue in a GitHub repository. The caller needs push access to set labels and assignees.',
        tags: [],
        inputs: [
          { name: 'owner', in: 'argument', description: 'Repository owner (user or organisation)' },
          { name: 'repo', in: 'argument', description: 'Repository name' },
          { name: 'title', in: 'argument', description: 'Issue title' },
          { name: 'body', in: 'argument', description: 'Issue body (Markdown)' },
          { name: 'labels', in: 'argument', description: 'Labels to apply' },
          { name: 'assignees', in: 'argument' },
          { name: 'milestone', in: 'argument' },
        ],
        outputs: { label: 'Returns', lines: ['fields number, url, state'] },
      });
      expect(search).toMatchObject({ summary: 'Search for GitHub repositories by keywords, language or topic.', tags: ['read-only'] });
      expect(search.outputs).toBeUndefined();
      // annotations.title when there is no title
      expect(file).toMatchObject({
        summary: 'Read a file',
        description: 'Get the contents of a file or directory from a GitHub repository',
        tags: ['read-only'],
      });
      expect(pull.inputs.find((input) => input.name === 'head')).toEqual({ name: 'head', in: 'argument', description: 'The branch with the changes' });
      expect(merge).toMatchObject({ summary: 'Merge a pull request.', description: 'Merge a pull request. This cannot be undone.', tags: ['destructive'] });
      // A one-sentence description is the summary alone.
      expect(me).toMatchObject({ summary: 'Get the signed-in user', inputs: [] });
      expect(me.description).toBeUndefined();
    });

    it('should chunk into an API chunk, a profile and one L2 chunk per tool', () => {
      const { chunks, warnings } = chunkApi(format.model(spec), { name: 'GitHub MCP', version: '0.9.1' });
      expect(warnings).toEqual([]);
      expect(chunks.map((chunk) => chunk.key)).toEqual([
        'api',
        'api#profile',
        'op:TOOL create_issue',
        'op:TOOL search_repositories',
        'op:TOOL get_file_contents',
        'op:TOOL create_pull_request',
        'op:TOOL list_commits',
        'op:TOOL merge_pull_request',
        'op:TOOL get_me',
      ]);
      const createIssue = chunks.find((chunk) => chunk.key === 'op:TOOL create_issue')!;
      expect(createIssue).toMatchObject({
        level: 'L2',
        method: 'TOOL',
        path: 'create_issue',
        operationId: 'create_issue',
        title: 'TOOL create_issue — Create issue',
        summary: 'Create issue',
      });
      expect(createIssue.text).toContain('Parameters: owner (argument): Repository owner (user or organisation); repo (argument)');
      expect(createIssue.text).toContain('Returns: fields number, url, state');
      expect(createIssue.embedText).toContain('create issue');
      expect(chunks[0].text).toContain('Servers: https://api.githubcopilot.com/mcp/');
    });

    it('should give an overview with the URL as its server and no security', () => {
      const overview = format.overview(spec);
      expect(overview).toEqual({
        kind: 'mcp',
        format: 'MCP tools/list',
        description: "GitHub's official MCP server : issues, pull requests, code.",
        servers: [{ url: 'https://api.githubcopilot.com/mcp/' }],
        securitySchemes: [],
        security: [],
        operations: expect.any(Array),
      });
      expect(overview.operations[0]).toEqual({ method: 'TOOL', path: 'create_issue', summary: 'Create issue', operationId: 'create_issue', tags: [] });
      expect(overview.operations.map((op) => op.path)).toHaveLength(7);
    });

    it('should detail a tool: its arguments with schemas, and its outputSchema as the result', () => {
      const detail = format.operation(spec, { operationId: 'create_issue' }, 20_000)!;
      expect(format.operation(spec, { method: 'tool', path: 'create_issue' }, 20_000)).toEqual(detail);
      expect(detail).toMatchObject({ method: 'TOOL', path: 'create_issue', operationId: 'create_issue', summary: 'Create issue', tags: [], security: [] });
      expect(detail.description).toMatch(/^Create a new issue in a GitHub repository\./);
      expect(detail.parameters.map(({ name, in: where, required }) => `${name} ${where} ${required}`)).toEqual([
        'owner argument true',
        'repo argument true',
        'title argument true',
        'body argument false',
        'labels argument false',
        'assignees argument false',
        'milestone argument false',
      ]);
      expect(detail.parameters[4]).toEqual({
        name: 'labels',
        in: 'argument',
        required: false,
        description: 'Labels to apply',
        schema: { type: 'array', items: { type: 'string' }, description: 'Labels to apply' },
      });
      expect(detail.requestBody).toBeUndefined();
      expect(detail.responses).toEqual([
        {
          status: 'result',
          description: "The tool's structuredContent",
          content: [
            {
              mediaType: 'application/json',
              schema: {
                type: 'object',
                properties: { number: { type: 'integer' }, url: { type: 'string', format: 'uri' }, state: { type: 'string', enum: ['open', 'closed'] } },
                required: ['number', 'url'],
              },
            },
          ],
        },
      ]);
      expect(detail.truncated).toBeUndefined();
      expect(format.operation(spec, { operationId: 'get_me' }, 20_000)).toMatchObject({ parameters: [], responses: [] });
    });

    it("should expand a $ref into the tool's own $defs, a circular one cut with $circular", () => {
      const detail = format.operation(spec, { operationId: 'create_pull_request' }, 20_000)!;
      const head = detail.parameters.find((parameter) => parameter.name === 'head')!;
      expect(head).toMatchObject({ required: true, description: 'The branch with the changes' });
      expect(head.schema).toEqual({
        type: 'object',
        description: 'The branch with the changes',
        properties: { branch: { type: 'string' }, fork: { type: 'object', properties: { owner: { type: 'string' }, parent: { $circular: '#/$defs/Fork' } } } },
        required: ['branch'],
      });
      expect(JSON.stringify(detail)).not.toContain('"$defs":');
      expect(shapeProblems(detail)).toEqual([]);
    });

    it('should find nothing for an unknown tool or another verb', () => {
      expect(format.operation(spec, { operationId: 'delete_repo' }, 20_000)).toBeUndefined();
      expect(format.operation(spec, { method: 'POST', path: 'create_issue' }, 20_000)).toBeUndefined();
    });

    it('should cut the schemas at a small maxChars, keeping their shape', () => {
      const big = {
        tools: [
          {
            name: 'bulk_update',
            inputSchema: {
              type: 'object',
              properties: Object.fromEntries(
                Array.from({ length: 200 }, (_, i) => [
                  `field${i}`,
                  { type: 'object', description: 'word '.repeat(30), properties: { value: { type: 'string', enum: ['a', 'b', 'c'] } } },
                ]),
              ),
              required: ['field0'],
            },
            outputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`out${i}`, { type: 'string' }])) },
          },
        ],
      };
      const detail = format.operation(read(big), { operationId: 'bulk_update' }, 1000)!;
      expect(detail.truncated).toBe(true);
      expect(schemaChars(detail)).toBeLessThanOrEqual(1000);
      expect(shapeProblems(detail)).toEqual([]);
      expect(markerCount(detail)).toBeGreaterThan(0);
      // Every argument is still named, whether its schema fit or not.
      expect(detail.parameters).toHaveLength(200);
      expect(detail.parameters[0]).toMatchObject({ name: 'field0', required: true, schema: expect.objectContaining({ type: 'object' }) });
    });

    it('should give a JSON-RPC tools/call as a curl POST to the server, with the required arguments', () => {
      const overview = format.overview(spec);
      const example = format.callExample(overview, format.operation(spec, { operationId: 'create_issue' }, 20_000)!);
      expect(example).toBe(
        "curl -X POST 'https://api.githubcopilot.com/mcp/' -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -H 'Authorization: Bearer $TOKEN' " +
          `-d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_issue","arguments":{"owner":"string","repo":"string","title":"string"}}}'`,
      );
      const pull = format.callExample(overview, format.operation(spec, { operationId: 'create_pull_request' }, 20_000)!);
      expect(pull).toContain(`"head":{"branch":"string","fork":{"owner":"string","parent":{}}}`);
    });

    it('should quote for the shell, and use a placeholder URL without one', () => {
      const spec = read({
        tools: [{ name: "it's", inputSchema: { type: 'object', properties: { q: { type: 'string', example: "O'Brien" } }, required: ['q'] } }],
      });
      const example = format.callExample(format.overview(spec), format.operation(spec, { operationId: "it's" }, 20_000)!);
      expect(example).toContain(`curl -X POST '${PLACEHOLDER_URL}'`);
      expect(example).toContain(`"name":"it'\\''s","arguments":{"q":"O'\\''Brien"}`);
    });

    it('should be served as JSON (or YAML, as registered)', () => {
      expect(format.fileType(JSON.stringify(github()))).toEqual({ extension: 'json', mediaType: 'application/json' });
      expect(format.fileType('tools: []')).toEqual({ extension: 'yaml', mediaType: 'application/yaml' });
    });
  });

  describe('the accepted wrappings', () => {
    it('should take name and version from serverInfo, and instructions as the description', () => {
      const spec = read({
        serverInfo: { name: 'fs', title: 'Filesystem', version: '2.1.0' },
        instructions: 'Reads and writes files under /data.',
        tools: githubTools(),
      });
      expect(spec.document).toMatchObject({ title: 'Filesystem', version: '2.1.0', description: 'Reads and writes files under /data.' });
      expect(spec.document.url).toBeUndefined();
    });

    it('should read a JSON-RPC response, its facts beside result or inside it', () => {
      const spec = read({
        jsonrpc: '2.0',
        id: 'list-1',
        url: 'http://localhost:3000/mcp',
        result: { tools: githubTools(), nextCursor: 'x', serverInfo: { name: 'gh', version: '1' } },
      });
      expect(spec.document).toMatchObject({ title: 'gh', version: '1', url: 'http://localhost:3000/mcp' });
      expect(spec.document.tools).toHaveLength(7);
    });

    it('should read a bare tools/list result, with nothing said of the server', () => {
      const spec = read({ tools: githubTools() });
      expect(spec.document.title).toBeUndefined();
      expect(format.overview(spec)).toMatchObject({ servers: [], security: [] });
    });
  });

  describe('bad documents', () => {
    const tool = (extra: Record<string, unknown> = {}) => ({ name: 'ping', inputSchema: { type: 'object' }, ...extra });
    it.each([
      ['text that is no object', '[1, 2]', /is a JSON object: the result of tools\/list/],
      ['a JSON-RPC error', { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }, /JSON-RPC error response/],
      ['no tools', { name: 'x', version: '1' }, /has no "tools" list/],
      ['tools that are no list', { tools: { ping: {} } }, /"tools" must be a list of tools/],
      ['an empty list', { tools: [] }, /lists no tools/],
      ['a tool that is no object', { tools: ['ping'] }, /tools\[0\] must be an object with a name and an inputSchema/],
      ['a tool without a name', { tools: [tool(), { inputSchema: { type: 'object' } }] }, /tools\[1\] has no name/],
      ['an empty name', { tools: [tool({ name: '' })] }, /tools\[0\] has no name/],
      ['a name with spaces', { tools: [tool({ name: 'create issue' })] }, /tools\[0\] \("create issue"\): a tool name has no spaces or control characters/],
      ['a name with a control character', { tools: [tool({ name: 'a\u0007b' })] }, /no spaces or control characters/],
      ['a name too long', { tools: [tool({ name: 'a'.repeat(201) })] }, /the name has 201 characters; the limit is 200/],
      ['two tools of one name', { tools: [tool(), tool()] }, /Two tools are named "ping"/],
      ['no inputSchema', { tools: [{ name: 'ping' }] }, /tools\[0\] \("ping"\) has no inputSchema/],
      ['an inputSchema not of type object', { tools: [tool({ inputSchema: { type: 'string' } })] }, /its inputSchema must have "type": "object"/],
      [
        'properties that are no object',
        { tools: [tool({ inputSchema: { type: 'object', properties: ['a'] } })] },
        /inputSchema's "properties" must be an object/,
      ],
      ['an outputSchema that is no object', { tools: [tool({ outputSchema: 'json' })] }, /its outputSchema must be a JSON Schema object/],
      ['annotations that are no object', { tools: [tool({ annotations: true })] }, /its annotations must be an object/],
      ['a URL that is none', { url: 'file:///etc/passwd', tools: [tool()] }, /url must be an http or https URL/],
      ['a name that is no string', { name: { first: 'x' }, tools: [tool()] }, /The server's name must be a string/],
    ])('should refuse %s, saying why', (_name, input, reason) => {
      expect(() => read(input as string | Record<string, unknown>)).toThrow(SpecError);
      expect(() => read(input as string | Record<string, unknown>)).toThrow(reason);
    });

    it("should name the format's own problem when registered as mcp", () => {
      expect(() => formats.read(openapi, 'mcp')).toThrow(/has no "tools" list/);
      expect(() => formats.read('hello world', 'mcp')).toThrow(/is a JSON object/);
      expect(() => formats.read('{"tools": [', 'mcp')).toThrow(/not valid JSON/);
    });
  });

  describe('hostile documents', () => {
    it('should refuse an external $ref in an inputSchema before reading it', () => {
      const input = { tools: [{ name: 'x', inputSchema: { type: 'object', properties: { a: { $ref: 'http://169.254.169.254/latest/meta-data' } } } }] };
      expect(() => read(input)).toThrow(/External \$ref "http:\/\/169\.254\.169\.254\/latest\/meta-data" is not allowed/);
      expect(format.detect(new SpecSource(input))).toBe(false);
    });

    it('should refuse more tools than SPEC_LIMITS allow', () => {
      const tools = Array.from({ length: 5001 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
      expect(() => read({ tools })).toThrow(/lists 5001 tools; the limit is 5000/);
    });

    it('should leave a $ref that points nowhere as written, and one to itself cut', () => {
      const spec = read({
        tools: [{ name: 'x', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/Missing' }, b: { $ref: '#/properties/b' } } } }],
      });
      const detail = format.operation(spec, { operationId: 'x' }, 20_000)!;
      expect(detail.parameters.map((parameter) => parameter.schema)).toEqual([{ $ref: '#/$defs/Missing' }, { $circular: '#/properties/b' }]);
    });

    it('should cut a chain of $refs at the schema depth limit', () => {
      const defs = Object.fromEntries(
        Array.from({ length: 150 }, (_, i) => [`D${i}`, { type: 'object', properties: { next: { $ref: `#/$defs/D${i + 1}` } } }]),
      );
      const spec = read({ tools: [{ name: 'deep', inputSchema: { type: 'object', $defs: defs, properties: { root: { $ref: '#/$defs/D0' } } } }] });
      const detail = format.operation(spec, { operationId: 'deep' }, 1_000_000)!;
      expect(detail.truncated).toBe(true);
      expect(JSON.stringify(detail.parameters)).toContain('nested more than 100 levels deep');
      expect(shapeProblems(detail)).toEqual([]);
    });

    it('should keep long descriptions within maxChars, cut short as strings', () => {
      const spec = read({
        tools: [{ name: 'long', inputSchema: { type: 'object', properties: { a: { type: 'string', description: 'word '.repeat(100_000) } } } }],
      });
      const detail = format.operation(spec, { operationId: 'long' }, 2000)!;
      expect(detail.truncated).toBe(true);
      expect(schemaChars(detail)).toBeLessThanOrEqual(2000);
      expect(shapeProblems(detail)).toEqual([]);
      expect((detail.parameters[0].schema as JsonSchema).description).toMatch(/word…$/);
    });
  });
});
