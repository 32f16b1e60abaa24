import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import request from 'supertest';
import { startStack, type TestStack, until } from './support/stack.js';

const ORG = 'acme';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TOKEN_KEY = 'api-discovery.token';
/** Long waits on conditions: the machine running these may be busy. */
const WAIT = { timeout: 60_000 };

/**
 * The webhooks admin view (issue #43): add one (its secret shown once), list it, send a test and
 * see what the receiver answered, its deliveries and their tries, delete it.
 */
describe('Web UI webhooks in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let receiver: Server;
  let receiverUrl: string;
  let failingUrl: string;
  /** The `webhook-id` of each request the receiver got. */
  const received: string[] = [];
  let publisher: string;

  const signedInPage = async (role: 'reader' | 'publisher', width = 1200): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const token = await stack.token([ORG], [role], { sub: `${role}-1` });
    await page.addInitScript(`localStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`);
    return page;
  };
  const webhooks = async () =>
    (await request(stack.gateway.getHttpServer()).get(`/api-management/webhooks?orgId=${ORG}`).set('authorization', `Bearer ${publisher}`).expect(200)).body
      .items as { webhookId: string; url: string; events: string[]; disabledAt?: string }[];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.push(String(req.headers['webhook-id']));
      req.resume();
      // `/hooks/failing` is a receiver that is down.
      req.on('end', () => res.writeHead(req.url === '/hooks/failing' ? 500 : 204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    receiverUrl = `http://127.0.0.1:${port}/hooks/api-changes`;
    failingUrl = `http://127.0.0.1:${port}/hooks/failing`;
    // Two quick tries a delivery, and one delivery failed disables a webhook: the disabled state comes in seconds.
    stack = await startStack({
      env: { WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}`, WEBHOOK_MAX_ATTEMPTS: '2', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_FAILURES_TO_DISABLE: '1' },
    });
    publisher = await stack.token([ORG], ['publisher']);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('should add a webhook, show its secret once, send a test, list its deliveries and delete it', async () => {
    const page = await signedInPage('publisher');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${stack.url}/#/search`);
    await page.locator('nav a[href="#/webhooks"]').click(WAIT);
    await page.locator('#webhooks .empty').waitFor(WAIT);
    expect(await page.locator('#webhooks-heading').textContent()).toBe(`Webhooks of ${ORG} (0)`);

    await page.locator('#webhook-url').fill(receiverUrl);
    await page.locator('#webhook-description').fill('Tell the platform team');
    await page.locator('#webhook-events input[value="api.breaking_change"]').check();
    await page.locator('#webhook-events input[value="api.lifecycle.changed"]').check();
    await page.locator('#webhook-teams').fill('checkout, shop');
    await page.locator('#webhook-form button[type=submit]').click();
    await page.locator('#webhook-secret').waitFor(WAIT);
    expect(await page.locator('#webhook-secret').textContent()).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(await page.locator('.webhook-secret-notice').textContent()).toContain('shown this once');
    const item = page.locator('.webhook', { hasText: receiverUrl });
    await item.waitFor(WAIT);
    expect(await item.locator('.webhook-events').textContent()).toBe('api.breaking_change, api.lifecycle.changed');
    expect(await item.locator('.webhook-state').textContent()).toBe('enabled');
    const [stored] = await webhooks();
    expect(stored).toMatchObject({ url: receiverUrl, events: ['api.breaking_change', 'api.lifecycle.changed'], teamNames: ['checkout', 'shop'] });
    expect(await page.locator('#webhooks-heading').textContent()).toBe(`Webhooks of ${ORG} (1)`);

    // A test send: what the receiver answered.
    await item.locator('.webhook-test').click();
    await item.locator('.test-result').waitFor(WAIT);
    expect(await item.locator('.test-result').getAttribute('data-delivered')).toBe('true');
    expect(await item.locator('.test-result').textContent()).toMatch(/^Test delivered: 204 in \d+ ms$/);
    expect(received.length).toBeGreaterThan(0);

    await item.locator('.webhook-show-deliveries').click();
    await item.locator('.webhook-deliveries .delivery, .webhook-deliveries .empty').first().waitFor(WAIT);

    // At 390 px wide, with its secret and deliveries shown, nothing overflows.
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

    // The secret is not shown again.
    await page.reload();
    await item.waitFor(WAIT);
    expect(await page.locator('#webhook-secret').count()).toBe(0);

    await item.locator('.webhook-delete').click();
    await page.locator('#webhooks .empty').waitFor(WAIT);
    await until(webhooks, (items) => items.length === 0);
    await page.close();
  });

  it("should show a webhook disabled after failing, each try's status code, and enable it again", async () => {
    const http = () => request(stack.gateway.getHttpServer());
    await http()
      .post('/api-management/webhooks')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, url: failingUrl, events: ['api.created'] })
      .expect(201);
    await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Orders', version: '1', spec: { openapi: '3.0.3', info: { title: 'Orders', version: '1' }, paths: {} } })
      .expect(201);
    await until(webhooks, (items) => items.some((item) => item.url === failingUrl && item.disabledAt !== undefined));

    const page = await signedInPage('publisher');
    await page.goto(`${stack.url}/#/webhooks`);
    const item = page.locator('.webhook', { hasText: failingUrl });
    await item.waitFor(WAIT);
    expect(await item.getAttribute('class')).toBe('webhook disabled');
    expect(await item.locator('.webhook-state').getAttribute('data-state')).toBe('disabled');
    expect(await item.locator('.webhook-state').textContent()).toMatch(/^disabled /);
    await item.locator('.webhook-show-deliveries').click();
    const delivery = item.locator('.delivery[data-state="failed"]').first();
    await delivery.waitFor(WAIT);
    expect(await delivery.locator('.delivery-type').textContent()).toBe('api.created');
    expect(
      await delivery.locator('.attempt').evaluateAll((tries) => tries.map((one) => (one as unknown as { dataset: { status: string } }).dataset.status)),
    ).toEqual(['500', '500']);
    expect(await delivery.locator('.attempt').first().textContent()).toMatch(/: 500 in \d+ ms/);
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

    await item.locator('.webhook-enable').click();
    await page.locator('.webhook:not(.disabled)', { hasText: failingUrl }).waitFor(WAIT);
    expect(await item.locator('.webhook-state').textContent()).toBe('enabled');
    expect((await webhooks()).find((one) => one.url === failingUrl)?.disabledAt).toBeUndefined();
    await page.close();
  });

  it('should offer the webhooks view to publishers only', async () => {
    const page = await signedInPage('reader');
    await page.goto(`${stack.url}/#/search`);
    await page.locator('nav a[href="#/notifications"]').waitFor(WAIT);
    expect(await page.locator('nav a[href="#/webhooks"]').count()).toBe(0);
    await page.close();
  });
});
