import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultSpecFormats } from '#api-specs';
import { type ScanOptions, scanTree } from './import-tree.js';

const MAX_BYTES = 2048;
const tool = { name: 'read_file', inputSchema: { type: 'object' } };

/**
 * Which files of a tree the folder import takes as specs, fails or skips: the formats' markers
 * decide for JSON and YAML files (`SpecMarker`), a kind's file ending for the others.
 */
const TREE: Record<string, string> = {
  'openapi.json': JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '2.1.0' }, paths: {} }),
  'swagger.yaml': 'swagger: "2.0"\ninfo: {title: Legacy}\npaths: {}\n',
  'events.yml': 'asyncapi: 3.0.0\ninfo: {title: Events, version: 1.0.0}\n',
  'tools.json': JSON.stringify({ tools: [tool] }),
  // Any top-level `tools` list is sent: the platform says what is wrong with an empty one.
  'no-tools.json': JSON.stringify({ tools: [] }),
  'tools.yaml': 'tools:\n  - name: read_file\n',
  // A tools/list answer kept whole is no top-level list: left alone, as before.
  'answer.json': JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [tool] } }),
  'package.json': JSON.stringify({ name: 'left-pad', version: '1.3.0' }),
  'list.yaml': '- a\n- b\n',
  'half.yaml': 'openapi: 3.0.3\ninfo: [unclosed\n',
  'half.json': '{\n  "asyncapi": "2.6.0",\n  "info": {',
  'half-tools.json': '{\n  "tools": [\n    {"name": "read_file"',
  'broken-config.json': '{"name": "x", // a comment\n}',
  'big-openapi.yaml': `openapi: 3.0.3\ninfo: {title: Big, version: "1"}\nx-padding: "${'x'.repeat(MAX_BYTES)}"\n`,
  'big-tools.json': JSON.stringify({ tools: [tool], padding: 'x'.repeat(MAX_BYTES) }),
  'big-data.json': JSON.stringify({ rows: 'x'.repeat(MAX_BYTES) }),
  'shop.graphql': 'type Query { shop: String }',
  'payments.proto': 'syntax = "proto3";\nservice Pay { rpc Go (A) returns (A); }\nmessage A {}\n',
  'README.md': '# not a spec',
};

const formats = defaultSpecFormats();
const options: ScanOptions = { extensions: new Map(), kinds: new Set(formats.kinds), maxBytes: MAX_BYTES };
for (const { kind, fileExtensions } of formats.all) {
  for (const ext of fileExtensions) options.extensions.set(ext, [...(options.extensions.get(ext) ?? []), kind]);
}

/** A temporary tree of these files (paths with `/`), removed after the test. */
function treeOf(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'import-tree-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  roots.push(root);
  return root;
}
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

describe('scanTree', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'import-tree-'));
    mkdirSync(join(root, 'specs'));
    for (const [name, text] of Object.entries(TREE)) writeFileSync(join(root, 'specs', name), text);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('should take the files a format marks or whose ending is a kind, fail the marked ones it cannot read, and skip the rest', async () => {
    const scan = await scanTree([root], options);
    const items = Object.fromEntries(scan.items.map(({ path, key, name, version, format }) => [path.replace('specs/', ''), { key, name, version, format }]));
    expect(items).toEqual({
      'events.yml': { key: 'title:events', name: 'Events', version: '1.0.0', format: undefined },
      'no-tools.json': { key: 'file:specs/no-tools.json', name: 'no-tools', version: '1', format: undefined },
      'openapi.json': { key: 'title:pets', name: 'Pets', version: '2.1.0', format: undefined },
      'payments.proto': { key: 'file:specs/payments.proto', name: 'payments', version: '1', format: 'grpc' },
      'shop.graphql': { key: 'file:specs/shop.graphql', name: 'shop', version: '1', format: 'graphql' },
      'swagger.yaml': { key: 'title:legacy', name: 'Legacy', version: '1', format: undefined },
      'tools.json': { key: 'file:specs/tools.json', name: 'tools', version: '1', format: undefined },
      'tools.yaml': { key: 'file:specs/tools.yaml', name: 'tools', version: '1', format: undefined },
    });
    expect(scan.failed.map(({ path, reason }) => `${path.replace('specs/', '')}: ${reason.split(':')[0]}`).sort()).toEqual([
      `big-openapi.yaml: ${TREE['big-openapi.yaml'].length} bytes, over the spec limit of ${MAX_BYTES}`,
      `big-tools.json: ${TREE['big-tools.json'].length} bytes, over the spec limit of ${MAX_BYTES}`,
      'half-tools.json: not valid JSON',
      'half.json: not valid JSON',
      'half.yaml: not valid YAML',
    ]);
    const skipped = scan.skipped.map((path) => path.replace('specs/', '')).sort();
    expect(skipped).toEqual(['README.md', 'answer.json', 'big-data.json', 'broken-config.json', 'list.yaml', 'package.json']);
  });
});

