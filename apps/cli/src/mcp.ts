import { parseArgs } from 'node:util';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * A stdio bridge to the gateway's `/mcp`, for desktop MCP clients that only start local commands:
 * JSON-RPC read from stdin is POSTed to the gateway with the token, and its answers written to
 * stdout. stdout carries JSON-RPC and nothing else; anything for people goes to stderr.
 */
const USAGE = `Usage: npm run -s mcp -- [--url <gateway URL, default $API_DISCOVERY_URL or http://localhost:8080>] [--token <JWT>] (or the token in $API_DISCOVERY_TOKEN)`;
/** JSON-RPC's range for implementation-defined server errors: the gateway could not be asked. */
const GATEWAY_ERROR = -32000;

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        url: { type: 'string', default: process.env.API_DISCOVERY_URL || 'http://localhost:8080' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // A typo in a desktop client's config: what is wrong and the usage, not a stack trace.
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
})();
if (values.help) {
  console.error(USAGE);
  process.exit(0);
}
// The environment is the way to recommend: a token among a config file's args shows in every process list.
const token = values.token || process.env.API_DISCOVERY_TOKEN;
if (!token) {
  console.error('No token: set API_DISCOVERY_TOKEN (or pass --token); get one with npm run token -- --org <orgId> --roles reader');
  process.exit(2);
}
let endpoint: URL;
try {
  endpoint = new URL(`${values.url.replace(/\/+$/, '')}/mcp`);
} catch {
  console.error(`--url must be the gateway's base URL, e.g. http://localhost:8080 (not "${values.url}")`);
  process.exit(2);
}

const stdio = new StdioServerTransport();
const gateway = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
const log = (message: string) => console.error(`[mcp bridge] ${message}`);
/** Ids of initialize requests in flight: their answers carry the protocol version agreed. */
const initializing = new Set<RequestId>();
let closing = false;

/** Messages on their way to the gateway: the end of stdin waits for their answers. */
const inFlight = new Set<Promise<void>>();
stdio.onmessage = (message: JSONRPCMessage) => {
  if (isJSONRPCRequest(message) && message.method === 'initialize') initializing.add(message.id);
  const sent: Promise<void> = gateway.send(message).catch((error: unknown) => {
    // A request the gateway did not answer still gets an answer, or the client waits for ever.
    if (closing || !isJSONRPCRequest(message)) return;
    initializing.delete(message.id);
    const status = httpStatus(error);
    return stdio.send({ jsonrpc: '2.0', id: message.id, error: { code: GATEWAY_ERROR, message: describe(error), ...(status ? { data: { status } } : {}) } });
  });
  inFlight.add(sent);
  void sent.finally(() => inFlight.delete(sent));
};

gateway.onmessage = (message: JSONRPCMessage) => {
  // The SDK's Client tells its HTTP transport the version agreed, to send as MCP-Protocol-Version
  // on every later request; here the desktop client agrees it, so the bridge tells the transport.
  if (isJSONRPCResultResponse(message) && initializing.delete(message.id) && typeof message.result.protocolVersion === 'string') {
    gateway.setProtocolVersion(message.result.protocolVersion);
  }
  void stdio.send(message);
};

// Each failure once on stderr, for the desktop client's log; a failed request is answered above.
gateway.onerror = (error) => {
  if (!closing) log(describe(error));
};
stdio.onerror = (error) => log(`stdin: ${error.message}`);

async function closeBoth(): Promise<void> {
  if (closing) return;
  closing = true;
  await Promise.allSettled([stdio.close(), gateway.close()]);
  // Nothing should be left, but an open socket must not keep a bridge nobody talks to alive.
  setTimeout(() => process.exit(0), 1000).unref();
}
stdio.onclose = () => void closeBoth();
gateway.onclose = () => void closeBoth();
// StdioServerTransport does not watch for the end of stdin, the client's goodbye: what it sent
// before still gets its answers (a piped script's last request too).
process.stdin.on('end', () => void Promise.allSettled(inFlight).then(closeBoth));
// A client gone while an answer is written: EPIPE, not a crash with a stack trace.
process.stdout.on('error', () => void closeBoth());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void closeBoth());

/** What went wrong, as a person fixing it needs to read it (shown by the desktop client). */
function describe(error: unknown): string {
  const status = httpStatus(error);
  if (status) {
    const detail = gatewayDetail((error as Error).message);
    const hints: Record<number, string> = {
      401: 'The gateway refused the token (401): get a new one with npm run token -- --org <orgId> --roles reader',
      403: 'The token has no role that may use MCP (403): get one with npm run token -- --org <orgId> --roles reader',
      429: 'The gateway rate limit is reached (429): wait and try again',
    };
    return `${hints[status] ?? `The gateway answered ${status} at ${endpoint.href}`}${detail ? ` (gateway: ${detail})` : ''}`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return `Cannot reach the gateway at ${endpoint.href}${cause ? ` (${cause})` : ''}: is it running (npm start), and is --url right?`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The HTTP status the gateway answered with (the SDK gives -1 for an answer it could not read). */
function httpStatus(error: unknown): number | undefined {
  return error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0 ? error.code : undefined;
}

/** What the gateway said, from the body the SDK puts after "Error POSTing to endpoint: ": a problem document or a JSON-RPC error. */
function gatewayDetail(message: string): string | undefined {
  try {
    const body = JSON.parse(message.slice(message.indexOf('{')));
    const detail: unknown = body?.detail ?? body?.error?.message;
    return typeof detail === 'string' ? detail : undefined;
  } catch {
    return undefined;
  }
}

await gateway.start();
await stdio.start();
