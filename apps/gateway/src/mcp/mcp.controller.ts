import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import type { GatewayConfig } from '#config';
import { MCP_RESOURCES, MCP_TOOLS } from '#contracts';
import { requestIdOf } from '#http';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { AgentToolsService } from './agent-tools.service.js';
import { envelopeRefusal } from './mcp-envelope.js';
import { createMcpServer } from './mcp-server.js';

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, for AI assistants and agents. Behind
 * the same guards as the REST API (bearer token, roles, rate limit, request ids and logs).
 * Stateless: each POST gets its own server and transport, answered as JSON, so any gateway
 * instance answers any call and nothing is kept between them.
 */
@ApiTags('Agents')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS)
@Controller('mcp')
export class McpController {
  constructor(
    private readonly tools: AgentToolsService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      `MCP (Streamable HTTP, JSON responses): tools ${MCP_TOOLS.map((tool) => tool.name).join(', ')}; ` +
      `resource ${MCP_RESOURCES.map((resource) => resource.uriTemplate).join(', ')}`,
    description: 'Send JSON-RPC messages with `Accept: application/json, text/event-stream`. See the README, "Use it from an AI assistant".',
  })
  @ApiBody({ schema: { type: 'object', description: 'One JSON-RPC 2.0 request or notification (batches are refused: 400, -32600)' } })
  @ApiOkResponse({ description: 'The JSON-RPC response' })
  async handle(@CurrentCaller() caller: Caller, @Req() request: Request, @Res() response: Response): Promise<void> {
    const refusal = envelopeRefusal(request.body);
    if (refusal) {
      response.status(400).json(refusal);
      return;
    }
    const server = createMcpServer({ tools: this.tools, caller, requestId: requestIdOf(request), specMaxChars: this.config.mcpSpecMaxChars });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }

  /** No server-sent event stream: a stateless server answers every POST in full. */
  @Get()
  @ApiOperation({ summary: 'Not used: this MCP server is stateless (405)' })
  noStream(@Res() response: Response): void {
    methodNotAllowed(response);
  }

  /** No session to end. */
  @Delete()
  @ApiOperation({ summary: 'Not used: this MCP server is stateless (405)' })
  noSession(@Res() response: Response): void {
    methodNotAllowed(response);
  }
}

function methodNotAllowed(response: Response): void {
  response
    .status(405)
    .setHeader('Allow', 'POST')
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send each message with POST' }, id: null });
}
