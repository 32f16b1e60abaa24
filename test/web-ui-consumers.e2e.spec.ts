import { type Browser, chromium, type Page } from 'playwright-core';
import request from 'supertest';
import { openapi, payment } from './support/payments-specs.js';
import { startStack, type TestStack, until, waitForNewestRevision } from './support/stack.js';

const ORG = 'acme';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TOKEN_KEY = 'api-discovery.token';
/** Long waits on conditions: the machine running these may be busy. */
const WAIT = { timeout: 60_000 };

/** An element's data attributes, as read in the page (these tests are compiled without the DOM's types). */
type Tagged = { dataset: Record<string, string | undefined> };

const listPayments = { summary: 'List payments' };
const takePayment = { summary: 'Take a card payment', requestBody: { content: { 'application/json': { schema: payment } } } };
const readPayment = { summary: 'Read a payment' };
const paymentsV1 = openapi('Payments', '1.0.0', { '/payments': { get: listPayments, post: takePayment }, '/payments/{id}': { get: readPayment } });
// Revision 2 of 1.0.0 drops reading one payment: breaking for whoever named it.
const paymentsV1r2 = openapi('Payments', '1.0.0', { '/payments': { get: listPayments, post: takePayment } });
const paymentsV2 = openapi('Payments', '2.0.0', {
  '/payments': { get: listPayments, post: takePayment },
  '/payments/{id}': { get: readPayment },
  '/refunds': { post: { summary: 'Refund a payment' } },
});
const ledger = openapi('Ledger', '1', { '/ledger/entries': { get: { summary: 'List the ledger entries' } } });

/**
 * The web UI of consumers, impact and notifications (issue #43): the API page's consumers and
 * Watch, the affected consumers in "What changed", who the stage form tells and its confirmation
 * before retiring a used version, the Dependencies page and the notifications feed.
 */
