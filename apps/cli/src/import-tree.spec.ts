import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('scanTree', () => {
  let root: string;
  const formats = defaultSpecFormats();
  const options: ScanOptions = { extensions: new Map(), kinds: new Set(formats.kinds), maxBytes: MAX_BYTES };
  for (const { kind, fileExtensions } of formats.all) {
    for (const ext of fileExtensions) options.extensions.set(ext, [...(options.extensions.get(ext) ?? []), kind]);
  }

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'import-tree-'));
    mkdirSync(join(root, 'specs'));
    for (const [name, text] of Object.entries(TREE)) writeFileSync(join(root, 'specs', name), text);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('should take the files a format marks or whose ending is a kind, fail the marked ones it cannot read, and skip the rest', async () => {
    const scan = await scanTree([root], options);
    const items = Object.fromEntries(scan.items.map(({ path, name, version, format }) => [path.replace('specs/', ''), { name, version, format }]));
    expect(items).toEqual({
      'events.yml': { name: 'Events', version: '1.0.0', format: undefined },
      'no-tools.json': { name: 'no-tools', version: '1', format: undefined },
      'openapi.json': { name: 'Pets', version: '2.1.0', format: undefined },
      'payments.proto': { name: 'payments', version: '1', format: 'grpc' },
      'shop.graphql': { name: 'shop', version: '1', format: 'graphql' },
      'swagger.yaml': { name: 'Legacy', version: '1', format: undefined },
      'tools.json': { name: 'tools', version: '1', format: undefined },
      'tools.yaml': { name: 'tools', version: '1', format: undefined },
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
