import type { ApiSource, LifecycleStage, TreeImportRequest, TreeItem, VersionSource } from '#contracts';
import type { ApiEntity } from '../registry/api.entity.js';
import type { ApiVersionEntity } from '../registry/api-version.entity.js';
import { type KnownApi, planTree, spareFailed, type TreeSnapshot } from './tree-plan.js';

const TREE = 'github.com/acme/specs';
const sha = (seed: string) => seed.repeat(64).slice(0, 64);

function item(path: string, name: string, version: string, extra: Partial<TreeItem> = {}): TreeItem {
  return { path, key: `title:${name.toLowerCase()}`, name, version, sha256: sha(`${path}${version}`.replace(/[^0-9a-f]/g, '') || 'a'), bytes: 10, ...extra };
}

function known(
  id: string,
  name: string,
  source: ApiSource | null,
  versions: [version: string, path: string | null, sha256: string, lifecycle?: LifecycleStage][],
): KnownApi {
  return {
    api: { id, orgId: 'org', name, teamName: null, description: null, labels: {}, catalog: null, source } as ApiEntity,
    versions: versions.map(
      ([version, path, sha256, lifecycle = 'production']) =>
        ({
          apiId: id,
          version,
          lifecycle,
          sunsetDate: null,
          kind: 'openapi',
          revision: 1,
          source: path ? ({ tree: TREE, path, sha256 } satisfies VersionSource) : null,
        }) as ApiVersionEntity,
    ),
  };
}

const state = (apis: KnownApi[], others: KnownApi[] = [], describedPaths: string[] = []): TreeSnapshot => ({
  apis,
  othersByName: new Map(others.map((other) => [other.api.name.toLowerCase(), other])),
  describedPaths: new Set(describedPaths),
  components: [],
  generation: 0,
});
const request = (items: TreeItem[], extra: Partial<TreeImportRequest> = {}): TreeImportRequest => ({ orgId: 'org', tree: TREE, items, ...extra });
const summary = (entries: ReturnType<typeof planTree>) =>
  entries.map((entry) => [entry.action, entry.path, entry.version, ...(entry.what ? [entry.what.join('+')] : [])].join(' ')).sort();

