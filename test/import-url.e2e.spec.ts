import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.js';

const ORG = 'acme';
const SPEC_MAX_BYTES = 8192;

const openapi = (title: string, version: string, summary: string) =>
  JSON.stringify({ openapi: '3.0.3', info: { title, version }, paths: { '/items': { get: { summary, responses: { '200': { description: 'OK' } } } } } });

/** What a spec server on 127.0.0.1 serves, and what it was asked. */
interface SpecServer {
  server: Server;
  port: number;
  hits: { url: string; ifNoneMatch?: string; status: number }[];
}

async function specServer(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<SpecServer> {
  const hits: SpecServer['hits'] = [];
  const server = createServer((req, res) => {
    res.on('finish', () => hits.push({ url: req.url ?? '', ifNoneMatch: req.headers['if-none-match'], status: res.statusCode }));
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

async function stop({ server }: SpecServer): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/**
 * Import from a URL and refresh (issue #31), against spec servers on 127.0.0.1 only: one listed in
 * IMPORT_ALLOWED_HOSTS, and one that is not, which must never be reached — not directly, by
 * another spelling of its address, by a name that resolves to it, nor by a redirect.
 */
describe('Import from a URL', () => {
  let stack: TestStack;
  let publisher: string;
  let allowed: SpecServer;
  let internal: SpecServer;
  let etagSpec = openapi('Inventory', '2.3.0', 'List the items in stock');
  const plainSpec = openapi('Catalogue', '1.0.0', 'List the catalogue');
  let plainFails = false;
  const http = () => request(stack.gateway.getHttpServer());
  const post = (path: string, body: object) => http().post(path).set('authorization', `Bearer ${publisher}`).send(body);
  const put = (path: string, body: object) => http().put(path).set('authorization', `Bearer ${publisher}`).send(body);
  const get = (path: string) => http().get(path).set('authorization', `Bearer ${publisher}`);
  const apis = '/api-management/apis';
  const importUrl = (url: string, extra: object = {}) => post(`${apis}/import`, { orgId: ORG, url, ...extra });
  const at = (server: SpecServer, path: string) => `http://127.0.0.1:${server.port}${path}`;
  const etagOf = (text: string) => `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;

  beforeAll(async () => {
    internal = await specServer((_req, res) => res.setHeader('content-type', 'application/json').end(openapi('SECRET internal', '9', 'internal only')));
    allowed = await specServer((req, res) => {
      const path = req.url ?? '';
      if (path === '/etag.json') {
        const etag = etagOf(etagSpec);
        if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
        return void res.writeHead(200, { 'content-type': 'application/json', etag }).end(etagSpec);
      }
      if (path === '/plain.yaml')
        return void (plainFails ? res.writeHead(500).end('down') : res.writeHead(200, { 'content-type': 'application/yaml' }).end(plainSpec));
      if (path === '/specs/schema.graphql') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('type Query { warehouses: [String] }\n');
      if (path === '/to-etag') return void res.writeHead(302, { location: '/etag.json' }).end();
      if (path === '/to-internal') return void res.writeHead(302, { location: at(internal, '/spec.json') }).end();
      if (path === '/to-file') return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      if (path === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>sign in</html>');
      if (path === '/large.json') {
        // Chunked, without a length: the limit stops the reading, not a header.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"openapi":"3.0.3","info":{"title":"Large","version":"1"},"x-padding":"');
        for (let i = 0; i < 40; i++) res.write('x'.repeat(1024));
        return void res.end('","paths":{}}');
      }
      if (path === '/hang') return; // never answers
      res.writeHead(404).end();
    });
    stack = await startStack({
      withoutAi: true,
      env: { IMPORT_ALLOWED_HOSTS: `127.0.0.1:${allowed.port}`, SPEC_MAX_BYTES: String(SPEC_MAX_BYTES), IMPORT_TIMEOUT_MS: '1500' },
    });
    publisher = await stack.token([ORG], ['publisher']);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await Promise.all([allowed, internal].filter(Boolean).map(stop));
  });

  describe('from an allowed host', () => {
    let inventoryId: string;

    it('should register the API with its name and version from the spec, and keep its source', async () => {
      const imported = await importUrl(at(allowed, '/etag.json'), { teamName: 'stock' }).expect(201);
      inventoryId = imported.body.apiId;
      expect(imported.body).toMatchObject({ name: 'Inventory', version: '2.3.0', teamName: 'stock', kind: 'openapi', lifecycle: 'production' });
      expect(imported.body.source).toEqual({
        url: at(allowed, '/etag.json'),
        version: '2.3.0',
        sha256: createHash('sha256').update(etagSpec).digest('hex'),
        etag: etagOf(etagSpec),
        fetchedAt: expect.any(String),
      });
      const spec = await get(`${apis}/${inventoryId}/spec`).expect(200);
      expect(spec.text).toBe(etagSpec);
    });

    it('should follow a redirect within allowed hosts, and name a spec without a title by its file', async () => {
      await importUrl(at(allowed, '/to-etag'), { name: 'Inventory again' }).expect(201);
      const graphql = await importUrl(at(allowed, '/specs/schema.graphql')).expect(201);
      expect(graphql.body).toMatchObject({ name: 'schema', version: '1', kind: 'graphql' });
    });

    it('should answer unchanged on a 304 to If-None-Match, with no new revision and fetchedAt moved on', async () => {
      const before = (await get(`${apis}/${inventoryId}`).expect(200)).body;
      const hits = allowed.hits.length;
      const refreshed = await post(`${apis}/${inventoryId}/refresh`, {}).expect(200);
      expect(refreshed.body).toEqual({ outcome: 'unchanged', apiId: inventoryId });
      expect(allowed.hits.slice(hits)).toEqual([{ url: '/etag.json', ifNoneMatch: etagOf(etagSpec), status: 304 }]);
      const after = (await get(`${apis}/${inventoryId}`).expect(200)).body;
      expect(after.versions).toEqual(before.versions);
      expect(after.revision).toBe(before.revision);
      expect(Date.parse(after.source.fetchedAt)).toBeGreaterThan(Date.parse(before.source.fetchedAt));
      const versions = await get(`${apis}/${inventoryId}/versions`).expect(200);
      expect(versions.body.items[0].revision).toBe(1);
    });

    it("should make exactly one new revision of the source's version when the document changed", async () => {
      etagSpec = openapi('Inventory', '2.3.0', 'List the items in stock, by warehouse');
      const refreshed = await post(`${apis}/${inventoryId}/refresh`, {}).expect(200);
      expect(refreshed.body).toMatchObject({ outcome: 'updated', apiId: inventoryId, revision: 2, changes: expect.any(Object) });
      const versions = await get(`${apis}/${inventoryId}/versions`).expect(200);
      expect(versions.body.items).toMatchObject([{ version: '2.3.0', revision: 2 }]);
      const record = await get(`${apis}/${inventoryId}`).expect(200);
      expect(record.body.source).toMatchObject({ etag: etagOf(etagSpec), sha256: createHash('sha256').update(etagSpec).digest('hex') });
      expect((await get(`${apis}/${inventoryId}/spec`).expect(200)).text).toBe(etagSpec);
      // And once only: the next refresh finds it unchanged.
      await post(`${apis}/${inventoryId}/refresh`, {}).expect(200, { outcome: 'unchanged', apiId: inventoryId });
    });

    it('should answer unchanged for the same text from a server without validators, and keep the last good spec when a refresh fails', async () => {
      const imported = await importUrl(at(allowed, '/plain.yaml')).expect(201);
      const apiId = imported.body.apiId;
      expect(imported.body.source.etag).toBeUndefined();
      const hits = allowed.hits.length;
      await post(`${apis}/${apiId}/refresh`, {}).expect(200, { outcome: 'unchanged', apiId });
      expect(allowed.hits.slice(hits)).toEqual([{ url: '/plain.yaml', status: 200 }]);

      plainFails = true;
      const failed = await post(`${apis}/${apiId}/refresh`, {}).expect(200);
      expect(failed.body).toEqual({ outcome: 'failed', apiId, error: expect.stringContaining('500') });
      const record = await get(`${apis}/${apiId}`).expect(200);
      expect(record.body.source.lastError).toBe(failed.body.error);
      expect((await get(`${apis}/${apiId}/spec`).expect(200)).text).toBe(plainSpec);
      expect((await get(`${apis}/${apiId}/versions`).expect(200)).body.items[0].revision).toBe(1);

      plainFails = false;
      await post(`${apis}/${apiId}/refresh`, {}).expect(200, { outcome: 'unchanged', apiId });
      expect((await get(`${apis}/${apiId}`).expect(200)).body.source.lastError).toBeUndefined();
    });

    it('should refuse a document over SPEC_MAX_BYTES with a 413, one that is not JSON, YAML or text with a 415, and a server that never answers with a 504', async () => {
      const large = await importUrl(at(allowed, '/large.json')).expect(413);
      expect(large.body.detail).toContain('SPEC_MAX_BYTES');
      await importUrl(at(allowed, '/page.html')).expect(415);
      const started = Date.now();
      const hang = await importUrl(at(allowed, '/hang')).expect(504);
      expect(hang.body.detail).toContain('IMPORT_TIMEOUT_MS');
      expect(Date.now() - started).toBeLessThan(10_000);
      const names = (await get(`${apis}?orgId=${ORG}&pageSize=100`).expect(200)).body.items.map((item: { name: string }) => item.name);
      expect(names).not.toContain('Large');
    });

    it('should answer 409 to a refresh of an API that was not imported from a URL', async () => {
      const sent = await post(apis, { orgId: ORG, name: 'Sent by hand', version: '1', spec: openapi('Sent by hand', '1', 'By hand') }).expect(201);
      const refused = await post(`${apis}/${sent.body.apiId}/refresh`, {}).expect(409);
      expect(refused.body.detail).toContain('not imported from a URL');
    });
  });

  describe('from a refused address', () => {
    const refusedUrls = () => [
      ["the gateway's own port", `${stack.url}/health`],
      ['an unlisted port of 127.0.0.1', at(internal, '/spec.json')],
      ['IPv6 loopback', `http://[::1]:${internal.port}/spec.json`],
      ['0.0.0.0', `http://0.0.0.0:${internal.port}/spec.json`],
      ['127.0.0.1 in decimal', `http://2130706433:${internal.port}/spec.json`],
      ['127.0.0.1 in hex', `http://0x7f000001:${internal.port}/spec.json`],
      ['a name that resolves to loopback', `http://localhost:${internal.port}/spec.json`],
      ['a redirect from an allowed host', at(allowed, '/to-internal')],
      ['a redirect to file:', at(allowed, '/to-file')],
      ['file:', 'file:///etc/passwd'],
    ];

    it('should refuse every one with a 4xx that says only that the address is not allowed, and never reach it', async () => {
      for (const [what, url] of refusedUrls()) {
        const refused = await importUrl(url);
        expect([what, refused.status]).toEqual([what, expect.any(Number)]);
        expect([what, refused.status >= 400 && refused.status < 500]).toEqual([what, true]);
        const detail: string = refused.body.detail;
        expect([what, detail]).toEqual([
          what,
          url.startsWith('file:') ? 'url must be an http or https URL' : expect.stringMatching(/^The URL's address is not allowed/),
        ]);
        expect(detail).not.toMatch(/127\.0\.0\.1|::1|localhost|SECRET|root:/);
      }
      expect(internal.hits).toEqual([]);
      const names = (await get(`${apis}?orgId=${ORG}&pageSize=100`).expect(200)).body.items.map((item: { name: string }) => item.name);
      expect(names).not.toContain('SECRET internal');
    });
  });

  describe('tree imports (the routes npm run import calls)', () => {
    const spec = openapi('Ledger', '1.0.0', 'List the ledger entries');
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const tree = 'git.example.com/finance/specs:ledger';
    const item = (text: string) => ({
      path: 'specs/ledger.json',
      key: 'title:ledger',
      name: 'Ledger',
      version: '1.0.0',
      sha256: sha(text),
      bytes: text.length,
    });
    const body = (text: string, extra: object = {}) => ({ orgId: ORG, tree, items: [item(text)], ...extra });

    it("should keep each version's file, list the APIs of its tree, plan from hashes alone, and make no revision for the same text", async () => {
      const planned = await post('/api-management/tree-imports/plan', body(spec)).expect(200);
      expect(planned.body).toMatchObject({ counts: { added: 1 }, entries: [{ action: 'added', newApi: true, needsSpec: true }] });
      const applied = await post('/api-management/tree-imports/apply', body(spec, { specs: { 'specs/ledger.json': spec } })).expect(200);
      expect(applied.body.entries).toMatchObject([{ action: 'added', applied: true }]);
      const apiId = applied.body.entries[0].apiId;
      expect((await get(`${apis}/${apiId}`).expect(200)).body.source).toEqual({ tree, key: 'title:ledger' });
      expect((await get(`${apis}/${apiId}/versions`).expect(200)).body.items[0].source).toEqual({ tree, path: 'specs/ledger.json', sha256: sha(spec) });

      const listed = await get(`${apis}?orgId=${ORG}&sourceTree=${encodeURIComponent(tree)}`).expect(200);
      expect(listed.body).toMatchObject({ total: 1, items: [{ apiId }] });
      await get(`${apis}?orgId=${ORG}&sourceTree=other-repo`).expect(200, { items: [], total: 0 });
      await get(`${apis}?sourceTree=other-repo`).expect(400);
      await post('/api-management/tree-imports/plan', { ...body(spec), tree: 'a tree' }).expect(400);
      await post('/api-management/tree-imports/plan', { ...body(spec), items: [{ ...item(spec), sha256: 'x' }] }).expect(400);

      // The same text again: unchanged from the hash, no text needed, nothing written.
      const again = await post('/api-management/tree-imports/apply', body(spec)).expect(200);
      expect(again.body.entries).toMatchObject([{ action: 'unchanged' }]);
      expect((await get(`${apis}/${apiId}/versions`).expect(200)).body.items[0].revision).toBe(1);
      // A text that is not the item's is refused for that item.
      const lying = await post('/api-management/tree-imports/apply', body(openapi('Ledger', '1.0.0', 'x'), { specs: { 'specs/ledger.json': spec } })).expect(
        200,
      );
      expect(lying.body.entries).toMatchObject([{ action: 'failed', reason: expect.stringMatching(/SHA-256 differs/) }]);

      // A revision sent by hand is no longer the file's: the next import sends the file's text again.
      const byHand = openapi('Ledger', '1.0.0', 'List the ledger entries of a period');
      expect((await put(`${apis}/${apiId}/versions/1.0.0`, { spec: byHand }).expect(200)).body).toMatchObject({ revision: 2, source: { sha256: sha(byHand) } });
      const back = await post('/api-management/tree-imports/apply', body(spec, { specs: { 'specs/ledger.json': spec } })).expect(200);
      expect(back.body.entries).toMatchObject([{ action: 'updated', what: ['spec'], applied: true }]);
      expect((await get(`${apis}/${apiId}/versions`).expect(200)).body.items[0]).toMatchObject({ revision: 3, source: { sha256: sha(spec) } });
    });

    it('should refuse an apply planned on an older generation of the tree: two imports never interleave', async () => {
      const planned = await post('/api-management/tree-imports/plan', body(spec)).expect(200);
      const generation = planned.body.generation as number;
      const first = await post('/api-management/tree-imports/apply', body(spec, { generation })).expect(200);
      expect(first.body.generation).toBe(generation + 1);
      // Another run that planned on the same generation comes second: refused, nothing written.
      const late = await post('/api-management/tree-imports/apply', body(spec, { generation, prune: true })).expect(409);
      expect(late.body.detail).toMatch(/Another import of tree ".*" ran since this one planned/);
      await post('/api-management/tree-imports/apply', body(spec, { generation: generation + 1 })).expect(200);
    });

    it("should refuse a body it cannot take with a 400 that names the field, another org's tree with 403, and a reader's apply", async () => {
      const plan = '/api-management/tree-imports/plan';
      const refused = async (extra: object, field: RegExp) => {
        const answer = await post(plan, { ...body(spec), ...extra }).expect(400);
        expect(JSON.stringify(answer.body.errors ?? answer.body.detail)).toMatch(field);
      };
      await refused({ items: 'all of them' }, /items/);
      await refused({ items: [{ ...item(spec), key: 'k'.repeat(1101) }] }, /key/);
      await refused({ items: [{ ...item(spec), version: ' ' }] }, /version/);
      await refused({ specs: Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`f${index}.json`, spec])) }, /specs must be an object of at most 20/);
      await refused({ specs: { 'specs/ledger.json': 42 } }, /specs must be/);
      await refused(
        { items: Array.from({ length: 10_001 }, (_, index) => ({ ...item(spec), path: `f${index}.json` })) },
        /items must contain no more than 10000/,
      );
      await refused({ failed: [{ path: 'x.json' }] }, /reason/);

      // A path that names an object's machinery is a path like any other.
      const odd = await post(plan, {
        ...body(spec),
        items: [{ ...item(spec), path: 'constructor', key: 'file:constructor', name: 'Constructor' }],
        specs: { 'other.json': spec },
      }).expect(200);
      expect(odd.body.entries).toEqual([expect.objectContaining({ path: 'constructor', action: 'added', needsSpec: true })]);

      await post(plan, { ...body(spec), orgId: 'someone-else' }).expect(403);
      const reader = await stack.token([ORG], ['reader']);
      const asReader = (path: string) => http().post(path).set('authorization', `Bearer ${reader}`).send(body(spec));
      // A plan writes nothing: a reader's CI job may gate on it; publishing is a publisher's.
      expect((await asReader(plan).expect(200)).body.counts).toMatchObject({ unchanged: 1 });
      await asReader('/api-management/tree-imports/apply').expect(403);
    });
  });
});
