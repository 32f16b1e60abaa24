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

  describe('folder imports', () => {
    const spec = openapi('Ledger', '1.0.0', 'List the ledger entries');
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');

    it("should keep a file's source, list the APIs of its tree, and make no revision for the same text", async () => {
      const created = await post(apis, {
        orgId: ORG,
        name: 'Ledger',
        version: '1.0.0',
        spec,
        source: { tree: 'finance-repo', path: 'specs/ledger.json' },
      }).expect(201);
      const apiId = created.body.apiId;
      expect(created.body.source).toEqual({ tree: 'finance-repo', path: 'specs/ledger.json', version: '1.0.0', sha256: sha(spec) });

      const listed = await get(`${apis}?orgId=${ORG}&sourceTree=finance-repo`).expect(200);
      expect(listed.body).toMatchObject({ total: 1, items: [{ apiId }] });
      await get(`${apis}?orgId=${ORG}&sourceTree=other-repo`).expect(200, { items: [], total: 0 });
      await get(`${apis}?sourceTree=finance-repo`).expect(400);
      await post(apis, { orgId: ORG, name: 'Bad tree', version: '1', spec, source: { tree: 'a/b', path: 'x.json' } }).expect(400);

      // Importing again: the same text is no new revision, on either route.
      const again = await put(`${apis}/${apiId}`, {
        orgId: ORG,
        name: 'Ledger',
        version: '1.0.0',
        spec,
        source: { tree: 'finance-repo', path: 'specs/ledger.json' },
      }).expect(200);
      expect(again.body.versions).toMatchObject([{ version: '1.0.0' }]);
      await put(`${apis}/${apiId}/versions/1.0.0`, { spec }).expect(200);
      expect((await get(`${apis}/${apiId}/versions`).expect(200)).body.items[0].revision).toBe(1);

      // A changed file: one revision, and the source's sha256 follows it.
      const changed = openapi('Ledger', '1.0.0', 'List the ledger entries of a period');
      const revised = await put(`${apis}/${apiId}/versions/1.0.0`, { spec: changed }).expect(200);
      expect(revised.body.revision).toBe(2);
      expect((await get(`${apis}/${apiId}`).expect(200)).body.source).toEqual({
        tree: 'finance-repo',
        path: 'specs/ledger.json',
        version: '1.0.0',
        sha256: sha(changed),
      });
    });
  });
});
