import { existsSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type AiConfig, assertPortFree, assertRedisReachable, bool, dataDir, loadAiConfig, loadGatewayConfig } from '#config';
import { demoCatalogue } from './demo-catalogue.js';
import { PlatformClient, PlatformError } from './platform-client.js';
import { devSigningSecret, signDevToken } from '../../gateway/src/auth/dev-token.js';
import { startStackProcesses, waitUntilReady } from './stack-processes.js';

const DEMO_ORG = 'demo';
const SEED_WAIT_MS = 15 * 60_000;
/** The demo's 51 APIs of four kinds cut into 2,962 chunks (measured 2026-12-05; GitHub's GraphQL schema alone is 1,280). */
const DEMO_CHUNKS = 3000;
/**
 * End-to-end indexing with the local model: 30 chunks/s on 2 cores (README, bench --indexing),
 * a thread per core. A busy machine takes longer: 2-3 min for the demo on 2 cores beside another
 * stack and a test run (load average 10).
 */
const LOCAL_CHUNKS_PER_SECOND_PER_CORE = 15;

/** `npm start`: both apps on the embedded defaults, and a demo catalogue on first start. */
async function main(): Promise<void> {
  // This command is for development: the web UI offers a dev sign-in unless an identity provider is set.
  // Request logs would bury the banner and the seeding progress: warnings only unless asked.
  const env = {
    ...process.env,
    AUTH_DEV_LOGIN: process.env.AUTH_DEV_LOGIN ?? String(!process.env.AUTH_JWKS_URL),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const gateway = loadGatewayConfig(env);
  const ai = loadAiConfig(env);
  const seedDemo = bool(process.env, 'DEMO_SEED', true);
  await assertRedisReachable(gateway.redis.url);
  // Before the apps spend 20 s starting: a taken port is one line, not a stack trace.
  await assertPortFree('GATEWAY_PORT', gateway.port, gateway.host);
  await assertPortFree('AI_PORT', ai.port, ai.host);

  const started = Date.now();
  console.log('starting the AI app and the gateway…');
  const children = startStackProcesses(env);
  const baseUrl = `http://localhost:${gateway.port}`;
  await waitUntilReady(baseUrl, children, `http://127.0.0.1:${ai.port}`);
  console.log(`both apps are up (${duration(Date.now() - started)})`);
  const token = await signDevToken(devSigningSecret(gateway), {
    sub: 'demo-user',
    orgs: [DEMO_ORG],
    roles: ['reader', 'publisher', 'admin'],
    ttlSeconds: 7 * 24 * 3600,
  });

  // Dev sign-in hands out admin tokens: say to whom.
  const devSignIn = !gateway.auth.devLogin
    ? ''
    : gateway.auth.devLoginRemote
      ? 'Dev sign-in is on and open to the network (AUTH_DEV_LOGIN_REMOTE=true): anyone who reaches the gateway gets a token\n'
      : 'Dev sign-in is on for this machine only (loopback); AUTH_DEV_LOGIN_REMOTE=true opens it to the network\n';
  console.log(`
API discovery platform is running at ${baseUrl}  (web UI; API docs at ${baseUrl}/docs)
${devSignIn}A token for org "${DEMO_ORG}" with all roles (valid 7 days; more with npm run token):
  export TOKEN=${token}
Search:
  curl -s ${baseUrl}/api-management/ai/search -H "Authorization: Bearer $TOKEN" \\
    -H 'Content-Type: application/json' -d '{"orgId":"${DEMO_ORG}","query":"send a verification code by sms"}'
`);

  const marker = join(dataDir(process.env), 'demo-seeded');
  if (seedDemo && !existsSync(marker)) {
    const seeding = Date.now();
    if (await seed(new PlatformClient(baseUrl, token), ai)) {
      writeFileSync(marker, new Date().toISOString());
      console.log(`ready: the demo catalogue is indexed (${duration(Date.now() - seeding)}). Stop with Ctrl+C.`);
      return;
    }
  }
  console.log(`ready at ${baseUrl}. Stop with Ctrl+C.`);
}

/** Registers the demo catalogue and waits for its indexing: false when that outlasts `SEED_WAIT_MS`. */
async function seed(client: PlatformClient, ai: AiConfig): Promise<boolean> {
  const catalogue = demoCatalogue();
  console.log(`registering ${catalogue.length} demo APIs (OpenAPI, AsyncAPI, GraphQL, gRPC) in org "${DEMO_ORG}"…`);
  for (const api of catalogue) {
    try {
      await client.registerApi({ orgId: DEMO_ORG, ...api });
    } catch (error) {
      // 409: registered by an earlier, interrupted start.
      if (!(error instanceof PlatformError && error.problem.status === 409)) console.warn(`  ${api.name} not registered: ${(error as Error).message}`);
    }
  }

  console.log(`indexing the demo catalogue: ${catalogue.length} APIs, ${indexingEstimate(ai)}; search finds each API once it is indexed…`);
  const progress = (done: number, total: number, failed: number) =>
    console.log(`  indexed ${done}/${total}${failed ? ` (${failed} failed: see GET /api-management/apis)` : ''}`);
  try {
    await client.waitUntilIndexed(DEMO_ORG, progress, SEED_WAIT_MS);
    return true;
  } catch {
    console.log('  still indexing; it goes on in the background (see GET /api-management/apis)');
    return false;
  }
}

/** How long indexing the demo takes with this provider, in words. */
function indexingEstimate(ai: AiConfig): string {
  const chunks = DEMO_CHUNKS;
  if (ai.embeddings.provider === 'hash') return `~${chunks} chunks, a few seconds`;
  if (ai.embeddings.provider !== 'local') return `~${chunks} chunks, as fast as the embedding server answers`;
  const cores = availableParallelism();
  const seconds = chunks / (LOCAL_CHUNKS_PER_SECOND_PER_CORE * cores);
  return `~${chunks} chunks, ~${Math.max(1, Math.round(seconds / 60))} min on ${cores} core${cores === 1 ? '' : 's'} (more while the machine is busy)`;
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

main().catch((error: unknown) => {
  console.error(`Cannot start: ${(error as Error).message}`);
  process.exit(1);
});
