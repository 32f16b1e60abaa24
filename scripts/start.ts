import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertRedisReachable, bool, dataDir, loadAiConfig, loadGatewayConfig } from '#config';
import { DEMO_SPEC_IDS, loadDirectorySpec } from './demo-catalogue.js';
import { PlatformClient, PlatformError } from './platform-client.js';
import { devSigningSecret, signDevToken } from '../apps/gateway/src/auth/dev-token.js';
import { startStackProcesses, waitUntilReady } from './stack-processes.js';

const DEMO_ORG = 'demo';
const SEED_WAIT_MS = 15 * 60_000;

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

  const children = startStackProcesses(env);
  const baseUrl = `http://localhost:${gateway.port}`;
  await waitUntilReady(baseUrl, children, `http://127.0.0.1:${ai.port}`);
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
Stop with Ctrl+C.
`);

  const marker = join(dataDir(process.env), 'demo-seeded');
  if (seedDemo && !existsSync(marker)) {
    await seed(new PlatformClient(baseUrl, token));
    writeFileSync(marker, new Date().toISOString());
  }
}

async function seed(client: PlatformClient): Promise<void> {
  console.log(`Registering ${DEMO_SPEC_IDS.length} demo APIs in org "${DEMO_ORG}"…`);
  for (const id of DEMO_SPEC_IDS) {
    try {
      await client.registerApi({ orgId: DEMO_ORG, ...loadDirectorySpec(id) });
    } catch (error) {
      // 409: registered by an earlier, interrupted start.
      if (!(error instanceof PlatformError && error.problem.status === 409)) console.warn(`  ${id}: ${(error as Error).message}`);
    }
  }
  console.log('Indexing them in the background (the local model needs a minute)…');
  try {
    await client.waitUntilIndexed(DEMO_ORG, (done, total) => console.log(`  indexed ${done}/${total}`), SEED_WAIT_MS);
  } catch {
    console.log('  still indexing; it goes on in the background (see GET /api-management/apis).');
  }
}

main().catch((error: unknown) => {
  console.error(`Cannot start: ${(error as Error).message}`);
  process.exit(1);
});
