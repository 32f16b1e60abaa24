import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadGatewayConfig } from '#config';
import { signDevToken } from './sign-dev-token.js';

/**
 * Against a running stack (`npm start`): registers the RestBench Spotify spec in a fresh org,
 * times it from registration to COMPLETED, then times searches with RestBench's queries.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      queries: { type: 'string', default: '50' },
      shared: { type: 'string', default: '../shared' },
    },
  });
  const config = loadGatewayConfig();
  const baseUrl = values.url ?? `http://localhost:${config.port}`;
  const org = `bench-${Date.now()}`;
  const token = await signDevToken(config.jwtSecret, { sub: 'bench', orgs: [org], roles: ['publisher'], ttlSeconds: 3600 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const restbench = join(values.shared, 'benchmarks/restbench');

  const spec = readFileSync(join(restbench, 'spotify_oas.json'), 'utf8');
  const registeredAt = performance.now();
  const created = await fetch(`${baseUrl}/api-management/apis`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ orgId: org, name: 'Spotify Web API', version: '1', spec }),
  });
  if (created.status !== 201) throw new Error(`registration failed: ${created.status} ${await created.text()}`);
  const { apiId } = (await created.json()) as { apiId: string };
  let status: { status: string; chunkCount?: number; error?: string };
  do {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await (await fetch(`${baseUrl}/api-management/ai/indexing-status/${apiId}`, { headers })).json()) as typeof status;
  } while (!['COMPLETED', 'FAILED'].includes(status.status));
  const indexingMs = performance.now() - registeredAt;
  console.log(`Spotify spec: ${status.status} with ${status.chunkCount ?? 0} chunks, ${(indexingMs / 1000).toFixed(2)} s from registration to ${status.status}`);

  const queries = (JSON.parse(readFileSync(join(restbench, 'spotify.json'), 'utf8')) as { query: string }[])
    .slice(0, Number(values.queries))
    .map((entry) => entry.query);
  const total: number[] = [];
  const embedding: number[] = [];
  const server: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/api-management/ai/search`, { method: 'POST', headers, body: JSON.stringify({ orgId: org, query }) });
    const body = (await response.json()) as { queryEmbeddingMs: number; searchMs: number };
    total.push(performance.now() - started);
    embedding.push(body.queryEmbeddingMs);
    server.push(body.searchMs);
  }
  const row = (name: string, values: number[]) =>
    console.log(`${name.padEnd(28)} p50 ${percentile(values, 50).toFixed(1)} ms   p95 ${percentile(values, 95).toFixed(1)} ms`);
  console.log(`Search, ${queries.length} RestBench Spotify queries, one at a time:`);
  row('end to end (HTTP, gateway)', total);
  row('AI app searchMs', server);
  row('AI app queryEmbeddingMs', embedding);

  await fetch(`${baseUrl}/api-management/apis/${apiId}`, { method: 'DELETE', headers });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : String(error));
  process.exit(1);
});
