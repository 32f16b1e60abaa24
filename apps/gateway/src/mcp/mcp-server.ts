import { Logger } from '@nestjs/common';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ANSWER_MAX_CHARS, type ApiKindInfo, type ApiRecord, SEARCH_LIMITS } from '#contracts';
import { fitJson } from '#http';
import { z } from 'zod';
import type { Caller } from '../auth/caller.js';
import { type AgentToolsService, LIST_PAGE_SIZE, ToolError } from './agent-tools.service.js';
import { apiText, changesText, listText, operationText, rateText, searchText } from './agent-text.js';
import {
  API_ID_INPUT,
  COUNT_INPUT,
  ID_INPUT,
  kindInput,
  LABEL_SELECTOR_INPUT,
  LIST_PAGE_INPUT,
  OPERATION_ID_INPUT,
  OPERATION_PAGE_INPUT,
  OPERATION_PATH_INPUT,
  ORG_ID_INPUT,
  SEARCH_DEFAULTS,
  searchFiltersInput,
  STAGE_INPUT,
  TAG_INPUT,
  TEAM_NAME_INPUT,
  VERB_INPUT,
  VERSION_REF_INPUT,
} from './mcp-inputs.js';

/** Operations `get_api` lists per page: a big API's list would cost an agent thousands of tokens at once. */
export const OPERATIONS_PAGE_SIZE = 50;
export const SPEC_URI_PREFIX = 'api-spec://';
/** The MCP specification's code for a resource that does not exist (or that the caller may not see). */
const RESOURCE_NOT_FOUND = -32002;

/** What the server is for, naming the kinds of API its spec formats read: a new format is named without touching this. */
function instructions(kinds: readonly ApiKindInfo[]): string {
  const names = kinds.map((info) => info.name);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
  return (
    `This server finds the APIs of your organisation (${list}) and tells you how to call them. ` +
    'Start with search_apis, describing what you need in plain words; then call get_operation with the apiId, method and path of the best ' +
    'endpoint: it gives the URL, parameters, request body, responses, auth and an example call. get_api and list_apis browse; ' +
    "get_api lists an API's versions and their stages, and compare_versions tells what changed between two (breaking changes first). " +
    'Once you have used a result, rate_result says whether it answered the need: the next search for the same need ranks it accordingly.'
  );
}

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
}

type ToolRunner = ReturnType<typeof toolRunner>;

/** The tools, in the order `tools/list` gives them. */
const TOOLS: readonly ((scope: ToolScope) => void)[] = [searchApis, rateResult, getApi, getOperation, compareVersions, listApis];

/** The tools and the spec resource, for one caller (a server per request: the transport is stateless). */
export function createMcpServer(context: McpServerContext): McpServer {
  const server = new McpServer({ name: 'api-discovery', version: '1.0.0' }, { instructions: instructions(context.tools.kinds) });
  const logger = new Logger('McpTools');
  const scope: ToolScope = { ...context, server, run: toolRunner(logger, context.requestId) };
  for (const register of TOOLS) register(scope);
  specResource(scope, logger);
  return server;
}

