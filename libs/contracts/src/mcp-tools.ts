/**
 * What the MCP server at `/mcp` offers, a line each, in the order the web UI's Assistant page
 * lists them. The gateway's `apps/gateway/src/mcp/mcp-server.ts` registers them with their full
 * descriptions; `apps/gateway/src/mcp/mcp-tools.spec.ts` fails when the two lists differ.
 */
export const MCP_TOOLS = [
  { name: 'search_apis', summary: 'Finds the APIs that do what you describe in plain words, with their best matching operations.' },
  { name: 'get_operation', summary: 'Everything needed to call one operation: URL, parameters, body, responses, auth and an example call.' },
  { name: 'rate_result', summary: 'Says whether a search result answered your need, so that the next search for the same need ranks it higher or lower.' },
  { name: 'get_api', summary: 'One API: its versions and their stages, servers, auth schemes and operations.' },
  { name: 'compare_versions', summary: 'What changed between two versions of an API (or two revisions of one), breaking changes first.' },
  { name: 'list_apis', summary: 'Browses the APIs you can see, by org, team, kind, label, stage or tag.' },
] as const;

/** The MCP server's resources (by URI template), as the Assistant page lists them after the tools. */
export const MCP_RESOURCES = [{ uriTemplate: 'api-spec://{apiId}', summary: "A resource: an API's spec as it was registered." }] as const;

/**
 * The MCP tools' inputs that no REST route takes in the same form (ids REST takes in its paths,
 * `get_api`'s pages of operations, `list_apis`'s one label); every other input keeps the limits
 * of the REST route for the same thing (SEARCH_LIMITS, LIST_LIMITS, LABEL_LIMITS…).
 */
export const MCP_TOOL_LIMITS = {
  /** An apiId or a searchId. */
  idMaxChars: 100,
  operationIdMaxChars: 500,
  /** `list_apis`'s `label`, `key:value`, before `parseLabelSelector` applies the label rules: one character each side at least. */
  labelSelector: { minChars: 3, maxChars: 200 },
  /** The last page of `get_api`'s operation list that may be asked for (pages past an API's last are empty). */
  operationPagesMax: 1000,
} as const;
