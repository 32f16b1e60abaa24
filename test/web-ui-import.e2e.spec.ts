import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.js';

const ORG = 'acme';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TOKEN_KEY = 'api-discovery.token';
/** Long waits on conditions: the machine running these may be busy. */
const WAIT = { timeout: 60_000 };

const openapi = (summary: string) =>
  JSON.stringify(
    {
      openapi: '3.0.3',
      info: { title: 'Inventory', version: '2.3.0' },
      paths: { '/items': { get: { summary, responses: { '200': { description: 'OK' } } } } },
    },
    null,
    2,
  );
const etagOf = (text: string) => `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;

/** In a folder import's path: flags `window.__xss` if it ever runs. */
const XSS_PATH = 'a/<img src=x onerror=window.__xss=1>.yaml';

/**
 * The web UI's import from a URL and its source on the detail page (issue #31), against a spec
 * server on 127.0.0.1 that IMPORT_ALLOWED_HOSTS lists; a URL it does not list is refused before
 * anything connects to it.
 */
describe('Web UI: import from a URL and refresh, in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let server: Server;
  let specUrl: string;
  let served = openapi('List the items in stock');
  let failing = false;
  let publisher: string;
  let apiId: string;

  const http = () => request(stack.gateway.getHttpServer());
  const apis = '/api-management/apis';
  const signedInPage = async (role: 'reader' | 'publisher'): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const token = await stack.token([ORG], [role]);
    await page.addInitScript(`localStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`);
    return page;
  };
  const focusedId = (page: Page) => page.evaluate<string | undefined>('document.activeElement?.id');

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url !== '/inventory.json') return void res.writeHead(404).end();
      if (failing) return void res.writeHead(500).end('down');
      const etag = etagOf(served);
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': 'application/json', etag }).end(served);
    });
    // Loopback only.
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    specUrl = `http://127.0.0.1:${port}/inventory.json`;
    stack = await startStack({ withoutAi: true, env: { IMPORT_ALLOWED_HOSTS: `127.0.0.1:${port}` } });
    publisher = await stack.token([ORG], ['publisher']);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it('should import an API through the form, then show where it comes from on its page', async () => {
    const sent: Record<string, unknown>[] = [];
    const page = await signedInPage('publisher');
    page.on('request', (sentRequest) => {
      if (sentRequest.method() === 'POST' && sentRequest.url().endsWith(`${apis}/import`)) sent.push(sentRequest.postDataJSON() as Record<string, unknown>);
    });
    await page.goto(`${stack.url}/#/register`);
    await page.locator('#mode-import').click();
    await page.locator('#import-url').waitFor(WAIT);
    expect(await page.locator('#mode-import').getAttribute('aria-current')).toBe('page');
    expect(await focusedId(page)).toBe('import-url');
    await page.locator('#import-url').fill(specUrl);
    await page.locator('#import-team').fill('stock');
    await page.locator('.import-form button[type=submit]').click();
    await page.locator('#register-outcome .success').waitFor(WAIT);
    // Name and version left to the spec.
    expect(sent).toEqual([{ orgId: ORG, url: specUrl, teamName: 'stock', lifecycle: 'production' }]);
    expect(await focusedId(page)).toBe('register-outcome');
    const link = page.locator('#imported-api');
    expect(await link.textContent()).toBe('Inventory v2.3.0');
    apiId = (await link.getAttribute('href'))!.replace('#/apis/', '');
    expect(await page.locator('#register-outcome').textContent()).toContain(specUrl);

    await link.click();
    const source = page.locator('#api-source');
    await source.waitFor(WAIT);
    expect(await source.getAttribute('data-source')).toBe('url');
    expect(await page.locator('#source-url').textContent()).toBe(specUrl);
    // As text: the page never links to it.
    expect(await source.locator('a').count()).toBe(0);
    expect(await page.locator('#source-fetched').textContent()).not.toBe('never');
    expect(await page.locator('#source-error').count()).toBe(0);
    expect(await page.locator('#refresh-source').isVisible()).toBe(true);
    await page.close();
  });

  it('should refresh from the URL: updated to a new revision, then unchanged', async () => {
    const page = await signedInPage('publisher');
    await page.goto(`${stack.url}/#/apis/${apiId}`);
    await page.locator('#refresh-source').waitFor(WAIT);

    served = openapi('List the items in stock, by warehouse');
    await page.locator('#refresh-source').click();
    const updated = page.locator('#source-message [data-outcome="updated"]');
    await updated.waitFor(WAIT);
    expect(await updated.textContent()).toContain('Updated to revision 2 of v2.3.0.');
    expect(await focusedId(page)).toBe('source-message');
    // Drawn again: the header says the new revision, the operations the new summary.
    expect(await page.locator('.detail-header').textContent()).toContain('revision 2');
    await page.getByText('List the items in stock, by warehouse').first().waitFor(WAIT);

    await page.locator('#refresh-source').click();
    await page.locator('#source-message [data-outcome="unchanged"]').waitFor(WAIT);
    expect(await page.locator('#source-message').textContent()).toContain('Unchanged');
    expect(await page.locator('.detail-header').textContent()).toContain('revision 2');
    await page.close();
  });

  it('should show a failed fetch on the page and keep the last good spec, until a good fetch clears it', async () => {
    const page = await signedInPage('publisher');
    await page.goto(`${stack.url}/#/apis/${apiId}`);
    await page.locator('#refresh-source').waitFor(WAIT);

    failing = true;
    await page.locator('#refresh-source').click();
    const failed = page.locator('#source-message [data-outcome="failed"]');
    await failed.waitFor(WAIT);
    expect(await failed.textContent()).toContain('500');
    expect(await page.locator('#source-error').textContent()).toMatch(/^Last fetch failed: .*500/);
    expect(await page.locator('.detail-header').textContent()).toContain('revision 2');
    const spec = await http().get(`${apis}/${apiId}/spec`).set('authorization', `Bearer ${publisher}`).expect(200);
    expect(spec.text).toBe(served);

    // Shown to whoever opens the page later too.
    await page.reload();
    await page.locator('#source-error').waitFor(WAIT);
    expect(await page.locator('#source-message').textContent()).toBe('');

    failing = false;
    await page.locator('#refresh-source').click();
    await page.locator('#source-message [data-outcome="unchanged"]').waitFor(WAIT);
    expect(await page.locator('#source-error').count()).toBe(0);
    await page.close();
  });

  it('should show the source to a reader, without the refresh button', async () => {
    const page = await signedInPage('reader');
    await page.goto(`${stack.url}/#/apis/${apiId}`);
    await page.locator('#api-source').waitFor(WAIT);
    expect(await page.locator('#source-url').textContent()).toBe(specUrl);
    expect(await page.locator('#refresh-source').count()).toBe(0);
    await page.close();
  });

  it('should say inline why a URL is refused, focused, with the URL field marked', async () => {
    const page = await signedInPage('publisher');
    await page.goto(`${stack.url}/#/register?mode=import`);
    await page.locator('#import-url').waitFor(WAIT);
    // Not listed: refused before anything connects (nothing listens there either).
    await page.locator('#import-url').fill('http://127.0.0.1:1/');
    await page.locator('#import-url').press('Enter');
    const error = page.locator('#register-outcome .error-box');
    await error.waitFor(WAIT);
    expect(await error.textContent()).toMatch(/^Import refused: The URL's address is not allowed/);
    expect(await focusedId(page)).toBe('register-outcome');
    expect(await page.locator('#import-url').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#import-url').getAttribute('aria-describedby')).toContain('register-outcome');
    // Fixing it clears the mark.
    await page.locator('#import-url').fill(specUrl);
    expect(await page.locator('#import-url').getAttribute('aria-invalid')).toBeNull();
    await page.close();
  });

  it("should show a folder import's tree, path and catalogue facts as text: nothing in them runs", async () => {
    const spec = openapi('Folder items');
    const item = {
      path: XSS_PATH,
      key: 'entity:api:default/folder',
      name: 'Folder',
      version: '1',
      sha256: createHash('sha256').update(spec).digest('hex'),
      bytes: spec.length,
      catalog: { entityRef: 'api:default/folder', owner: 'group:default/<b>ops</b>', system: 'supply-chain', tags: ['stock', '<i>x</i>'] },
    };
    const applied = await http()
      .post('/api-management/tree-imports/apply')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, tree: 't', items: [item], specs: { [XSS_PATH]: spec } });
    expect({ status: applied.status, entries: applied.body.entries }).toEqual({
      status: 200,
      entries: [expect.objectContaining({ action: 'added', applied: true })],
    });
    const page = await signedInPage('publisher');
    await page.goto(`${stack.url}/#/apis/${applied.body.entries[0].apiId}`);
    const source = page.locator('#api-source');
    await source.waitFor(WAIT);
    expect(await source.getAttribute('data-source')).toBe('folder');
    expect(await page.locator('#source-tree').textContent()).toBe('t');
    expect(await page.locator('#source-path').textContent()).toBe(XSS_PATH);
    // A Backstage entity's catalogue facts, as text too.
    expect(await page.locator('#catalog-entity').textContent()).toBe('api:default/folder');
    expect(await page.locator('#catalog-owner').textContent()).toBe('group:default/<b>ops</b>');
    expect(await page.locator('#catalog-system').textContent()).toBe('supply-chain');
    expect(await page.locator('#catalog-tags').textContent()).toBe('stock, <i>x</i>');
    expect(await page.locator('#api-source b, #api-source i').count()).toBe(0);
    // Not fetched from a URL: nothing to refresh.
    expect(await page.locator('#refresh-source').count()).toBe(0);
    expect(await page.locator('img, script:not([src])').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    await page.close();
  });
});
