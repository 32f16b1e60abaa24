import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { MCP_RESOURCES, MCP_TOOLS } from '#contracts';
import type { AgentToolsService } from './agent-tools.service.js';
import { createMcpServer } from './mcp-server.js';

/** The list the web UI's Assistant page shows (`MCP_TOOLS`) against what the server registers. */
describe('MCP_TOOLS', () => {
  let client: Client;

  beforeAll(async () => {
    // Listing calls no tool: the service is only asked for the kinds it offers.
    const tools = { kinds: ['openapi', 'graphql'] } as unknown as AgentToolsService;
    const server = createMcpServer({ tools, caller: { sub: 'lister', orgs: ['acme'], roles: ['reader'] }, specMaxChars: 1000 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'mcp-tools-spec', version: '1.0.0' });
    await client.connect(clientSide);
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
