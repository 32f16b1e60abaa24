import { Logger } from '@nestjs/common';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ANSWER_MAX_CHARS, LABEL_LIMITS, LIFECYCLE_STAGES } from '#contracts';
import { fitJson } from '#http';
import { z } from 'zod';
import type { Caller } from '../auth/caller.js';
import { type AgentToolsService, LIST_PAGE_SIZE, ToolError } from './agent-tools.service.js';
import { apiText, changesText, listText, operationText, rateText, searchText } from './agent-text.js';

/** Operations `get_api` lists per page: a big API's list would cost an agent thousands of tokens at once. */
export const OPERATIONS_PAGE_SIZE = 50;
export const SPEC_URI_PREFIX = 'api-spec://';
/** The MCP specification's code for a resource that does not exist (or that the caller may not see). */
const RESOURCE_NOT_FOUND = -32002;

const INSTRUCTIONS =
  "This server finds the APIs of your organisation (REST/OpenAPI, AsyncAPI events, GraphQL and gRPC) and tells you how to call them. " +
  'Start with search_apis, describing what you need in plain words; then call get_operation with the apiId, method and path of the best ' +
  'endpoint: it gives the URL, parameters, request body, responses, auth and an example call. get_api and list_apis browse; ' +
  'get_api lists an API\'s versions and their stages, and compare_versions tells what changed between two (breaking changes first). ' +
  'Once you have used a result, rate_result says whether it answered the need: the next search for the same need ranks it accordingly.';

const words = (max: number) => z.array(z.string().min(1).max(200)).max(max);
const ORG_ID = z.string().min(1).max(100).describe('The org to look in; may be left out when your token belongs to one org');
const API_ID = z.string().min(1).max(100).describe('The apiId from search_apis, get_api or list_apis');
const STAGE = z.enum(LIFECYCLE_STAGES);
const VERSION_REF = z.string().min(1).max(120);

export interface McpServerContext {
  tools: AgentToolsService;
  caller: Caller;
  requestId?: string;
  specMaxChars: number;
}

/** What each tool's registration takes: the server, the caller and the service that acts as them, and how an answer is made. */
interface ToolScope extends McpServerContext {
  server: McpServer;
  run: ToolRunner;
  /** A kind of API this gateway reads, as a tool's input. */
  kind: z.ZodEnum<Record<string, string>>;
}

type ToolRunner = ReturnType<typeof toolRunner>;

/** The tools, in the order `tools/list` gives them. */
const TOOLS: readonly ((scope: ToolScope) => void)[] = [searchApis, rateResult, getApi, getOperation, compareVersions, listApis];

/** The tools and the spec resource, for one caller (a server per request: the transport is stateless). */
export function createMcpServer(context: McpServerContext): McpServer {
  const server = new McpServer({ name: 'api-discovery', version: '1.0.0' }, { instructions: INSTRUCTIONS });
  const logger = new Logger('McpTools');
  // The kinds this gateway's spec formats read: a new format is offered without touching the tools.
  const { kinds } = context.tools;
  const kind = z.enum(kinds as [string, ...string[]]).describe(`A kind of API: ${kinds.join(', ')}`);
  const scope: ToolScope = { ...context, server, run: toolRunner(logger, context.requestId), kind };
  for (const register of TOOLS) register(scope);
  specResource(scope, logger);
  return server;
}

