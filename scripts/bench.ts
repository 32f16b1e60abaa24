import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadGatewayConfig } from '#config';
import { percentile } from './eval-metrics.js';
import { PlatformClient } from './platform-client.js';
import { soak } from './soak.js';
import { devSigningSecret, signDevToken } from './sign-dev-token.js';

/**
 * Against a running stack (`npm start`). `--soak [--soak-count 500]`: see `soak.ts`. Otherwise registers the RestBench Spotify spec in a fresh org,
 * times it from registration to COMPLETED, then times searches with RestBench's queries.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      queries: { type: 'string', default: '50' },
      shared: { type: 'string', default: '../shared' },
      soak: { type: 'boolean', default: false },
      'soak-count': { type: 'string', default: '500' },
    },
  });
  const config = loadGatewayConfig();
  const org = `${values.soak ? 'soak' : 'bench'}-${Date.now()}`;
  const token = await signDevToken(devSigningSecret(config), { sub: 'bench', orgs: [org], roles: ['publisher'], ttlSeconds: 6 * 3600 });
  const client = new PlatformClient(values.url ?? `http://localhost:${config.port}`, token);
  if (values.soak) {
    const agreed = await soak(client, org, { registrations: Number(values['soak-count']), updateShare: 0.2, deleteShare: 0.1, concurrency: 8, timeoutMs: 3 * 3600_000 });
    process.exit(agreed ? 0 : 1);
  }
  const restbench = join(values.shared, 'benchmarks/restbench');

  const registeredAt = performance.now();
  const { apiId } = await client.registerApi({
    orgId: org,
    name: 'Spotify Web API',
    version: '1',
    spec: readFileSync(join(restbench, 'spotify_oas.json'), 'utf8'),
  });
  let status = await client.indexingStatus(apiId);
  while (!['COMPLETED', 'FAILED'].includes(status.status)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = await client.indexingStatus(apiId);
  }
  const seconds = (performance.now() - registeredAt) / 1000;
  console.log(`Spotify spec: ${status.status} with ${status.chunkCount ?? 0} chunks, ${seconds.toFixed(2)} s from registration`);

  const queries = (JSON.parse(readFileSync(join(restbench, 'spotify.json'), 'utf8')) as { query: string }[])
    .slice(0, Number(values.queries))
    .map((entry) => entry.query);
  const total: number[] = [];
  const embedding: number[] = [];
  const server: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    const response = await client.search({ orgId: org, query });
    total.push(performance.now() - started);
    embedding.push(response.queryEmbeddingMs);
    server.push(response.searchMs);
  }
  const row = (name: string, values: number[]) =>
    console.log(`${name.padEnd(28)} p50 ${percentile(values, 50).toFixed(1)} ms   p95 ${percentile(values, 95).toFixed(1)} ms`);
  console.log(`Search, ${queries.length} RestBench Spotify queries, one at a time:`);
  row('end to end (HTTP, gateway)', total);
  row('AI app searchMs', server);
  row('AI app queryEmbeddingMs', embedding);

  await client.deleteApi(apiId);
}

main().catch((error: unknown) => {
  console.error(`Benchmark failed: ${(error as Error).message}`);
  process.exit(1);
});
