import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertRedisReachable, bool, ConfigError, dataDir, loadAiConfig, loadGatewayConfig } from '#config';
import { DEMO_SPEC_IDS, loadDirectorySpec } from './demo-catalogue.js';
import { signDevToken } from './sign-dev-token.js';

const DEMO_ORG = 'demo';
const READY_TIMEOUT_MS = 180_000;
const SEED_WAIT_MS = 15 * 60_000;
const distRoot = fileURLToPath(new URL('..', import.meta.url));

/** `npm start`: both apps on the embedded defaults, and a demo catalogue on first start. */
async function main(): Promise<void> {
  const gateway = loadGatewayConfig();
  loadAiConfig();
  const seedDemo = bool(process.env, 'DEMO_SEED', true);
  await assertRedisReachable(gateway.redis.url);

  const children = [
    startApp('ai', join(distRoot, 'apps/ai/src/main.js')),
    startApp('gateway', join(distRoot, 'apps/gateway/src/main.js')),
  ];
  const stop = () => children.forEach((child) => child.kill('SIGTERM'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const baseUrl = `http://localhost:${gateway.port}`;
  await waitUntilReady(`${baseUrl}/readyz`, children);
  const token = await signDevToken(gateway.jwtSecret, {
    sub: 'demo-user',
    orgs: [DEMO_ORG],
    roles: ['reader', 'publisher', 'admin'],
    ttlSeconds: 7 * 24 * 3600,
  });

  console.log(`
API discovery platform is running at ${baseUrl}
A token for org "${DEMO_ORG}" with all roles (valid 7 days; more with npm run token):
  export TOKEN=${token}
Search:
  curl -s ${baseUrl}/api-management/ai/search -H "Authorization: Bearer $TOKEN" \\
    -H 'Content-Type: application/json' -d '{"orgId":"${DEMO_ORG}","query":"send a verification code by sms"}'
Stop with Ctrl+C.
`);

  const marker = join(dataDir(process.env), 'demo-seeded');
  if (seedDemo && !existsSync(marker)) {
    await seed(baseUrl, token);
    writeFileSync(marker, new Date().toISOString());
  }
}

function startApp(name: string, entry: string): ChildProcess {
  const child = spawn(process.execPath, [entry], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((line) => `[${name}] ${line}\n`)
      .join('');
  child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(prefix(chunk)));
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(prefix(chunk)));
  child.on('exit', (code, signal) => {
    if (signal !== 'SIGTERM' && code !== 0) {
      console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping.`);
      process.exit(1);
    }
  });
  return child;
}

async function waitUntilReady(url: string, children: ChildProcess[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    if (children.some((child) => child.exitCode !== null)) throw new Error('an app stopped while starting');
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (response.ok) return;
      last = await response.text();
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the apps were not ready after ${READY_TIMEOUT_MS / 1000} s: ${last}`);
}

async function seed(baseUrl: string, token: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  console.log(`Registering ${DEMO_SPEC_IDS.length} demo APIs in org "${DEMO_ORG}"…`);
  const apiIds: string[] = [];
  for (const id of DEMO_SPEC_IDS) {
    const response = await fetch(`${baseUrl}/api-management/apis`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ orgId: DEMO_ORG, ...loadDirectorySpec(id) }),
    });
    const body = (await response.json()) as { apiId?: string; detail?: string };
    if (response.status === 201 && body.apiId) apiIds.push(body.apiId);
    else if (response.status !== 409) console.warn(`  ${id}: ${response.status} ${body.detail ?? ''}`);
  }
  console.log('Indexing them in the background (the local model needs a minute)…');
  const deadline = Date.now() + SEED_WAIT_MS;
  let done = 0;
  while (done < apiIds.length) {
    if (Date.now() > deadline) {
      console.log('  still indexing; it goes on in the background (see GET /api-management/apis).');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const response = await fetch(`${baseUrl}/api-management/apis?orgId=${DEMO_ORG}&pageSize=100`, { headers });
    const { items } = (await response.json()) as { items: { indexing?: { status: string } }[] };
    const finished = items.filter((item) => ['COMPLETED', 'FAILED'].includes(item.indexing?.status ?? '')).length;
    if (finished !== done) console.log(`  indexed ${finished}/${apiIds.length}`);
    done = finished;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : `Cannot start: ${(error as Error).message}`);
  process.exit(1);
});