describe('Web UI consumers and notifications in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let publisher: string;
  let reader: string;
  let paymentsId: string;
  let ledgerId: string;
  const http = () => request(stack.gateway.getHttpServer());
  const apis = '/api-management/apis';
  const as = (token: string) => ({
    get: (path: string) => http().get(path).set('authorization', `Bearer ${token}`),
    post: (path: string, body: object) => http().post(path).set('authorization', `Bearer ${token}`).send(body),
    put: (path: string, body: object) => http().put(path).set('authorization', `Bearer ${token}`).send(body),
  });
  const register = async (body: object) => {
    const created = await as(publisher).post(apis, { orgId: ORG, ...body });
    expect({ status: created.status, body: created.status === 201 ? undefined : created.body }).toEqual({ status: 201, body: undefined });
    await waitForNewestRevision(stack, reader, created.body.apiId);
    return created.body.apiId as string;
  };
  const declare = async (token: string, apiId: string, body: object) => {
    const added = await as(token).post(`${apis}/${apiId}/consumers`, body);
    expect({ status: added.status, body: added.status === 201 ? undefined : added.body }).toEqual({ status: 201, body: undefined });
    return added.body as { consumerId: string };
  };
  const signedInPage = async (role: 'reader' | 'publisher', sub: string, width = 1200): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const token = await stack.token([ORG], [role], { sub });
    await page.addInitScript(`localStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`);
    return page;
  };
  const noHorizontalOverflow = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

  beforeAll(async () => {
    stack = await startStack();
    publisher = await stack.token([ORG], ['publisher'], { sub: 'pat' });
    reader = await stack.token([ORG], ['reader'], { sub: 'rita' });
    paymentsId = await register({ name: 'Payments', version: '1.0.0', teamName: 'checkout', spec: paymentsV1 });
    const added = await as(publisher).post(`${apis}/${paymentsId}/versions`, { version: '2.0.0', spec: paymentsV2, lifecycle: 'preview' });
    expect({ status: added.status, body: added.status === 201 ? undefined : added.body }).toEqual({ status: 201, body: undefined });
    ledgerId = await register({ name: 'Ledger', version: '1', spec: ledger });
    // Of 1.0.0 (the recommended one): one names the operation revision 2 drops, one names none, one another operation.
    await declare(reader, paymentsId, { name: 'refund-bot', teamName: 'refunds', operations: [{ method: 'GET', path: '/payments/{id}' }] });
    await declare(reader, paymentsId, { name: 'reporting', teamName: 'finance', contact: 'finance@example.com' });
    await declare(reader, paymentsId, { name: 'ledger-sync', operations: [{ method: 'GET', path: '/payments' }] });
    // Of 2.0.0, named.
    await declare(reader, paymentsId, { name: 'shop-web', teamName: 'shop', version: '2.0.0', operations: [{ method: 'POST', path: '/refunds' }] });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("should add the caller's service from the API page with the operations it calls, list it, and watch the API", async () => {
    const page = await signedInPage('reader', 'dana');
    await page.goto(`${stack.url}/#/apis/${paymentsId}`);
    await page.locator('#consumers .consumer-item').first().waitFor(WAIT);
    expect(await page.locator('#consumers-heading').textContent()).toBe('Consumers (4)');
    // Another's declaration: a reader may not remove it, so no button is offered.
    expect(await page.locator('#consumers .consumer-delete').count()).toBe(0);
    const reporting = page.locator('#consumers .consumer-item', { hasText: 'reporting' });
    expect(await reporting.locator('.consumer-label').textContent()).toBe('reporting (team finance, finance@example.com)');
    expect(await reporting.locator('.consumer-operations').textContent()).toBe('any operation');
    expect(await reporting.locator('.consumer-version').textContent()).toBe('recommended (v1.0.0)');
    expect(await reporting.locator('.source-badge').textContent()).toBe('declared');
    expect(await page.locator('#consumers .consumer-item', { hasText: 'shop-web' }).locator('.consumer-version').textContent()).toBe('v2.0.0');

    await page.locator('#add-consumer > summary').click();
    await page.locator('#consumer-name').fill('billing-service');
    await page.locator('#consumer-team').fill('billing');
    await page.locator('#consumer-contact').fill('#billing-oncall');
    expect(await page.locator('#consumer-version').inputValue()).toBe('');
    const choice = page.locator('#consumer-operations input[value="POST /payments"]');
    await choice.waitFor(WAIT);
    expect(
      await page.locator('#consumer-operations input[name=operation]').evaluateAll((boxes) => boxes.map((box) => (box as unknown as { value: string }).value)),
    ).toEqual(['GET /payments', 'POST /payments', 'GET /payments/{id}']);
    await choice.check();
    await page.locator('#consumer-form button[type=submit]').click();
    const billing = page.locator('#consumers .consumer-item', { hasText: 'billing-service' });
    await billing.waitFor(WAIT);
    expect(await page.locator('#consumer-added').textContent()).toBe('Added billing-service: you hear of changes that break it.');
    expect(await page.locator('#consumers-heading').textContent()).toBe('Consumers (5)');
    expect(await billing.locator('.consumer-label').textContent()).toBe('billing-service (team billing, #billing-oncall)');
    expect(await billing.locator('.consumer-operations').textContent()).toBe('POST /payments');
    // Its own declaration: its declarer may remove it.
    expect(await billing.locator('.consumer-delete').count()).toBe(1);
    const listed = (await as(reader).get(`${apis}/${paymentsId}/consumers`).expect(200)).body.items as {
      name: string;
      version?: string;
      operations: object[];
      declaredBy?: string;
    }[];
    expect(listed.find((item) => item.name === 'billing-service')).toMatchObject({ operations: [{ method: 'POST', path: '/payments' }], declaredBy: 'dana' });
    expect(listed.find((item) => item.name === 'billing-service')?.version).toBeUndefined();

    // Picking another version lists that version's operations.
    await page.locator('#consumer-version').selectOption('2.0.0');
    await page.locator('#consumer-operations input[value="POST /refunds"]').waitFor(WAIT);

    // Watch: pressed, and the server knows.
    const watch = page.locator('#watch-toggle');
    await page.locator('#watch-toggle:not([disabled])').waitFor(WAIT);
    expect(await watch.getAttribute('aria-pressed')).toBe('false');
    await watch.click();
    await page.locator('#watch-toggle[aria-pressed=true]').waitFor(WAIT);
    expect(await watch.textContent()).toBe('Watching');
    const dana = await stack.token([ORG], ['reader'], { sub: 'dana' });
    expect((await as(dana).get(`${apis}/${paymentsId}/watch`).expect(200)).body).toEqual({ apiId: paymentsId, watching: true });
    await page.reload();
    await page.locator('#watch-toggle[aria-pressed=true]').waitFor(WAIT);
    await watch.click();
    await page.locator('#watch-toggle[aria-pressed=false]:not([disabled])').waitFor(WAIT);
    expect((await as(dana).get(`${apis}/${paymentsId}/watch`).expect(200)).body).toEqual({ apiId: paymentsId, watching: false });

    // A phone: the consumers and the form open fit the screen.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.locator('#add-consumer > summary').click();
    await page.locator('#consumer-operations input[name=operation]').first().waitFor(WAIT);
    expect(await noHorizontalOverflow(page)).toBe(true);
    await page.close();
  });

  it('should remove a consumer its declarer added', async () => {
    const page = await signedInPage('reader', 'dana');
    page.on('dialog', (dialog) => void dialog.accept());
    await declare(await stack.token([ORG], ['reader'], { sub: 'dana' }), ledgerId, { name: 'dana-tool' });
    await page.goto(`${stack.url}/#/apis/${ledgerId}`);
    const item = page.locator('#consumers .consumer-item', { hasText: 'dana-tool' });
    await item.waitFor(WAIT);
    await item.locator('.consumer-delete').click();
    await item.waitFor({ state: 'detached', ...WAIT });
    expect(await page.locator('#consumers .consumer-message').textContent()).toBe('Removed dana-tool.');
    expect(await page.locator('#consumers .empty').count()).toBe(1);
    await page.close();
  });

  it('should show under each breaking change the consumers that named its operation, and who may be affected', async () => {
    const revised = await as(publisher).put(`${apis}/${paymentsId}/versions/1.0.0`, { spec: paymentsV1r2 });
    expect({ status: revised.status, body: revised.status === 200 ? undefined : revised.body }).toEqual({ status: 200, body: undefined });
    const page = await signedInPage('reader', 'rita');
    await page.goto(`${stack.url}/#/apis/${paymentsId}/changes?from=1.0.0@1&to=1.0.0@2`);
    await page.locator('#impact-summary').waitFor(WAIT);
    // billing-service (from the first test) and ledger-sync named operations that did not change.
    expect(await page.locator('#impact-summary .impact-counts').textContent()).toBe('Consumers of v1.0.0: 1 affected, 1 may be affected, 2 unaffected.');
    const dropped = page.locator('.change[data-severity="breaking"]', { hasText: 'GET /payments/{id}' }).first();
    expect(await dropped.locator('.change-impact .consumer-names.affected .consumer-name').allTextContents()).toEqual(['refund-bot']);
    expect(await dropped.locator('.may-be-affected-note').textContent()).toBe('1 consumer named no operations and may be affected.');
    await page.locator('#impact-summary .impact-may-list > summary').click();
    expect(await page.locator('#impact-summary .may-be-affected .consumer-name').allTextContents()).toEqual(['reporting']);
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await noHorizontalOverflow(page)).toBe(true);
    await page.close();
  });

  it('should say who is told when deprecating, show them after, and ask before retiring a version consumers use', async () => {
    const page = await signedInPage('publisher', 'pat');
    await page.goto(`${stack.url}/#/apis/${paymentsId}?version=2.0.0`);
    await page.locator('#stage-lifecycle').waitFor(WAIT);
    expect(await page.locator('#stage-told').isVisible()).toBe(false);
    await page.locator('#stage-lifecycle').selectOption('deprecated');
    await page.locator('#stage-told .consumer-name').first().waitFor(WAIT);
    expect(await page.locator('#stage-told').textContent()).toContain('Saving tells 1 consumer of v2.0.0:');
    expect(await page.locator('#stage-told .consumer-name').allTextContents()).toEqual(['shop-web']);
    await page.locator('#stage-sunset').fill('2027-06-30');
    await page.locator('#stage-form button[type=submit]').click();
    await page.locator('#consumers-told').waitFor(WAIT);
    expect(await page.locator('#consumers-told .consumer-name').allTextContents()).toEqual(['shop-web']);
    expect(await page.locator('#deprecated-banner').textContent()).toContain('goes on 2027-06-30');

    // Retiring: refused first (409 naming shop-web), then done once confirmed.
    await page.locator('#stage-lifecycle').selectOption('retired');
    // Who is told is read from the consumers the page fetches: shown once that answers.
    await page.locator('#stage-told .consumer-name').first().waitFor(WAIT);
    expect(await page.locator('#stage-told .consumer-name').allTextContents()).toEqual(['shop-web']);
    await page.locator('#stage-form button[type=submit]').click();
    await page.locator('.force-confirm').waitFor(WAIT);
    expect(await page.locator('.force-confirm .force-detail').textContent()).toContain('shop-web');
    let stage = (await as(reader).get(`${apis}/${paymentsId}/versions`).expect(200)).body.items.find((item: { version: string }) => item.version === '2.0.0');
    expect(stage.lifecycle).toBe('deprecated');
    // Cancelled: nothing changes; pressed again, confirmed.
    await page.locator('#force-cancel').click();
    expect(await page.locator('.force-confirm').count()).toBe(0);
    await page.locator('#stage-form button[type=submit]').click();
    await page.locator('#force-confirm').click(WAIT);
    await page.locator('#deprecated-banner.banner-retired').waitFor(WAIT);
    stage = (await as(reader).get(`${apis}/${paymentsId}/versions`).expect(200)).body.items.find((item: { version: string }) => item.version === '2.0.0');
    expect(stage.lifecycle).toBe('retired');
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await noHorizontalOverflow(page)).toBe(true);
    await page.close();
  });

  it('should list each consumer with the versions it uses and their stages, and only the deprecated or retired ones when asked', async () => {
    const page = await signedInPage('reader', 'rita');
    await page.goto(`${stack.url}/#/apis/${ledgerId}`);
    await page.locator('nav a[href="#/dependencies"]').click(WAIT);
    await page.waitForURL(/#\/dependencies$/, WAIT);
    const shop = page.locator('.dependency[data-consumer="shop-web"]');
    await shop.waitFor(WAIT);
    const consumers = () => page.locator('.dependency').evaluateAll((items) => items.map((item) => (item as unknown as Tagged).dataset.consumer).sort());
    expect(await consumers()).toEqual(['billing-service', 'ledger-sync', 'refund-bot', 'reporting', 'shop-web']);
    const use = shop.locator(`.use[data-api-id="${paymentsId}"]`);
    expect(await use.getAttribute('data-lifecycle')).toBe('retired');
    expect(await use.getAttribute('class')).toContain('use-ending');
    expect(await use.locator('.use-api').textContent()).toBe('Payments');
    expect(await use.locator('.version').textContent()).toBe('v2.0.0');
    expect(await shop.locator('.dependency-who').textContent()).toBe('Team shop');
    const reporting = page.locator('.dependency[data-consumer="reporting"] .use');
    expect(await reporting.locator('.recommended').textContent()).toBe('follows recommended');
    expect(await reporting.getAttribute('data-lifecycle')).toBe('production');
    expect(await reporting.locator('.use-operations').textContent()).toBe('any operation');

    await page.locator('#dependencies-ending').check();
    await page.waitForURL(/#\/dependencies\?ending=1$/, WAIT);
    await until(consumers, (names) => names.length === 1, 60_000);
    expect(await consumers()).toEqual(['shop-web']);
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await noHorizontalOverflow(page)).toBe(true);
    await page.close();
  });

  it('should show the events of a watched API in the notifications, older ones page by page', async () => {
    const page = await signedInPage('reader', 'wanda');
    await page.goto(`${stack.url}/#/apis/${ledgerId}`);
    await page.locator('#watch-toggle:not([disabled])').click(WAIT);
    await page.locator('#watch-toggle[aria-pressed=true]').waitFor(WAIT);
    // More events than a page holds: a consumer added is one.
    for (let n = 1; n <= 31; n++) await declare(publisher, ledgerId, { name: `svc-${String(n).padStart(2, '0')}` });
    const wanda = await stack.token([ORG], ['reader'], { sub: 'wanda' });
    await until(
      async () => (await as(wanda).get(`/api-management/notifications?orgId=${ORG}`).expect(200)).body as { items: unknown[]; nextBefore?: string },
      (feed) => feed.items.length > 0 && feed.nextBefore !== undefined,
    );

    await page.locator('nav a[href="#/notifications"]').click();
    const items = page.locator('#notifications .notification');
    await items.first().waitFor(WAIT);
    const first = items.first();
    expect(await first.getAttribute('data-type')).toBe('api.consumer.added');
    expect(await first.locator('.event-type').textContent()).toBe('Consumer added');
    expect(await first.locator('.event-api').textContent()).toBe('Ledger');
    expect(await first.locator('.event-summary').textContent()).toBe('svc-31 uses the recommended version (declared).');
    expect(await first.locator('.reason').allTextContents()).toEqual(['you watch it']);
    const firstPage = await items.count();
    expect(firstPage).toBe(30);
    await page.locator('#notifications-older').click();
    await until(
      () => items.count(),
      (count) => count > firstPage,
    );
    expect(await items.locator('.event-summary', { hasText: 'svc-01 uses' }).count()).toBe(1);
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await noHorizontalOverflow(page)).toBe(true);
    await page.close();

    // Dana declared billing-service on Payments: its events come to her as a consumer's.
    const consumer = await signedInPage('reader', 'dana');
    await consumer.goto(`${stack.url}/#/notifications`);
    const latest = consumer.locator('#notifications .notification').first();
    await latest.waitFor(WAIT);
    expect(await latest.locator('.event-api').textContent()).toBe('Payments');
    expect(await latest.locator('.reason').allTextContents()).toEqual(['you use it']);
    await consumer.close();
  });
  it('should name the consumers a new spec breaks when it is registered from the update form', async () => {
    const page = await signedInPage('publisher', 'pat');
    await page.goto(`${stack.url}/#/register?apiId=${paymentsId}`);
    await page.locator('#api-spec').waitFor(WAIT);
    // Listing payments goes: ledger-sync named it; reporting named nothing.
    await page.locator('#api-spec').fill(JSON.stringify(openapi('Payments', '1.0.0', { '/payments': { post: takePayment } }), null, 2));
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#register-impact').waitFor(WAIT);
    expect(await page.locator('#register-impact .affected .consumer-name').allTextContents()).toEqual(['ledger-sync']);
    expect(await page.locator('#register-impact .may-be-affected .consumer-name').allTextContents()).toEqual(['reporting']);
    await page.close();
  });

  it('should ask before retiring a used version from the update form, and retire it once confirmed', async () => {
    const shippingId = await register({ name: 'Shipping', version: '1', spec: openapi('Shipping', '1', { '/parcels': { get: listPayments } }) });
    const shipping2 = openapi('Shipping', '2', { '/parcels': { get: listPayments, post: takePayment } });
    await as(publisher).post(`${apis}/${shippingId}/versions`, { version: '2', spec: shipping2, lifecycle: 'preview' }).expect(201);
    await declare(reader, shippingId, { name: 'ship-bot', version: '2' });
    const page = await signedInPage('publisher', 'pat');
    await page.goto(`${stack.url}/#/register?apiId=${shippingId}&version=2`);
    await page.locator('#api-lifecycle').waitFor(WAIT);
    await page.locator('#api-spec').fill(JSON.stringify(shipping2, null, 2));
    await page.locator('#api-lifecycle').selectOption('retired');
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#register-outcome .force-confirm').waitFor(WAIT);
    expect(await page.locator('#register-outcome .force-detail').textContent()).toContain('ship-bot');
    await page.locator('#force-confirm').click();
    await page.locator('#register-outcome .success').waitFor(WAIT);
    expect(await page.locator('#register-outcome .success').textContent()).toContain('Updated Shipping');
    const versions = (await as(reader).get(`${apis}/${shippingId}/versions`).expect(200)).body.items as { version: string; lifecycle: string }[];
    expect(versions.find((item) => item.version === '2')?.lifecycle).toBe('retired');
    await page.close();
  });

  it('should ask before deleting a version consumers use, and delete it once confirmed', async () => {
    const page = await signedInPage('publisher', 'pat');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${stack.url}/#/apis/${paymentsId}?version=2.0.0`);
    await page.locator('#delete-version').click(WAIT);
    await page.locator('.force-confirm').waitFor(WAIT);
    expect(await page.locator('.force-confirm .force-detail').textContent()).toContain('shop-web');
    expect((await as(reader).get(`${apis}/${paymentsId}/versions`).expect(200)).body.items.map((item: { version: string }) => item.version)).toEqual([
      '2.0.0',
      '1.0.0',
    ]);
    await page.locator('#force-confirm').click();
    await page.waitForURL(new RegExp(`#/apis/${paymentsId}$`), WAIT);
    const listed = () => page.locator('#versions .version-item').evaluateAll((items) => items.map((item) => (item as unknown as Tagged).dataset.version));
    await until(listed, (versions) => versions.length === 1, 60_000);
    expect(await listed()).toEqual(['1.0.0']);

    // An API's only version cannot go, with force or without: said as an error, no question asked.
    const solo = await as(publisher).post(apis, { orgId: ORG, name: 'Solo', version: '1', spec: openapi('Solo', '1', { '/solo': { get: listPayments } }) });
    expect(solo.status).toBe(201);
    await page.goto(`${stack.url}/#/apis/${solo.body.apiId}`);
    await page.locator('#stage-form #delete-version').click(WAIT);
    await page.locator('#stage-form .error-box').waitFor(WAIT);
    expect(await page.locator('#stage-form .error-box').textContent()).toContain('is the only version');
    expect(await page.locator('.force-confirm').count()).toBe(0);
    await page.close();
  });
  it('should ask before deleting an API consumers use, and delete it once confirmed', async () => {
    const page = await signedInPage('publisher', 'pat');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${stack.url}/#/apis/${ledgerId}`);
    await page.locator('#consumers .consumer-item').first().waitFor(WAIT);
    await page.locator('.detail-header button.danger', { hasText: 'Delete' }).click();
    await page.locator('.force-confirm').waitFor(WAIT);
    expect(await page.locator('.force-confirm .force-detail').textContent()).toContain('svc-');
    await as(reader).get(`${apis}/${ledgerId}`).expect(200);
    await page.locator('#force-confirm').click();
    await page.waitForURL(/#\/catalogue$/, WAIT);
    await until(
      async () => (await as(reader).get(`${apis}/${ledgerId}`)).status,
      (status) => status === 404,
    );
    await page.close();
  });
});
