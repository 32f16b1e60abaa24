import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadGatewayConfig } from '#config';
import { createGatewayApp } from '../apps/gateway/src/create-gateway-app.js';
import { devSigningSecret, signDevToken } from '../apps/gateway/src/auth/dev-token.js';
import { percentile } from './eval-metrics.js';
import { heavyOpenApi, smallOpenApi } from './synthetic-specs.js';

const LARGE_ORG = 'warehouse-co';
const SMALL_ORG = 'notes-co';
const APIS = '/api-management/apis';

type Call = { status: number; body: Record<string, unknown>; ms: number };
type Caller = (bearer: string, method: string, path: string, body?: object) => Promise<Call>;
/** One round of org B. */
type Round = { registration: Call; report: Call };

/**
 * What one org's large specs cost another org at the gateway's spec threads (issue #39). Org B
 * registers versions of a 2-operation API and asks for their change reports: first with nothing
 * else running, then while org A's large spec (`--operations`) is linted in the background and
 * `--versions` more versions of it are compared as they are registered. A gateway of its own in
 * this process: PGlite in memory, no AI app and no Redis (the registry answers without them).
 *
 *   npm run build && node dist/benchmarks/bench-fairness.js [--rounds 3] [--operations 2000] [--versions 3]
 *
 * (LOG_LEVEL=warn shows the gateway's warnings, a background lint that failed among them.)
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '3' }, operations: { type: 'string', default: '2000' }, versions: { type: 'string', default: '3' } },
  });
  const rounds = Number(values.rounds);
  const { app, config, url } = await startGateway();
  const token = (org: string) => signDevToken(devSigningSecret(config), { sub: `bench-${org}`, orgs: [org], roles: ['publisher'], ttlSeconds: 3600 });
  const [large, small] = await Promise.all([token(LARGE_ORG), token(SMALL_ORG)]);
  const call = caller(url);
  try {
    const round = await prepareOrgB(call, small);
    const quiet: Round[] = [];
    for (let index = 0; index < rounds; index += 1) quiet.push(await round());

    const orgA = await startOrgA(call, large, Number(values.operations), Number(values.versions));
    await sleep(1000);
    const loaded: (Round & { lintDone: boolean })[] = [];
    for (let index = 0; index < rounds; index += 1) loaded.push({ ...(await round()), lintDone: orgA.lint.ms !== undefined });
    const added = await orgA.adds;
    await orgA.lintWatch;
    printFairness({ operations: Number(values.operations), versions: values.versions, rounds }, orgA.lint.ms, added, quiet, loaded);
  } finally {
    await app.close();
  }
}

/** A gateway of this process's own, listening on a free port. */
async function startGateway() {
  const config = loadGatewayConfig({
    AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
    AI_SERVICE_TOKEN: randomBytes(24).toString('base64url'),
    // Nothing listens on either: registrations are kept in the outbox, statuses left out.
    REDIS_URL: 'redis://127.0.0.1:6390',
    AI_URL: 'http://127.0.0.1:9',
    DATA_DIR: '/nonexistent-bench-data-dir',
    QUEUE_PREFIX: `bench-fairness-${randomBytes(4).toString('hex')}`,
    RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  });
  const app = await createGatewayApp({ ...config, database: { ...config.database, pgliteDir: 'memory://' } });
  await app.listen(0, '127.0.0.1');
  return { app, config, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

/** Calls to the gateway at `url`, timed. */
function caller(url: string): Caller {
  return async (bearer, method, path, body) => {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, ms: performance.now() - started };
  };
}

async function lintedVersions(call: Caller, bearer: string, apiId: string): Promise<string[]> {
  const items = (await call(bearer, 'GET', `${APIS}/${apiId}/versions`)).body.items as { version: string; lint?: object }[];
  return items.filter((item) => item.lint).map((item) => item.version);
}

/** Registers org B's API and returns its rounds, after one untimed round whose lints it waits for. */
async function prepareOrgB(call: Caller, small: string): Promise<() => Promise<Round>> {
  const notes = await call(small, 'POST', APIS, { orgId: SMALL_ORG, name: 'Notes', version: '1', spec: smallOpenApi('1') });
  const notesId = notes.body.apiId as string;
  let version = 1;
  /** One round of org B: a new version (its registration), then the change report from the one before. */
  const round = async () => {
    version += 1;
    const registration = await call(small, 'POST', `${APIS}/${notesId}/versions`, {
      version: String(version),
      spec: smallOpenApi(String(version), version % 2 === 0),
    });
    const report = await call(small, 'GET', `${APIS}/${notesId}/changes?from=${version - 1}&to=${version}`);
    return { registration, report };
  };
  // Spectral loaded, B's own lints done.
  await round();
  for (let waited = 0; (await lintedVersions(call, small, notesId)).length < version && waited < 60; waited += 1) await sleep(500);
  return round;
}

/**
 * Org A's work, left running: its large spec registered (its lint watched until saved), then its
 * other versions registered at once.
 */
async function startOrgA(call: Caller, large: string, operations: number, versions: number) {
  const largeStarted = performance.now();
  const warehouse = await call(large, 'POST', APIS, { orgId: LARGE_ORG, name: 'Warehouse', version: '1', spec: heavyOpenApi('1', operations) });
  const warehouseId = warehouse.body.apiId as string;
  const lint: { ms?: number } = {};
  const lintWatch = (async () => {
    while (lint.ms === undefined && performance.now() - largeStarted < 300_000) {
      if ((await lintedVersions(call, large, warehouseId)).includes('1')) lint.ms = performance.now() - largeStarted;
      else await sleep(250);
    }
  })();
  const adds = Promise.all(
    Array.from({ length: versions }, (_, index) =>
      call(large, 'POST', `${APIS}/${warehouseId}/versions`, { version: String(index + 2), spec: heavyOpenApi(String(index + 2), operations) }),
    ),
  );
  return { lint, lintWatch, adds };
}

function printFairness(
  load: { operations: number; versions: string; rounds: number },
  lintMs: number | undefined,
  added: Call[],
  quiet: Round[],
  loaded: (Round & { lintDone: boolean })[],
): void {
  // Each took its own time from the start (they were sent at once), whenever they were awaited.
  const addsMs = Math.max(...added.map((item) => item.ms));
  const row = (name: string, calls: Call[]) =>
    `| ${name} | ${calls.map((item) => `${(item.ms / 1000).toFixed(2)} s${item.status >= 300 ? ` (${item.status})` : ''}`).join(', ')} | ${(
      percentile(
        calls.map((item) => item.ms),
        50,
      ) / 1000
    ).toFixed(2)} s |`;
  console.log(
    `Org A: ${load.operations}-operation spec (${JSON.stringify(heavyOpenApi('1', load.operations)).length} bytes), ${load.versions} more versions registered at once`,
  );
  console.log(
    `Org A: lint of version 1 saved after ${lintMs === undefined ? 'more than 300 s' : `${(lintMs / 1000).toFixed(1)} s`}; its ${load.versions} registrations took ${(addsMs / 1000).toFixed(1)} s (each ${added.map((item) => `${(item.ms / 1000).toFixed(1)} s, ${item.status}`).join('; ')})`,
  );
  for (const item of added)
    for (const warning of (item.body.warnings as string[] | undefined) ?? []) console.log(`Org A's registration warned: ${warning.slice(0, 200)}`);
  console.log(`Org B's rounds under load before A's lint was saved: ${loaded.filter((item) => !item.lintDone).length} of ${load.rounds}\n`);
  console.log('| org B | each | p50 |');
  console.log('|---|---|---|');
  console.log(
    row(
      'registration, quiet',
      quiet.map((item) => item.registration),
    ),
  );
  console.log(
    row(
      'change report, quiet',
      quiet.map((item) => item.report),
    ),
  );
  console.log(
    row(
      "registration, during A's work",
      loaded.map((item) => item.registration),
    ),
  );
  console.log(
    row(
      "change report, during A's work",
      loaded.map((item) => item.report),
    ),
  );
  const refused = loaded.flatMap((item) => [item.registration, item.report]).filter((item) => item.status >= 300);
  for (const item of refused) console.log(`refused ${item.status}: ${JSON.stringify(item.body.detail ?? item.body).slice(0, 200)}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

main().then(
  // The outbox keeps trying the Redis that is not there: nothing else is left to wait for.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