describe('scanTree identities and versions', () => {
  it('should key a titled document by its title, folded, and one that names nothing by its path', async () => {
    const root = treeOf({
      'a/orders.yaml': 'openapi: 3.0.3\ninfo:\n  title: "  Orders \t  API "\n  version: 1.0.0\npaths: {}\n',
      'b/orders-v2.json': JSON.stringify({ openapi: '3.0.3', info: { title: 'orders api', version: '2.0.0' }, paths: {} }),
      'c/untitled.yaml': 'openapi: 3.0.3\ninfo: {version: 1.0.0}\npaths: {}\n',
    });
    const scan = await scanTree([root], options);
    expect(scan.items.map(({ path, key, name }) => ({ path, key, name }))).toEqual([
      { path: 'a/orders.yaml', key: 'title:orders api', name: 'Orders \t  API' },
      { path: 'b/orders-v2.json', key: 'title:orders api', name: 'orders api' },
      { path: 'c/untitled.yaml', key: 'file:c/untitled.yaml', name: 'untitled' },
    ]);
  });

  it('should keep a YAML date or number version as written, and a JSON number as String(n)', async () => {
    const root = treeOf({
      'date.yaml': 'openapi: 3.0.3\ninfo: {title: Dated, version: 2024-06-20}\npaths: {}\n',
      'number.yaml': 'asyncapi: 3.0.0\ninfo: {title: Numbered, version: 1.10}\n',
      'quoted.yaml': 'openapi: 3.0.3\ninfo: {title: Quoted, version: "1.10"}\npaths: {}\n',
      'number.json': '{"openapi": "3.0.3", "info": {"title": "Json", "version": 2}, "paths": {}}',
    });
    const scan = await scanTree([root], options);
    expect(Object.fromEntries(scan.items.map(({ path, version }) => [path, version]))).toEqual({
      'date.yaml': '2024-06-20',
      'number.yaml': '1.10',
      'quoted.yaml': '1.10',
      'number.json': '2',
    });
  });

  it('should give each item the SHA-256 and byte count of its exact text', async () => {
    const text = 'type Query { café: String }';
    const scan = await scanTree([treeOf({ 'shop.graphql': text })], options);
    expect(scan.items).toEqual([
      {
        path: 'shop.graphql',
        key: 'file:shop.graphql',
        name: 'shop',
        version: '1',
        format: 'graphql',
        spec: text,
        sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
        bytes: text.length + 1,
      },
    ]);
  });
});

const descriptor = (...entities: string[]) => entities.map((entity) => `apiVersion: backstage.io/v1alpha1\n${entity}`).join('---\n');