/** `search_apis`: the APIs that do what the agent describes, with their best matching operations. */
function searchApis({ server, tools, caller, requestId, run }: ToolScope): void {
  server.registerTool(
    'search_apis',
    {
      title: 'Search APIs',
      description:
        'Find the APIs that do what you need, described in plain words ("add songs to a playlist", "send an SMS verification code"). ' +
        'Returns ranked API cards (name, kind, apiId, how well it matches) each with its best matching operations (method and path). ' +
        'Follow up with get_operation on the endpoint you want to call.',
      inputSchema: {
        // Not empty, unlike REST's (which then browses): an agent says what it needs.
        query: z.string().min(1).max(SEARCH_LIMITS.queryMaxLength).describe('What the API should do, in plain words'),
        orgId: ORG_ID_INPUT.optional(),
        filters: searchFiltersInput(tools.kinds).optional(),
        maxResults: COUNT_INPUT(SEARCH_LIMITS.maxResults).optional().describe(`APIs to return (default ${SEARCH_DEFAULTS.maxResults})`),
        maxEndpoints: COUNT_INPUT(SEARCH_LIMITS.maxEndpoints).optional().describe(`Operations per API (default ${SEARCH_DEFAULTS.maxEndpoints})`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, orgId, filters, maxResults, maxEndpoints }) =>
      run(async () => {
        const sizes = { maxResults: maxResults ?? SEARCH_DEFAULTS.maxResults, maxEndpoints: maxEndpoints ?? SEARCH_DEFAULTS.maxEndpoints };
        const answer = await tools.search(caller, { query, orgId, filters, ...sizes }, requestId);
        // The cards without their matched chunks and evidence: an agent acts on the API and its endpoints.
        const results = answer.results.map(({ matchedChunks: _chunks, evidence: _evidence, ...card }) => card);
        const { searchId, totalFound, warnings } = answer;
        return { text: searchText(answer, query), data: { searchId, orgId: answer.orgId, totalFound, results, ...(warnings ? { warnings } : {}) } };
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
        'Later searches of the org for the same need rank it higher (true) or lower (false); a false lowers it for that need only, never for others. ' +
        'Rating the same result of the same search again replaces your vote.',
      inputSchema: {
        searchId: ID_INPUT.describe('The searchId of the search_apis answer you acted on'),
        apiId: API_ID_INPUT,
        operation: z
          .object({
            method: VERB_INPUT.describe('The method or verb, e.g. POST, MUTATION, RPC'),
            path: OPERATION_PATH_INPUT.describe('The path or address, e.g. /playlists/{playlist_id}/tracks'),
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
        'One API: name, recommended version and its stage, every version (deprecated ones with the version to move to), kind, team, labels, description, ' +
        'servers, auth schemes (names, types, scopes; never secrets), indexing status, and its operations (method, path, operationId, summary), ' +
        `${OPERATIONS_PAGE_SIZE} per page.`,
      inputSchema: { apiId: API_ID_INPUT, page: OPERATION_PAGE_INPUT.optional().describe('Page of the operation list (default 1)') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ apiId, page = 1 }) =>
      run(async () => {
        const view = await tools.api(caller, apiId, requestId);
        const pages = Math.max(1, Math.ceil(view.operations.length / OPERATIONS_PAGE_SIZE));
        const from = (page - 1) * OPERATIONS_PAGE_SIZE + 1;
        const to = Math.min(page * OPERATIONS_PAGE_SIZE, view.operations.length);
        const operations = view.operations.slice(from - 1, to);
        const described = view.overview ? { ...view.overview, operations } : { operations };
        return { text: apiText(view, { from, to, page, pages }), data: { ...view.record, ...described, page, pages, operationCount: view.operations.length } };
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
        'Everything needed to call one operation: full URL, parameters (where each goes, required, type), request body schema, responses, ' +
        'auth (schemes and scopes) and an example call (curl, GraphQL, grpcurl or a message). ' +
        'Name it by apiId with operationId, or with method and path as search_apis or get_api show them.',
      inputSchema: {
        apiId: API_ID_INPUT,
        operationId: OPERATION_ID_INPUT.optional().describe('The operationId, instead of method and path'),
        method: VERB_INPUT.optional().describe('The method or verb, e.g. POST, MUTATION, RPC (with path)'),
        path: OPERATION_PATH_INPUT.optional().describe('The path or address, e.g. /playlists/{playlist_id}/tracks (with method)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ apiId, operationId, method, path }) =>
      run(async () => {
        const named = operationId !== undefined || (method !== undefined && path !== undefined);
        if (!named) throw new ToolError('Name the operation: operationId, or method and path');
        const selector = operationId !== undefined ? { operationId } : { method: method!.toUpperCase(), path };
        const view = await tools.operation(caller, apiId, selector, requestId);
        const { kind, servers, securitySchemes } = view.overview;
        return { text: operationText(view), data: { api: { ...view.api, kind }, servers, securitySchemes, ...view.detail, example: view.example } };
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
        apiId: API_ID_INPUT,
        from: VERSION_REF_INPUT.describe('The version moved from, e.g. "1.0.0" (or "1.0.0@3" for one of its revisions)'),
        to: VERSION_REF_INPUT.optional().describe('The version moved to (default: the recommended version)'),
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
function listApis({ server, tools, caller, requestId, run }: ToolScope): void {
  server.registerTool(
    'list_apis',
    {
      title: 'List APIs',
      description: `Browse the APIs you can see, ${LIST_PAGE_SIZE} per page, by name: optionally of one org, team, kind, label or operation tag.`,
      inputSchema: {
        orgId: ORG_ID_INPUT.optional().describe('One org (default: every org of your token; with tag: required unless your token has one org)'),
        teamName: TEAM_NAME_INPUT.optional(),
        // The kinds this gateway's spec formats read: a new format is offered without touching the tools.
        kind: kindInput(tools.kinds).optional(),
        tag: TAG_INPUT.optional().describe('Only APIs with an operation carrying this tag'),
        label: LABEL_SELECTOR_INPUT.optional().describe('Only APIs carrying this label, as "key:value" (e.g. "tier:gold"; the value in any case)'),
        lifecycle: STAGE_INPUT.optional().describe('Only APIs whose recommended version is at this stage'),
        page: LIST_PAGE_INPUT.optional(),
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
        const resource = (api: ApiRecord) => ({ name: `${api.name} ${api.version}`, description: `The registered ${api.kind} spec` });
        return { resources: list.items.map((api) => ({ uri: `${SPEC_URI_PREFIX}${api.apiId}`, ...resource(api) })) };
      },
    }),
    { title: 'Registered spec', description: `An API's spec as it was registered (up to ${chars(specMaxChars)} characters, MCP_SPEC_MAX_CHARS)` },
    async (uri, { apiId }) => {
      try {
        const { text, type } = await tools.spec(caller, String(apiId));
        const cut = text.length > specMaxChars;
        const note =
          `\n\n[Cut at ${chars(specMaxChars)} of ${chars(text.length)} characters (MCP_SPEC_MAX_CHARS). ` +
          `Use get_operation for one operation in full, or GET /api-management/apis/${String(apiId)}/spec for the whole text.]`;
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
  const note = `\n[Cut at ${chars(max)} of ${chars(text.length)} characters: structuredContent has the rest, within its own limit.]`;
  return text.slice(0, max - note.length) + note;
}

/** The structured content within ANSWER_MAX_CHARS.mcpData, with what was cut in `cuts`. */
function fittedData(data: object): Record<string, unknown> {
  const { value, cuts } = fitJson(data as Record<string, unknown>, ANSWER_MAX_CHARS.mcpData);
  return cuts.length ? { ...value, cuts: [...(Array.isArray(value.cuts) ? (value.cuts as string[]) : []), ...cuts] } : value;
}

/** A count of characters as the notes give it: `12,000`. */
function chars(count: number): string {
  return count.toLocaleString('en-US');
}