/** `search_apis`: the APIs that do what the agent describes, with their best matching operations. */
function searchApis({ server, tools, caller, requestId, run, kind }: ToolScope): void {
  server.registerTool(
    'search_apis',
    {
      title: 'Search APIs',
      description:
        'Find the APIs that do what you need, described in plain words ("add songs to a playlist", "send an SMS verification code"). ' +
        'Returns ranked API cards (name, kind, apiId, how well it matches) each with its best matching operations (method and path). ' +
        'Follow up with get_operation on the endpoint you want to call.',
      inputSchema: {
        query: z.string().min(1).max(1000).describe('What the API should do, in plain words'),
        orgId: ORG_ID.optional(),
        filters: z
          .object({
            teamNames: words(20).optional().describe('Only APIs of these teams'),
            tags: words(20).optional().describe('Only operations with these tags'),
            kinds: z.array(kind).max(kind.options.length).optional().describe('Only these kinds of API'),
            methods: words(20).optional().describe('Only operations with these verbs: GET, POST…, PUBLISH, SUBSCRIBE, QUERY, MUTATION, RPC'),
            labels: z
              .record(z.string().min(1).max(63), z.string().min(1).max(LABEL_LIMITS.valueMaxChars))
              .optional()
              .describe('Only APIs carrying every one of these labels, e.g. {"tier": "gold"} (keys lower case; values in any case)'),
            lifecycle: z.array(STAGE).max(LIFECYCLE_STAGES.length).optional().describe('Only APIs whose recommended version is at these stages, e.g. ["production"] (retired APIs never show)'),
          })
          .optional(),
        maxResults: z.number().int().min(1).max(50).optional().describe('APIs to return (default 5)'),
        maxEndpoints: z.number().int().min(1).max(50).optional().describe('Operations per API (default 3)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, orgId, filters, maxResults, maxEndpoints }) =>
      run(async () => {
        const answer = await tools.search(caller, { query, orgId, filters, maxResults: maxResults ?? 5, maxEndpoints: maxEndpoints ?? 3 }, requestId);
        // The cards without their matched chunks and evidence: an agent acts on the API and its endpoints.
        const results = answer.results.map(({ matchedChunks: _chunks, evidence: _evidence, ...card }) => card);
        return { text: searchText(answer, query), data: { searchId: answer.searchId, orgId: answer.orgId, totalFound: answer.totalFound, results, ...(answer.warnings ? { warnings: answer.warnings } : {}) } };
      }),
  );
}

/** `rate_result`: an agent's vote on a search result, as the web UI's buttons give one. */
function rateResult({ server, tools, caller, requestId, run }: ToolScope): void {
  server.registerTool(
    'rate_result',
    {
      title: 'Rate a search result',
      description:
        'After acting on a search_apis result, say whether it answered the need: helpful true when the API (or its operation) did what was asked, ' +
        'false when it was the wrong one. Name the searchId of that search_apis answer, the apiId, and the operation when you used one. ' +
        "Later searches of the org for the same need rank it higher (true) or lower (false); a false lowers it for that need only, never for others. " +
        'Rating the same result of the same search again replaces your vote.',
      inputSchema: {
        searchId: z.string().min(1).max(100).describe('The searchId of the search_apis answer you acted on'),
        apiId: API_ID,
        operation: z
          .object({
            method: z.string().min(1).max(16).describe('The method or verb, e.g. POST, MUTATION, RPC'),
            path: z.string().min(1).max(2000).describe('The path or address, e.g. /playlists/{playlist_id}/tracks'),
          })
          .optional()
          .describe('The operation you used, as search_apis or get_operation give it'),
        helpful: z.boolean().describe('true: it answered the need; false: it was not what was needed'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ searchId, apiId, operation, helpful }) =>
      run(async () => {
        const rated = await tools.rate(caller, { searchId, apiId, ...(operation ? { operation } : {}), helpful }, requestId);
        return { text: rateText(rated), data: rated };
      }),
  );
}

/** `get_api`: one API, with a page of its operations. */
function getApi({ server, tools, caller, requestId, run }: ToolScope): void {
  server.registerTool(
    'get_api',
    {
      title: 'Get an API',
      description:
        "One API: name, recommended version and its stage, every version (deprecated ones with the version to move to), kind, team, labels, description, servers, auth schemes (names, types, scopes; never secrets), indexing status, and its operations (method, path, operationId, summary), " +
        `${OPERATIONS_PAGE_SIZE} per page.`,
      inputSchema: { apiId: API_ID, page: z.number().int().min(1).max(1000).optional().describe('Page of the operation list (default 1)') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ apiId, page = 1 }) =>
      run(async () => {
        const view = await tools.api(caller, apiId, requestId);
        const pages = Math.max(1, Math.ceil(view.operations.length / OPERATIONS_PAGE_SIZE));
        const from = (page - 1) * OPERATIONS_PAGE_SIZE + 1;
        const to = Math.min(page * OPERATIONS_PAGE_SIZE, view.operations.length);
        const operations = view.operations.slice(from - 1, to);
        return {
          text: apiText(view, { from, to, page, pages }),
          data: { ...view.record, ...(view.overview ? { ...view.overview, operations } : { operations }), page, pages, operationCount: view.operations.length },
        };
      }),
  );
}

/** `get_operation`: everything needed to call one operation. */
function getOperation({ server, tools, caller, requestId, run }: ToolScope): void {
  server.registerTool(
    'get_operation',
    {
      title: 'Get an operation',
      description:
        'Everything needed to call one operation: full URL, parameters (where each goes, required, type), request body schema, responses, auth (schemes and scopes) and an example call (curl, GraphQL, grpcurl or a message). ' +
        'Name it by apiId with operationId, or with method and path as search_apis or get_api show them.',
      inputSchema: {
        apiId: API_ID,
        operationId: z.string().min(1).max(500).optional().describe('The operationId, instead of method and path'),
        method: z.string().min(1).max(16).optional().describe('The method or verb, e.g. POST, MUTATION, RPC (with path)'),
        path: z.string().min(1).max(2000).optional().describe('The path or address, e.g. /playlists/{playlist_id}/tracks (with method)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ apiId, operationId, method, path }) =>
      run(async () => {
        if (operationId === undefined && (method === undefined || path === undefined)) throw new ToolError('Name the operation: operationId, or method and path');
        const selector = operationId !== undefined ? { operationId } : { method: method!.toUpperCase(), path };
        const view = await tools.operation(caller, apiId, selector, requestId);
        return {
          text: operationText(view),
          data: { api: { ...view.api, kind: view.overview.kind }, servers: view.overview.servers, securitySchemes: view.overview.securitySchemes, ...view.detail, example: view.example },
        };
      }),
  );
}

/** `compare_versions`: what changed between two versions of an API, breaking changes first. */
function compareVersions({ server, tools, caller, run }: ToolScope): void {
  server.registerTool(
    'compare_versions',
    {
      title: 'Compare versions',
      description:
        'What changed between two versions of an API (or two revisions of one: "1.0.0@3"), breaking changes first: removed operations, new required inputs, ' +
        'removed or retyped response fields… Use it before moving a caller from one version to another.',
      inputSchema: {
        apiId: API_ID,
        from: VERSION_REF.describe('The version moved from, e.g. "1.0.0" (or "1.0.0@3" for one of its revisions)'),
        to: VERSION_REF.optional().describe('The version moved to (default: the recommended version)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ apiId, from, to }) =>
      run(async () => {
        const report = await tools.compare(caller, apiId, from, to);
        return { text: changesText(report), data: report };
      }),
  );
}

/** `list_apis`: the APIs the caller can see, a page at a time. */
function listApis({ server, tools, caller, requestId, run, kind }: ToolScope): void {
  server.registerTool(
    'list_apis',
    {
      title: 'List APIs',
      description: `Browse the APIs you can see, ${LIST_PAGE_SIZE} per page, by name: optionally of one org, team, kind, label or operation tag.`,
      inputSchema: {
        orgId: ORG_ID.optional().describe('One org (default: every org of your token; with tag: required unless your token has one org)'),
        teamName: z.string().min(1).max(100).optional(),
        kind: kind.optional(),
        tag: z.string().min(1).max(200).optional().describe('Only APIs with an operation carrying this tag'),
        label: z.string().min(3).max(200).optional().describe('Only APIs carrying this label, as "key:value" (e.g. "tier:gold"; the value in any case)'),
        lifecycle: STAGE.optional().describe('Only APIs whose recommended version is at this stage'),
        page: z.number().int().min(1).max(1000).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ orgId, teamName, kind, tag, label, lifecycle, page = 1 }) =>
      run(async () => {
        const list = await tools.list(caller, { orgId, teamName, kind, tag, label, lifecycle, page }, requestId);
        return { text: listText(list, page, LIST_PAGE_SIZE), data: { ...list, page, pageSize: LIST_PAGE_SIZE } };
      }),
  );
}

/** `api-spec://{apiId}`: an API's spec as it was registered, cut at `specMaxChars`. */
function specResource({ server, tools, caller, requestId, specMaxChars }: ToolScope, logger: Logger): void {
  server.registerResource(
    'api-spec',
    new ResourceTemplate(`${SPEC_URI_PREFIX}{apiId}`, {
      list: async () => {
        const list = await tools.list(caller, { page: 1 }, requestId).catch(() => ({ items: [] }));
        return { resources: list.items.map((api) => ({ uri: `${SPEC_URI_PREFIX}${api.apiId}`, name: `${api.name} ${api.version}`, description: `The registered ${api.kind} spec` })) };
      },
    }),
    { title: 'Registered spec', description: `An API's spec as it was registered (up to ${specMaxChars.toLocaleString('en-US')} characters, MCP_SPEC_MAX_CHARS)` },
    async (uri, { apiId }) => {
      try {
        const { text, type } = await tools.spec(caller, String(apiId));
        const cut = text.length > specMaxChars;
        const note = `\n\n[Cut at ${specMaxChars.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters (MCP_SPEC_MAX_CHARS). Use get_operation for one operation in full, or GET /api-management/apis/${String(apiId)}/spec for the whole text.]`;
        return { contents: [{ uri: uri.href, mimeType: type.mediaType, text: cut ? `${text.slice(0, specMaxChars)}${note}` : text }] };
      } catch (error) {
        // A resource has no isError: the SDK answers a thrown McpError as that JSON-RPC error.
        if (error instanceof ToolError) throw new McpError(error.status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, error.message);
        logger.error(`Resource read failed (request ${requestId}): ${(error as Error).stack ?? String(error)}`);
        throw new McpError(ErrorCode.InternalError, `The resource could not be read; request id: ${requestId ?? 'unknown'}`);
      }
    },
  );
}

/** A tool's outcome: its text and data, or its failure in words (`isError`); an unexpected failure is logged, never shown. */
function toolRunner(logger: Logger, requestId: string | undefined) {
  return async (task: () => Promise<{ text: string; data: object }>): Promise<CallToolResult> => {
    try {
      const { text, data } = await task();
      return { content: [{ type: 'text', text: fittedText(text) }], structuredContent: fittedData(data) };
    } catch (error) {
      if (error instanceof ToolError) return { content: [{ type: 'text', text: error.message }], isError: true };
      logger.error(`Tool failed (request ${requestId}): ${(error as Error).stack ?? String(error)}`);
      return { content: [{ type: 'text', text: `The tool failed unexpectedly; nothing was changed. Request id: ${requestId ?? 'unknown'}` }], isError: true };
    }
  };
}

/** The text within ANSWER_MAX_CHARS.mcpText, however the spec behind it was built (each part is bounded; this holds for their sum). */
function fittedText(text: string): string {
  const max = ANSWER_MAX_CHARS.mcpText;
  if (text.length <= max) return text;
  const note = `\n[Cut at ${max.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters: structuredContent has the rest, within its own limit.]`;
  return text.slice(0, max - note.length) + note;
}

/** The structured content within ANSWER_MAX_CHARS.mcpData, with what was cut in `cuts`. */
function fittedData(data: object): Record<string, unknown> {
  const { value, cuts } = fitJson(data as Record<string, unknown>, ANSWER_MAX_CHARS.mcpData);
  return cuts.length ? { ...value, cuts: [...(Array.isArray(value.cuts) ? (value.cuts as string[]) : []), ...cuts] } : value;
}
