import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate } from 'class-validator';
import { defaultSpecFormats } from '#api-specs';
import { type ApiKindInfo, LABEL_LIMITS, MCP_RESOURCES, MCP_TOOLS } from '#contracts';
import { SearchFiltersDto, SearchRequestDto } from '#dtos';
import type { AgentToolsService } from './agent-tools.service.js';
import { createMcpServer } from './mcp-server.js';
import { searchFiltersInput } from './mcp-inputs.js';

/** A client of a server whose tools are only listed: the service is only asked for the kinds it offers. */
async function listingClient(kinds: readonly ApiKindInfo[]): Promise<Client> {
  const tools = { kinds } as unknown as AgentToolsService;
  const server = createMcpServer({ tools, caller: { sub: 'lister', orgs: ['acme'], roles: ['reader'] }, specMaxChars: 1000 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'mcp-tools-spec', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** The list the web UI's Assistant page shows (`MCP_TOOLS`) against what the server registers. */
describe('MCP_TOOLS', () => {
  let client: Client;

  beforeAll(async () => {
    client = await listingClient(defaultSpecFormats().all);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('should name every tool the MCP server registers, and no other', async () => {
    const { tools } = await client.listTools();
    expect(MCP_TOOLS.map((tool) => tool.name).sort()).toEqual(tools.map((tool) => tool.name).sort());
    expect(MCP_TOOLS.map((tool) => tool.name)).toContain('compare_versions');
  });

  it('should name every resource template the MCP server registers', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(MCP_RESOURCES.map((resource) => resource.uriTemplate)).toEqual(resourceTemplates.map((template) => template.uriTemplate));
  });
});

/** The kinds the tools name are the spec formats' own: a new plugin is offered without touching the tools. */
describe('MCP kinds', () => {
  const graphql = defaultSpecFormats().byKind('graphql')!;
  const wsdl: ApiKindInfo = { ...graphql, kind: 'wsdl', name: 'WSDL', label: 'WSDL 1.1', verbs: ['SOAP'] };
  let client: Client;

  beforeAll(async () => {
    client = await listingClient([...defaultSpecFormats().all, wsdl]);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('should name every format in the instructions, MCP servers among them', () => {
    expect(client.getInstructions()).toMatch(/^This server finds the APIs of your organisation \(OpenAPI, AsyncAPI, gRPC, GraphQL, MCP server and WSDL\) /);
  });

  it("should take every format's kind as list_apis's and search_apis's kind, and its verbs as a method", async () => {
    const { tools } = await client.listTools();
    const input = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, Record<string, unknown>>;
    const kinds = ['openapi', 'asyncapi', 'grpc', 'graphql', 'mcp', 'wsdl'];
    expect(input('list_apis').kind).toMatchObject({ enum: kinds, description: `A kind of API: ${kinds.join(', ')}` });
    const filters = input('search_apis').filters.properties as Record<string, { items: { enum?: string[] }; description: string }>;
    expect(filters.kinds.items.enum).toEqual(kinds);
    expect(filters.methods.description).toMatch(/: GET, POST, .*, TOOL, SOAP$/);
  });
});

/** REST search's rule `name` on `property` of a DTO, as its class-validator decorator declares it. */
function restRule(target: Function, property: string, name: string): unknown {
  const rules = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  const rule = rules.find((candidate) => candidate.propertyName === property && candidate.name === name);
  // Absent on both sides would compare equal: a rule renamed must fail here.
  if (!rule) throw new Error(`${target.name} has no ${name} rule on ${property}`);
  return rule.constraints[0];
}

/** `search_apis` takes what `POST /api-management/ai/search` takes (SearchFiltersDto), limit for limit. */
describe('search_apis limits', () => {
  type Schema = { maxItems?: number; maxLength?: number; minimum?: number; maximum?: number; items: Schema; properties: Record<string, Schema> };
  const formats = defaultSpecFormats().all;
  let search: Schema;

  beforeAll(async () => {
    const client = await listingClient(formats);
    search = (await client.listTools()).tools.find((tool) => tool.name === 'search_apis')!.inputSchema as unknown as Schema;
    await client.close();
  });

  it('should declare the REST limits of the query, the result sizes and every filter', () => {
    const { query, maxResults, maxEndpoints, filters } = search.properties;
    expect(query.maxLength).toBe(restRule(SearchRequestDto, 'query', 'maxLength'));
    for (const [name, size] of Object.entries({ maxResults, maxEndpoints })) {
      expect([name, size.minimum, size.maximum]).toEqual([name, restRule(SearchRequestDto, name, 'min'), restRule(SearchRequestDto, name, 'max')]);
    }
    for (const name of ['teamNames', 'tags', 'methods', 'kinds', 'lifecycle']) {
      expect([name, filters.properties[name].maxItems]).toEqual([name, restRule(SearchFiltersDto, name, 'arrayMaxSize')]);
    }
    for (const name of ['teamNames', 'tags']) {
      expect([name, filters.properties[name].items.maxLength]).toEqual([name, restRule(SearchFiltersDto, name, 'maxLength')]);
    }
    const labels = filters.properties.labels as unknown as { propertyNames: { pattern: string }; additionalProperties: Schema };
    expect([labels.propertyNames.pattern, labels.additionalProperties.maxLength]).toEqual([LABEL_LIMITS.key.source, LABEL_LIMITS.valueMaxChars]);
  });

  it.each([
    ['teamNames', 'checkout'],
    ['tags', 'playlists'],
    ['methods', 'get'],
    ['kinds', 'openapi'],
  ])('should accept as many %s as REST does, and refuse one more as REST does', async (name, value) => {
    const max = restRule(SearchFiltersDto, name, 'arrayMaxSize') as number;
    const restAccepts = async (count: number) => {
      const body = { query: 'x', orgId: 'acme', filters: { [name]: Array.from({ length: count }, () => value) } };
      return (await validate(plainToInstance(SearchRequestDto, body))).length === 0;
    };
    const mcpAccepts = (count: number) => searchFiltersInput(formats).safeParse({ [name]: Array.from({ length: count }, () => value) }).success;
    expect([await restAccepts(max), mcpAccepts(max)]).toEqual([true, true]);
    expect([await restAccepts(max + 1), mcpAccepts(max + 1)]).toEqual([false, false]);
  });
});
