import { ANSWER_MAX_CHARS } from '#contracts';
import { answerBombs, longStringBomb } from './answer-bombs.js';
import { percentile } from './eval-metrics.js';
import type { PlatformClient } from '../apps/cli/src/platform-client.js';

/** Single `get_operation` calls sent at once on the heaviest document: what one caller may do within its rate limit. */
const AT_ONCE = 60;

/** Requests to the gateway as the hostile member, and how big their answers are. */
function gatewayCalls(gateway: string, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const get = (path: string) => fetch(`${gateway}${path}`, { headers });
  const mcp = (body: unknown) =>
    fetch(`${gateway}/mcp`, { method: 'POST', headers: { ...headers, accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
  const call = (name: string, args: object) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const bytes = async (answer: Promise<Response>) => (await (await answer).arrayBuffer()).byteLength;
  /** Its size, or its status and problem when it was refused. */
  const measured = async (answer: Promise<Response>) => {
    const response = await answer;
    const body = await response.text();
    return response.ok ? Buffer.byteLength(body).toLocaleString('en-US') : `${response.status}: ${body.slice(0, 200)}`;
  };
  return { gateway, headers, get, mcp, call, bytes, measured };
}

type Gateway = ReturnType<typeof gatewayCalls>;
type Bomb = { name: string; apiId: string; query: string };

/** Waits until each document's indexing is done, so the answers measured are the indexed ones. */
async function waitIndexed(client: PlatformClient, apis: Bomb[]): Promise<void> {
  for (const { apiId } of apis) {
    for (let status = await client.indexingStatus(apiId); !['COMPLETED', 'FAILED'].includes(status.status); status = await client.indexingStatus(apiId)) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** A row per document: the size of its largest answer on each route and tool, then the facets'. */
async function printLargestAnswers({ gateway, headers, get, mcp, call, measured }: Gateway, orgId: string, apis: Bomb[]): Promise<void> {
  console.log(`Largest answer in bytes (bounds: ANSWER_MAX_CHARS, ${JSON.stringify(ANSWER_MAX_CHARS)})`);
  console.log(['document', 'GET /operations', 'GET …/detail', 'POST /ai/search', 'MCP get_api', 'MCP get_operation'].join('\t'));
  for (const { name, apiId, query } of apis) {
    const { items } = (await (await get(`/api-management/apis/${apiId}/endpoints`)).json()) as { items: { method: string; path: string }[] };
    const first = items.find((item) => !item.path.endsWith('…'))!;
    const selector = new URLSearchParams({ method: first.method, path: first.path });
    const sizes = [
      await measured(get(`/api-management/apis/${apiId}/operations`)),
      await measured(get(`/api-management/apis/${apiId}/operations/detail?${selector}`)),
      await measured(
        fetch(`${gateway}/api-management/ai/search`, { method: 'POST', headers, body: JSON.stringify({ orgId, query, maxResults: 50, maxEndpoints: 50 }) }),
      ),
      await measured(mcp(call('get_api', { apiId }))),
      await measured(mcp(call('get_operation', { apiId, method: first.method, path: first.path }))),
    ];
    console.log([name, ...sizes].join('\t'));
  }
  console.log(`facets: ${await measured(get(`/api-management/ai/facets?orgId=${orgId}`))} bytes`);
}

/** The heaviest document's first operation as an MCP call, and what a JSON-RPC batch of 20 of them gets. */
async function printBatch({ get, mcp, call }: Gateway, heaviest: Bomb): Promise<ReturnType<Gateway['call']>> {
  const { items } = (await (await get(`/api-management/apis/${heaviest.apiId}/endpoints`)).json()) as { items: { method: string; path: string }[] };
  const operation = call('get_operation', { apiId: heaviest.apiId, method: items[0].method, path: items[0].path });
  const batch = await mcp(Array.from({ length: 20 }, (_, id) => ({ ...operation, id })));
  console.log(`A batch of 20 get_operation: ${batch.status} ${(await batch.text()).slice(0, 120)}`);
  return operation;
}

/** `AT_ONCE` copies of `operation` at once, with `/healthz` timed meanwhile. */
async function printAtOnce({ gateway, mcp, bytes }: Gateway, heaviest: Bomb, operation: ReturnType<Gateway['call']>): Promise<void> {
  const health: number[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      await fetch(`${gateway}/healthz`);
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => bytes(mcp(operation))));
  const seconds = (performance.now() - started) / 1000;
  probing = false;
  await probe;
  console.log(
    `${AT_ONCE} get_operation at once on "${heaviest.name}": ${seconds.toFixed(1)} s, largest answer ${Math.max(...answers).toLocaleString('en-US')} bytes; ` +
      `/healthz meanwhile p50 ${percentile(health, 50).toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms (${health.length} probes)`,
  );
}

/** How fast the gateway refuses the YAML alias bomb, and why. */
async function printAliasBomb({ gateway, headers }: Gateway, orgId: string): Promise<void> {
  const bombStarted = performance.now();
  const bomb = await fetch(`${gateway}/api-management/apis`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ orgId, name: 'Alias bomb', version: '1', spec: longStringBomb('asyncapi') }),
  });
  const problem = (await bomb.json()) as { detail?: string };
  console.log(`The 17 kB YAML alias bomb: ${bomb.status} in ${(performance.now() - bombStarted).toFixed(0)} ms: ${problem.detail}`);
}

/**
 * `--hostile`: what a hostile org member gets out of a running stack (issue #29). Registers the
 * documents of `answer-bombs.ts` in a fresh org, then prints each one's largest answer per route
 * and tool, `AT_ONCE` MCP `get_operation` calls at once with `/healthz` timed meanwhile, what a
 * JSON-RPC batch and the YAML alias bomb get, and deletes what it registered.
 */
export async function hostileBench(client: PlatformClient, orgId: string, token: string): Promise<void> {
  const calls = gatewayCalls(client.baseUrl, token);
  const apis: Bomb[] = [];
  for (const bomb of answerBombs()) {
    const record = await client.registerApi({ orgId, name: bomb.name, version: '1', spec: bomb.spec });
    apis.push({ name: bomb.name, apiId: record.apiId, query: bomb.query });
  }
  try {
    await waitIndexed(client, apis);
    await printLargestAnswers(calls, orgId, apis);
    const heaviest = apis[0];
    const operation = await printBatch(calls, heaviest);
    await printAtOnce(calls, heaviest, operation);
    await printAliasBomb(calls, orgId);
  } finally {
    for (const { apiId } of apis) await client.deleteApi(apiId).catch(() => undefined);
  }
}