describe('scanTree of a Backstage catalogue', () => {
  it('should read every detail of a kind: API entity', async () => {
    const root = treeOf({
      'catalog-info.yaml': descriptor(
        [
          'kind: API',
          'metadata:',
          '  name: Inventory',
          '  namespace: Shop',
          '  title: Warehouse Inventory',
          '  description: Stock levels, by warehouse.',
          '  labels: {Tier: "1", backstage.io/source: git}',
          '  tags: [stock, 42, {not: a tag}]',
          'spec:',
          '  type: openapi',
          '  owner: team:warehouse',
          '  system: default/logistics',
          '  lifecycle: experimental',
          '  definition:',
          '    $text: ./specs/inventory.yaml',
          '',
        ].join('\n'),
      ),
      'specs/inventory.yaml': 'openapi: 3.0.3\ninfo: {title: Inventory, version: 2024-06-20}\npaths: {}\n',
    });
    const scan = await scanTree([root], options);
    const { spec, sha256, bytes, ...item } = scan.items[0];
    expect(item).toEqual({
      path: 'catalog-info.yaml#Inventory',
      file: 'specs/inventory.yaml',
      key: 'entity:api:shop/inventory',
      name: 'Warehouse Inventory',
      version: '2024-06-20',
      format: 'openapi',
      lifecycle: 'development',
      teamName: 'warehouse',
      description: 'Stock levels, by warehouse.',
      labels: { 'backstage.io/source': 'git', tier: '1' },
      catalog: { entityRef: 'api:shop/inventory', owner: 'team:shop/warehouse', system: 'logistics', tags: ['stock', '42'] },
    });
    expect({ spec, sha256, bytes }).toEqual({
      spec: expect.stringContaining('2024-06-20'),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: spec.length,
    });
    // The file the entity reads is its API, not one of its own.
    expect(scan.items).toHaveLength(1);
    expect(scan.skipped).toEqual([]);
  });

  it.each([
    ['group:default/warehouse-ops', { teamName: 'warehouse-ops', owner: 'group:default/warehouse-ops' }],
    ['warehouse-ops', { teamName: 'warehouse-ops', owner: 'group:default/warehouse-ops' }],
    ['team:warehouse', { teamName: 'warehouse', owner: 'team:default/warehouse' }],
    ['user:ada', { teamName: undefined, owner: 'user:default/ada' }],
    ['User:default/ada', { teamName: undefined, owner: 'user:default/ada' }],
  ])('should read the owner %s as its team (none for a user) and a full ref', async (ownerRef, expected) => {
    const api = `kind: API\nmetadata: {name: a}\nspec: {type: graphql, owner: "${ownerRef}", definition: "type Query { a: String }"}\n`;
    const [item] = (await scanTree([treeOf({ 'catalog-info.yaml': descriptor(api) })], options)).items;
    expect({ teamName: item.teamName, owner: item.catalog?.owner }).toEqual(expected);
  });

  it('should name an entity by metadata.name without a title, and keep a system of another namespace as ns/name', async () => {
    const api = 'kind: API\nmetadata: {name: orders}\nspec: {type: graphql, system: "system:payments/ledger", definition: "type Query { a: String }"}\n';
    const [item] = (await scanTree([treeOf({ 'catalog-info.yaml': descriptor(api) })], options)).items;
    expect(item).toMatchObject({ name: 'orders', key: 'entity:api:default/orders', catalog: { entityRef: 'api:default/orders', system: 'payments/ledger' } });
    expect(item.file).toBeUndefined();
    expect(item.labels).toBeUndefined();
  });

  it('should fail an entity whose labels our rules refuse, and keep the others', async () => {
    const bad = 'kind: API\nmetadata: {name: bad, labels: {"team owner": x}}\nspec: {type: graphql, definition: "type Query { a: String }"}\n';
    const twice = 'kind: API\nmetadata: {name: twice, labels: {Tier: a, tier: b}}\nspec: {type: graphql, definition: "type Query { a: String }"}\n';
    const good = 'kind: API\nmetadata: {name: good}\nspec: {type: graphql, definition: "type Query { a: String }"}\n';
    const scan = await scanTree([treeOf({ 'catalog-info.yaml': descriptor(bad, twice, good) })], options);
    expect(scan.items.map(({ path }) => path)).toEqual(['catalog-info.yaml#good']);
    expect(scan.failed).toEqual([
      { path: 'catalog-info.yaml#bad', reason: expect.stringMatching(/^metadata\.labels: label key "team owner" must be/) },
      { path: 'catalog-info.yaml#twice', reason: 'metadata.labels: two keys are "tier" once lower-cased' },
    ]);
  });

  it('should read components with the APIs they provide and consume as full refs, and skip other kinds', async () => {
    const component = [
      'kind: Component',
      'metadata: {name: Storefront}',
      'spec:',
      '  providesApis: [orders-graph, "api:default/Inventory", orders-graph]',
      '  consumesApis: ["payments/ledger"]',
      '',
    ].join('\n');
    const scan = await scanTree([treeOf({ 'catalog-info.yaml': descriptor(component, 'kind: System\nmetadata: {name: shop}\n') })], options);
    expect(scan.components).toEqual([
      {
        entityRef: 'component:default/storefront',
        path: 'catalog-info.yaml#Storefront',
        providesApis: ['api:default/orders-graph', 'api:default/inventory'],
        consumesApis: ['api:payments/ledger'],
      },
    ]);
    expect(scan.skipped).toEqual(['catalog-info.yaml#shop']);
  });

  it('should list an entity whose $text is an address as a URL item, and fail a descriptor it cannot parse', async () => {
    const api = 'kind: API\nmetadata: {name: remote}\nspec: {type: openapi, owner: user:ada, definition: {$text: "https://example.com/openapi.yaml"}}\n';
    const scan = await scanTree([treeOf({ 'a/catalog-info.yaml': descriptor(api), 'b/catalog-info.yaml': 'kind: API\nmetadata: [unclosed\n' })], options);
    expect(scan.urlItems).toEqual([
      {
        path: 'a/catalog-info.yaml#remote',
        key: 'entity:api:default/remote',
        name: 'remote',
        url: 'https://example.com/openapi.yaml',
        format: 'openapi',
        catalog: { entityRef: 'api:default/remote', owner: 'user:default/ada' },
      },
    ]);
    expect(scan.failed).toEqual([{ path: 'b/catalog-info.yaml', reason: expect.stringMatching(/^not a readable catalog descriptor/) }]);
  });

  it('should read the repository fixture: a GraphQL entity inline, an OpenAPI one from its file, and the component', async () => {
    const scan = await scanTree([join(import.meta.dirname, '../../../test/fixtures/import')], { ...options, maxBytes: 1024 * 1024 });
    expect(
      scan.items
        .filter(({ path }) => path.startsWith('catalog-info.yaml'))
        .map(({ path, key, file, teamName, catalog }) => ({ path, key, file, teamName, catalog })),
    ).toEqual([
      {
        path: 'catalog-info.yaml#orders-graph',
        key: 'entity:api:default/orders-graph',
        file: undefined,
        teamName: 'checkout',
        catalog: { entityRef: 'api:default/orders-graph', owner: 'group:default/checkout' },
      },
      {
        path: 'catalog-info.yaml#inventory',
        key: 'entity:api:default/inventory',
        file: 'specs/inventory.yaml',
        teamName: 'warehouse-ops',
        catalog: { entityRef: 'api:default/inventory', owner: 'group:default/warehouse-ops', system: 'supply-chain', tags: ['stock', 'logistics'] },
      },
    ]);
    expect(scan.components).toEqual([
      {
        entityRef: 'component:default/storefront',
        path: 'catalog-info.yaml#storefront',
        providesApis: ['api:default/orders-graph', 'api:default/inventory'],
        consumesApis: [],
      },
    ]);
  });
});