describe('planTree', () => {
  it('should make two files of one API with different versions its two versions, and fail two files that claim one version, naming both', () => {
    const v1 = item('pets-v1.yaml', 'Pets', '1.0.0');
    const v2 = item('pets-v2.yaml', 'Pets', '2.0.0');
    const entries = planTree(request([v1, v2]), state([]));
    expect(summary(entries)).toEqual(['added pets-v1.yaml 1.0.0', 'added pets-v2.yaml 2.0.0']);
    expect(entries.map((entry) => [entry.version, entry.newApi, entry.group])).toEqual([
      ['1.0.0', true, 'title:pets'],
      ['2.0.0', undefined, 'title:pets'],
    ]);

    const twice = planTree(request([v1, { ...v2, version: '1.0.0' }]), state([]));
    expect(twice.map((entry) => entry.action)).toEqual(['failed', 'failed']);
    expect(twice[0].reason).toBe('2 files claim version "1.0.0" of "Pets": pets-v1.yaml, pets-v2.yaml');
  });

  it('should leave an unchanged file alone, revise a changed one, and add a new version for a file whose version changed, keeping the old one', () => {
    const api = known('a1', 'Pets', { tree: TREE, key: 'title:pets' }, [['1.0.0', 'pets.yaml', sha('1')]]);
    expect(summary(planTree(request([{ ...item('pets.yaml', 'Pets', '1.0.0'), sha256: sha('1') }]), state([api])))).toEqual(['unchanged pets.yaml 1.0.0']);
    expect(summary(planTree(request([{ ...item('pets.yaml', 'Pets', '1.0.0'), sha256: sha('2') }]), state([api])))).toEqual(['updated pets.yaml 1.0.0 spec']);

    const bumped = planTree(request([item('pets.yaml', 'Pets', '1.1.0')], { prune: true }), state([api]));
    expect(summary(bumped)).toEqual(['added pets.yaml 1.1.0']);
    expect(bumped[0].newApi).toBeUndefined();
    expect(bumped[0]).toMatchObject({ apiId: 'a1', note: 'version "1.0.0" stays, with its stage: its file now holds "1.1.0"' });
    // …and it follows the production version, for its change report.
    expect(bumped[0].base?.version).toBe('1.0.0');
  });

  it('should compare a new version with the one its file held before, or the production version of its major, not the newest', () => {
    const api = known('a1', 'Pets', { tree: TREE, key: 'title:pets' }, [
      ['1.0.0', 'v1.yaml', sha('1')],
      ['2.0.0', 'v2.yaml', sha('2')],
    ]);
    const bumped = planTree(request([item('v1.yaml', 'Pets', '1.1.0'), { ...item('v2.yaml', 'Pets', '2.0.0'), sha256: sha('2') }]), state([api]));
    expect(bumped.find((entry) => entry.version === '1.1.0')?.base?.version).toBe('1.0.0');
    const beside = planTree(request([item('v1-1.yaml', 'Pets', '1.1.0')]), state([api]));
    expect(beside.find((entry) => entry.version === '1.1.0')?.base?.version).toBe('1.0.0');
    expect(planTree(request([item('v3.yaml', 'Pets', '3.0.0')]), state([api])).find((entry) => entry.version === '3.0.0')?.base?.version).toBe('2.0.0');
  });

  it('should name a few of many files that claim one version, in one bounded reason', () => {
    const items = Array.from({ length: 2000 }, (_, index) => item(`copy-${index}.yaml`, 'Pets', '1.0.0'));
    const entries = planTree(request(items), state([]));
    expect(entries).toHaveLength(2000);
    expect(new Set(entries.map((entry) => entry.reason)).size).toBe(1);
    expect(entries[0].reason).toBe('2000 files claim version "1.0.0" of "Pets": copy-0.yaml, copy-1.yaml, copy-2.yaml, copy-3.yaml, copy-4.yaml and 1995 more');
  });

  it('should never prune the API of a file whose new content is refused, and delete an API whole only when all of it goes', () => {
    const orders = known('a1', 'Orders', { tree: TREE, key: 'title:orders' }, [['1', 'orders.yaml', sha('1')]]);
    const byHand = known('h1', 'Billing', null, [['1', null, sha('9')]]);
    // The file now says "Billing", a name taken by an API without a source, and no --adopt.
    const retitled = planTree(request([item('orders.yaml', 'Billing', '1')], { prune: true }), state([orders], [byHand]));
    expect(summary(retitled)).toEqual(['failed orders.yaml 1']);
    // A failure found later (its text refused when checked) spares what the file fed too.
    const two = known('a2', 'Kept', { tree: TREE, key: 'title:kept' }, [
      ['1', 'gone.yaml', sha('3')],
      ['2', 'refused.yaml', sha('4')],
    ]);
    const planned = planTree(request([item('refused.yaml', 'Other', '1')], { prune: true }), state([two]));
    expect(planned.filter((entry) => entry.action === 'deleted').every((entry) => entry.apiDeleted)).toBe(true);
    const added = planned.find((entry) => entry.path === 'refused.yaml' && entry.action === 'added')!;
    Object.assign(added, { action: 'failed', reason: '422 not a spec' });
    const spared = spareFailed(planned);
    expect(summary(spared)).toEqual(['deleted gone.yaml 1', 'failed refused.yaml 1']);
    expect(spared.find((entry) => entry.action === 'deleted')?.apiDeleted).toBe(false);
  });

  it("should fail an entity whose descriptor renames it to another API's name, as the registry would", () => {
    const api = known('a1', 'Inventory', { tree: TREE, key: 'entity:api:default/inventory' }, [['1', 'catalog-info.yaml#inventory', sha('1')]]);
    const other = known('o1', 'Stock', null, [['1', null, sha('2')]]);
    const renamed = { ...item('catalog-info.yaml#inventory', 'Stock', '1'), key: 'entity:api:default/inventory', sha256: sha('1') };
    expect(planTree(request([renamed]), state([api], [other]))[0]).toMatchObject({
      action: 'failed',
      reason: expect.stringMatching(/renames the API to "Stock"/),
    });
  });

  it('should move a version to its new file rather than delete and add it', () => {
    const api = known('a1', 'Pets', { tree: TREE, key: 'title:pets' }, [['1.0.0', 'old/pets.yaml', sha('1')]]);
    const entries = planTree(request([{ ...item('new/pets.yaml', 'Pets', '1.0.0'), sha256: sha('1') }], { prune: true }), state([api]));
    expect(summary(entries)).toEqual(['updated new/pets.yaml 1.0.0 path']);
  });

  it('should find an API imported before keys by its file, and one of the same name in the tree', () => {
    const legacy = known('a1', 'Old name', { tree: TREE }, [['1', 'pets.yaml', sha('1')]]);
    const entries = planTree(request([{ ...item('pets.yaml', 'Pets', '1'), sha256: sha('1') }]), state([legacy]));
    expect(entries[0]).toMatchObject({ action: 'unchanged', apiId: 'a1' });
    const renamedEntity = known('a2', 'Inventory', { tree: TREE, key: 'entity:api:default/stock' }, [['1', 'catalog-info.yaml#stock', sha('1')]]);
    const moved = { ...item('catalog-info.yaml#inventory', 'Inventory', '1'), key: 'entity:api:default/inventory', sha256: sha('1') };
    expect(planTree(request([moved], { prune: true }), state([renamedEntity]))[0]).toMatchObject({ action: 'updated', apiId: 'a2', what: ['path'] });
  });

  it('should take over an API of the org without a source only with adopt, and never one of another tree or a URL', () => {
    const byHand = known('h1', 'Pets', null, [['1.0.0', null, sha('9')]]);
    const pets = item('pets.yaml', 'Pets', '1.0.0');
    const refused = planTree(request([pets]), state([], [byHand]));
    expect(refused[0]).toMatchObject({ action: 'failed', apiId: 'h1' });
    expect(refused[0].reason).toMatch(/registered without a source: import with --adopt/);
    const adopted = planTree(request([pets], { adopt: true }), state([], [byHand]));
    expect(adopted[0]).toMatchObject({ action: 'updated', adopted: true, apiId: 'h1', what: ['spec', 'path'], unsourced: true });

    const otherTree = known('t1', 'Pets', { tree: 'team1/specs', key: 'title:pets' }, [['1.0.0', 'pets.yaml', sha('1')]]);
    expect(planTree(request([pets], { adopt: true }), state([], [otherTree]))[0].reason).toMatch(/imported from tree "team1\/specs"/);
    const fromUrl = known('u1', 'Pets', { url: 'https://specs.example.com/pets.yaml', version: '1.0.0' }, [['1.0.0', null, sha('1')]]);
    expect(planTree(request([pets], { adopt: true }), state([], [fromUrl]))[0].reason).toMatch(/imported from https:\/\/specs\.example\.com/);
  });

  it('should prune only what is gone, never the API of a file that is present but failed, unreadable or no longer a spec', () => {
    const apis = [
      known('a1', 'Gone', { tree: TREE, key: 'title:gone' }, [['1', 'gone.yaml', sha('1')]]),
      known('a2', 'Broken', { tree: TREE, key: 'title:broken' }, [['1', 'broken.yaml', sha('2')]]),
      known('a3', 'Truncated', { tree: TREE, key: 'title:truncated' }, [['1', 'truncated.yaml', sha('3')]]),
      known('a4', 'Entity', { tree: TREE, key: 'entity:api:default/entity' }, [['1', 'catalog-info.yaml#entity', sha('4')]]),
      known('a5', 'Kept', { tree: TREE, key: 'title:kept' }, [
        ['1', 'kept-v1.yaml', sha('5')],
        ['2', 'kept-v2.yaml', sha('6')],
      ]),
    ];
    const entries = planTree(
      request([{ ...item('kept-v2.yaml', 'Kept', '2'), sha256: sha('6') }], {
        prune: true,
        failed: [
          { path: 'broken.yaml', reason: 'not valid YAML' },
          { path: 'catalog-info.yaml', reason: 'not a readable catalog descriptor' },
        ],
        skipped: ['truncated.yaml'],
      }),
      state(apis),
    );
    expect(summary(entries)).toEqual([
      'deleted gone.yaml 1',
      'deleted kept-v1.yaml 1',
      'failed broken.yaml 1',
      'failed catalog-info.yaml ',
      'failed truncated.yaml 1',
      'unchanged kept-v2.yaml 2',
    ]);
    expect(entries.find((entry) => entry.path === 'gone.yaml')?.apiDeleted).toBe(true);
    expect(entries.find((entry) => entry.path === 'kept-v1.yaml')?.apiDeleted).toBe(false);
    expect(entries.find((entry) => entry.path === 'truncated.yaml')?.reason).toMatch(/no longer read as a spec/);
    // Without prune, nothing is deleted.
    expect(planTree(request([], {}), state(apis)).filter((entry) => entry.action === 'deleted')).toEqual([]);
  });

  it('should prune an entity removed from its descriptor and not register the file it named on its own', () => {
    const entity = known('a1', 'Inventory', { tree: TREE, key: 'entity:api:default/inventory' }, [['2.4.0', 'catalog-info.yaml#inventory', sha('1')]]);
    const file = { ...item('specs/inventory.yaml', 'Inventory', '2.4.0'), sha256: sha('1') };
    const entries = planTree(request([file], { prune: true }), state([entity], [], ['specs/inventory.yaml']));
    expect(summary(entries)).toEqual(['deleted catalog-info.yaml#inventory 2.4.0', 'skipped specs/inventory.yaml 2.4.0']);
    expect(entries.find((entry) => entry.action === 'deleted')?.apiDeleted).toBe(true);
  });

  it("should keep an entity's details up to date from its descriptor, and a plain file's API's as people left them", () => {
    const api = known('a1', 'Inventory', { tree: TREE, key: 'entity:api:default/inventory' }, [['1', 'catalog-info.yaml#inventory', sha('1'), 'development']]);
    const entity: TreeItem = {
      ...item('catalog-info.yaml#inventory', 'Inventory', '1'),
      key: 'entity:api:default/inventory',
      sha256: sha('1'),
      description: 'Stock levels',
      teamName: 'warehouse-ops',
      lifecycle: 'production',
      catalog: { entityRef: 'api:default/inventory', owner: 'group:default/warehouse-ops', system: 'logistics', tags: ['stock'] },
    };
    expect(planTree(request([entity]), state([api]))[0]).toMatchObject({ action: 'updated', what: ['details', 'stage'], stage: 'production' });
    const plain = known('a2', 'Pets', { tree: TREE, key: 'title:pets' }, [['1', 'pets.yaml', sha('2')]]);
    plain.api.description = 'Written by people';
    expect(planTree(request([{ ...item('pets.yaml', 'Pets', '1'), sha256: sha('2'), description: 'x' }]), state([plain]))[0].action).toBe('unchanged');
  });
});
