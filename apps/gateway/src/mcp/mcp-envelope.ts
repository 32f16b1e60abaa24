import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { LABEL_LIMITS } from '#contracts';
import { reservedKeyIn } from '#http';

/** Longer ids, method names and tool names are refused rather than echoed back (the SDK repeats them in its answers). */
export const MCP_ENVELOPE_LIMITS = { idChars: 200, methodChars: 100, toolNameChars: 100, uriChars: 2200 } as const;

/** A JSON-RPC error for a message refused before the MCP server sees it; answered with HTTP 400. */
export interface EnvelopeRefusal {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/**
 * Checks one POSTed JSON-RPC message before the MCP SDK reads it, so that what the SDK would
 * answer badly is refused in words:
 * - a batch (an array), which the MCP specification dropped in 2025-06-18: one POST carrying
 *   a hundred calls would count once against the caller's rate limit;
 * - ids, method, tool names and resource URIs too long to echo back;
 * - tool `arguments` that are not an object (the SDK answers those with its schema library's raw JSON);
 * - a `__proto__`, `constructor` or `prototype` key in them, which the tools' schemas would drop
 *   without a word (a label filter so named would vanish and widen the search).
 */
export function envelopeRefusal(body: unknown): EnvelopeRefusal | undefined {
  if (Array.isArray(body)) {
    return refusal(null, ErrorCode.InvalidRequest, 'JSON-RPC batches are not supported (MCP 2025-06-18 removed them): send one message per POST');
  }
  if (typeof body !== 'object' || body === null) return refusal(null, ErrorCode.InvalidRequest, 'Send one JSON-RPC 2.0 message, a JSON object, per POST');
  const message = body as { id?: unknown; method?: unknown; params?: unknown };
  const { id } = message;
  const validId =
    id === undefined ||
    id === null ||
    (typeof id === 'number' && Number.isSafeInteger(id)) ||
    (typeof id === 'string' && id.length <= MCP_ENVELOPE_LIMITS.idChars);
  if (!validId) return refusal(null, ErrorCode.InvalidRequest, `The id must be an integer or a string of at most ${MCP_ENVELOPE_LIMITS.idChars} characters`);
  const answerId = (id ?? null) as string | number | null;
  if (message.method === undefined) return undefined; // a response to the server: the SDK answers it
  if (typeof message.method !== 'string' || message.method.length > MCP_ENVELOPE_LIMITS.methodChars) {
    return refusal(answerId, ErrorCode.InvalidRequest, `The method must be a string of at most ${MCP_ENVELOPE_LIMITS.methodChars} characters`);
  }
  const params = message.params as { name?: unknown; arguments?: unknown; uri?: unknown } | undefined;
  if (message.method === 'tools/call') {
    if (typeof params?.name !== 'string' || params.name.length > MCP_ENVELOPE_LIMITS.toolNameChars) {
      const reason = `params.name must name a tool (at most ${MCP_ENVELOPE_LIMITS.toolNameChars} characters): see tools/list`;
      return refusal(answerId, ErrorCode.InvalidParams, reason);
    }
    const args = params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      const reason =
        `params.arguments must be an object of the tool's named arguments, e.g. {"query": "send an SMS"}; ` +
        `it was ${Array.isArray(args) ? 'an array' : typeof args}`;
      return refusal(answerId, ErrorCode.InvalidParams, reason);
    }
    const reserved = reservedKeyIn(args);
    if (reserved) {
      const where = reserved.path ? `params.arguments.${reserved.path}` : 'params.arguments';
      const why = `${LABEL_LIMITS.reservedKeys.join(', ')} name JavaScript's object machinery`;
      return refusal(answerId, ErrorCode.InvalidParams, `${where}: key ${JSON.stringify(reserved.key)} is reserved (${why}): choose another`);
    }
  }
  if (message.method === 'resources/read' && (typeof params?.uri !== 'string' || params.uri.length > MCP_ENVELOPE_LIMITS.uriChars)) {
    const reason = `params.uri must be a resource URI of at most ${MCP_ENVELOPE_LIMITS.uriChars} characters, such as api-spec://<apiId>`;
    return refusal(answerId, ErrorCode.InvalidParams, reason);
  }
  return undefined;
}

function refusal(id: string | number | null, code: number, message: string): EnvelopeRefusal {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
