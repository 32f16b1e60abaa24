import type { ApiOverview, OperationDetail } from '#contracts';
import { exampleValue, quote } from '../shared/example-value.js';

/** Where the call goes when the description names no URL (a server run over stdio, say). */
export const PLACEHOLDER_URL = 'https://mcp.example.com/mcp';

/**
 * A curl command that calls the tool as MCP's Streamable HTTP transport carries it: a JSON-RPC
 * `tools/call` request whose `arguments` are the required ones, with values built from their
 * schemas, posted to the server's URL (or a placeholder to replace).
 */
export function mcpExample(api: ApiOverview, operation: OperationDetail): string {
  const args = Object.fromEntries(
    operation.parameters.filter((parameter) => parameter.required).map((parameter) => [parameter.name, exampleValue(parameter.schema)]),
  );
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: operation.operationId ?? operation.path, arguments: args } };
  const url = api.servers[0]?.url ?? PLACEHOLDER_URL;
  return [
    `curl -X POST ${quote(url)}`,
    `-H 'Content-Type: application/json'`,
    `-H 'Accept: application/json, text/event-stream'`,
    `-H 'Authorization: Bearer $TOKEN'`,
    `-d ${quote(JSON.stringify(call))}`,
  ].join(' ');
}
