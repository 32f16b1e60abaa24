import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { percentile } from './eval-metrics.js';
import { RESTBENCH_ORG, restbenchQueries } from './eval-orgs.js';

const DATASETS = { tmdb: 'TMDB', spotify: 'Spotify' } as const;

interface Sizes {
  /** The text a model reads. */
  text: number[];
  /** The whole result: text and `structuredContent`. */
  total: number[];
}

/**
 * An agent's first two calls over MCP for every RestBench query: `search_apis`, then
 * `get_operation` on the top card's first endpoint. Reports how often that operation is one the
 * query needs (first-call hit), how often one of the card's first three endpoints is, each tool's
 * answer size, and the latency of the tools other than search. `get_api` and `list_apis` are
 * timed once per API and page.
 */
export async function agentBench(baseUrl: string, token: string, shared: string): Promise<void> {
  const client = new Client({ name: 'agent-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const sizes: Record<string, Sizes> = {};
  const latencies: Record<string, number[]> = {};
  const call = async (name: string, args: Record<string, unknown>) => {
    const started = performance.now();
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    (latencies[name] ??= []).push(performance.now() - started);
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    const entry = (sizes[name] ??= { text: [], total: [] });
    entry.text.push(Buffer.byteLength(text));
    entry.total.push(Buffer.byteLength(JSON.stringify(result)));
    if (result.isError) throw new Error(`${name} failed: ${text}`);
    return result;
  };

  let queries = 0;
  let firstHits = 0;
  let top3Hits = 0;
  const apiIds = new Set<string>();
  for (const [dataset, apiName] of Object.entries(DATASETS)) {
    for (const { query, solution } of restbenchQueries(join(shared, 'benchmarks/restbench'), dataset)) {
      queries += 1;
      const search = await call('search_apis', { query, orgId: RESTBENCH_ORG });
      const [card] = (search.structuredContent as { results: { apiId: string; apiName: string; endpoints: { method: string; path: string }[] }[] }).results;
      if (!card?.endpoints.length) continue;
      apiIds.add(card.apiId);
      const right = card.apiName === apiName;
      const [first] = card.endpoints;
      await call('get_operation', { apiId: card.apiId, method: first.method, path: first.path });
      const gold = new Set(solution);
      if (right && gold.has(`${first.method} ${first.path}`)) firstHits += 1;
      if (right && card.endpoints.slice(0, 3).some((endpoint) => gold.has(`${endpoint.method} ${endpoint.path}`))) top3Hits += 1;
    }
  }
  for (const apiId of apiIds) {
    await call('get_api', { apiId });
    await call('get_api', { apiId, page: 2 });
  }
  for (let i = 0; i < 10; i += 1) await call('list_apis', { orgId: RESTBENCH_ORG });
  await client.close();

  const share = (count: number) => `${count}/${queries} (${((100 * count) / queries).toFixed(1)}%)`;
  console.log(`\nAgent benchmark over MCP (${new Date().toISOString().slice(0, 10)}): RestBench, ${queries} queries in org "${RESTBENCH_ORG}"`);
  console.log(`first call hits (search_apis → get_operation on the top card's first endpoint is a gold operation): ${share(firstHits)}`);
  console.log(`a gold operation among the top card's first 3 endpoints: ${share(top3Hits)}`);
  console.log('\n| tool | calls | text bytes p50/p95 | ≈ tokens p50/p95 | whole result bytes p50/p95 | latency ms p50/p95 |');
  console.log('|---|---|---|---|---|---|');
  for (const name of ['search_apis', 'get_operation', 'get_api', 'list_apis']) {
    const size = sizes[name];
    const times = latencies[name];
    if (!size) continue;
    const pair = (values: number[], scale = 1) => `${Math.round(percentile(values, 50) / scale)} / ${Math.round(percentile(values, 95) / scale)}`;
    console.log(`| ${name} | ${times.length} | ${pair(size.text)} | ${pair(size.text, 4)} | ${pair(size.total)} | ${pair(times)} |`);
  }
  console.log('Tokens ≈ text bytes / 4. Latency is measured by the client, through the gateway; search_apis includes the query embedding.');
}
