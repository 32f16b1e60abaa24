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

const listPayments = { summary: 'List payments', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }] };
const takePayment = { summary: 'Take a card payment', requestBody: { content: { 'application/json': { schema: payment } } } };
const paymentsV1 = openapi('Payments', '1.0.0', {
  '/payments': { get: listPayments, post: takePayment },
  '/payments/{id}': {
    get: { summary: 'Read a payment', responses: { '200': { description: 'The payment', content: { 'application/json': { schema: payment } } } } },
  },
});
// Reading one payment is gone (breaking); refunds are new.
const refunds = {
  post: {
    summary: 'Refund a card payment',
    requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { paymentId: { type: 'string' } } } } } },
  },
};
const paymentsV2 = openapi('Payments', '2.0.0', { '/payments': { get: listPayments, post: takePayment }, '/refunds': refunds });
// 2.1.0 drops refunds again: breaking for 2.0.0 once it is in production, without a new major version.
const paymentsV21 = openapi('Payments', '2.1.0', { '/payments': { get: listPayments, post: takePayment } });
const ledger = openapi('Ledger', '1', {
  '/ledger/entries': {
    get: { summary: 'List the general ledger entries of an accounting period' },
    post: { summary: 'Post a journal entry to the general ledger' },
  },
});

/** In a version's name and a spec's path (so in lint findings' paths too): flags `window.__xss` if it ever runs. */
const XSS = '<img src=x onerror="window.__xss=1">';
const hostile = (version: string) => openapi('Hostile', version, { [`/x${XSS}`]: { get: { summary: `Read ${XSS}` } } });

/**
 * The web UI's versions and lifecycle (issue #30): the versions list and switching between them,
 * "What changed", lint findings per operation, the lifecycle filters of search and the catalogue,
 * the deprecated banner, and adding a version from the register page.
 */
describe('Web UI versions and lifecycle in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let publisher: string;
  let reader: string;
  let paymentsId: string;
  let ledgerId: string;
  let hostileId: string;
  const http = () => request(stack.gateway.getHttpServer());
  const apis = '/api-management/apis';
  const as = (token: string) => ({
    get: (path: string) => http().get(path).set('authorization', `Bearer ${token}`),
    post: (path: string, body: object) => http().post(path).set('authorization', `Bearer ${token}`).send(body),
    patch: (path: string, body: object) => http().patch(path).set('authorization', `Bearer ${token}`).send(body),
  });
  const indexed = (apiId: string) => waitForNewestRevision(stack, reader, apiId);
  const register = async (body: object) => {
    const created = await as(publisher).post(apis, { orgId: ORG, ...body });
    expect({ status: created.status, body: created.status === 201 ? undefined : created.body }).toEqual({ status: 201, body: undefined });
    await indexed(created.body.apiId);
    return created.body.apiId as string;
  };
  const signedInPage = async (role: 'reader' | 'publisher' = 'reader'): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const token = await stack.token([ORG], [role]);
    await page.addInitScript(`localStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`);
    return page;
  };
  const operations = (page: Page) =>
    page.locator('details.operation').evaluateAll((rows) => rows.map((row) => (row as unknown as { dataset: { operation: string } }).dataset.operation));

  beforeAll(async () => {
    stack = await startStack();
    publisher = await stack.token([ORG], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    paymentsId = await register({ name: 'Payments', version: '1.0.0', teamName: 'checkout', spec: paymentsV1 });
    const added = await as(publisher).post(`${apis}/${paymentsId}/versions`, { version: '2.0.0', spec: paymentsV2, lifecycle: 'preview' });
    expect({ status: added.status, body: added.status === 201 ? undefined : added.body }).toEqual({ status: 201, body: undefined });
    ledgerId = await register({ name: 'Ledger', version: '1', spec: ledger });
    hostileId = await register({ name: 'Hostile', version: '1', spec: hostile('1') });
    await as(publisher)
      .post(`${apis}/${hostileId}/versions`, { version: `2${XSS}`, spec: hostile('2'), lifecycle: 'design' })
      .expect(201);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('should list the versions with their stages, the recommended one marked, and switch the page to another version', async () => {
    const page = await signedInPage();
    await page.goto(`${stack.url}/#/apis/${paymentsId}`);
    await page.locator('#versions .version-item').first().waitFor(WAIT);
    const items = page.locator('#versions .version-item');
    expect(
      await items.evaluateAll((rows) => rows.map((row) => [(row as unknown as Tagged).dataset.version, (row as unknown as Tagged).dataset.lifecycle])),
    ).toEqual([
      ['2.0.0', 'preview'],
      ['1.0.0', 'production'],
    ]);
    expect(await items.nth(0).locator('.lifecycle.lifecycle-preview').textContent()).toBe('preview');
    expect(await items.nth(1).locator('.lifecycle.lifecycle-production').textContent()).toBe('production');
    expect(await items.nth(1).locator('.recommended').count()).toBe(1);
    expect(await items.nth(0).locator('.recommended').count()).toBe(0);
    expect(await page.locator('#viewed-version').textContent()).toBe('v1.0.0');
    // Two counters, each named (#39): the API's (a version added made it 2) and the viewed version's spec.
    const record = (await as(reader).get(`${apis}/${paymentsId}`).expect(200)).body as { revision: number };
    expect(record.revision).toBe(2);
    expect(await page.locator('#api-revision').textContent()).toBe('API revision 2');
    expect(await page.locator('#spec-revision').textContent()).toBe('v1.0.0 spec revision 1');
    expect(await items.locator('.spec-revision').allTextContents()).toEqual(['spec revision 1', 'spec revision 1']);
    await page.locator('details.operation').first().waitFor(WAIT);
    expect(await operations(page)).not.toContain('POST /refunds');
    expect(await page.locator('#deprecated-banner').count()).toBe(0);

    await items.nth(0).locator('a.version-link').click();
    await page.waitForURL(/\?version=2\.0\.0$/, WAIT);
    await page.locator('details[data-operation="POST /refunds"]').waitFor(WAIT);
    expect(await page.locator('#viewed-version').textContent()).toBe('v2.0.0');
    expect(await page.locator('.detail-header h1 .lifecycle').textContent()).toBe('preview');
    expect(await operations(page)).not.toContain('GET /payments/{id}');
    expect(await page.locator('#versions [aria-current="page"]').textContent()).toBe('v2.0.0');
    expect(await page.locator('#api-revision').textContent()).toBe('API revision 2');
    expect(await page.locator('#spec-revision').textContent()).toBe('v2.0.0 spec revision 1');
    // Its operations' details are that version's, from the registry's copy of its spec.
    const refund = page.locator('details[data-operation="POST /refunds"]');
    await refund.locator('summary').click();
    await refund.locator('.request-body pre.schema').waitFor(WAIT);
    expect(await refund.locator('.request-body pre.schema').textContent()).toContain('paymentId');
    expect(await page.locator('#api-status').textContent()).toContain('v1.0.0, the recommended version');
    await page.close();
  });

  it('should show what changed from one version to another, breaking changes first with their counts', async () => {
    const page = await signedInPage();
    await page.goto(`${stack.url}/#/apis/${paymentsId}?version=2.0.0`);
    await page.locator('#compare-versions').click(WAIT);
    await page.waitForURL(/\/changes\?from=1\.0\.0&to=2\.0\.0$/, WAIT);
    await page.locator('#changes-summary').waitFor(WAIT);
    const changes = page.locator('#changes .change');
    expect(await changes.first().getAttribute('data-severity')).toBe('breaking');
    const severities = await changes.evaluateAll((rows) => rows.map((row) => (row as unknown as Tagged).dataset.severity));
    // Grouped by severity, breaking first.
    expect(severities).toEqual(
      [...severities].sort((a, b) => ['breaking', 'non-breaking', 'info'].indexOf(a!) - ['breaking', 'non-breaking', 'info'].indexOf(b!)),
    );
    const breaking = page.locator('.change-group[data-severity="breaking"]');
    expect(await breaking.locator('h2').textContent()).toMatch(/^Breaking changes \(\d+\)$/);
    expect(await breaking.textContent()).toContain('GET /payments/{id}');
    expect(await page.locator('.change-group[data-severity="non-breaking"]').textContent()).toContain('POST /refunds');
    expect(await page.locator('#changes-summary').textContent()).toMatch(/\d+ breaking, \d+ non-breaking, \d+ info/);

    // By default: the recommended version (the oldest here) to the one after it; the selects change it.
    await page.goto(`${stack.url}/#/apis/${paymentsId}/changes`);
    await page.locator('#changes-summary').waitFor(WAIT);
    expect([await page.locator('#changes-from').inputValue(), await page.locator('#changes-to').inputValue()]).toEqual(['1.0.0', '2.0.0']);
    await page.locator('#changes-from').selectOption('2.0.0');
    await page.locator('#changes-to').selectOption('1.0.0');
    await page.waitForURL(/from=2\.0\.0&to=1\.0\.0$/, WAIT);
    await page.locator('#changes-summary').waitFor(WAIT);
    // Backwards, refunds are what is removed.
    expect(await page.locator('.change-group[data-severity="breaking"]').textContent()).toContain('POST /refunds');
    await page.close();
  });

  it("should show each operation's lint findings, the general ones apart, and each version's lint summary", async () => {
    const page = await signedInPage();
    await page.goto(`${stack.url}/#/apis/${paymentsId}`);
    const listing = page.locator('details[data-operation="GET /payments"]');
    await listing.locator('summary .lint-badge').waitFor(WAIT);
    expect(await listing.locator('summary .lint-badge').textContent()).toMatch(/\d+ (error|warning|info|hint)/);
    expect(await page.locator('#lint .section-head .lint-badge').count()).toBe(1);
    // The messages show once the operation is opened.
    expect(await listing.locator('.lint-findings').isVisible()).toBe(false);
    await listing.locator('summary').click();
    await listing.locator('.lint-findings li').first().waitFor(WAIT);
    expect((await listing.locator('.lint-findings .lint-message').first().textContent())!.length).toBeGreaterThan(0);

    const report = (await as(reader).get(`${apis}/${paymentsId}/versions/1.0.0/lint`).expect(200)).body as { findings: { operation?: string }[] };
    const general = report.findings.filter((finding) => !finding.operation).length;
    if (general > 0) expect(await page.locator('#lint-general summary').textContent()).toContain(`General findings (${general})`);

    // Linted now: the versions list says so.
    await page.reload();
    await page.locator('#versions [data-version="1.0.0"] .lint-badge').waitFor(WAIT);
    expect(await page.locator('#versions [data-version="1.0.0"] .lint-badge').getAttribute('aria-label')).toMatch(/^Lint: /);
    await page.close();
  });

  it('should move search to 2.0.0 once it is in production and 1.0.0 deprecated, and filter search and the catalogue by stage', async () => {
    await as(publisher).patch(`${apis}/${paymentsId}/versions/2.0.0`, { lifecycle: 'production' }).expect(200);
    await as(publisher).patch(`${apis}/${paymentsId}/versions/1.0.0`, { lifecycle: 'deprecated', sunsetDate: '2027-06-30' }).expect(200);
    await as(publisher).patch(`${apis}/${ledgerId}/versions/1`, { lifecycle: 'deprecated', sunsetDate: '2027-01-31' }).expect(200);
    await indexed(paymentsId);
    await indexed(ledgerId);

    const page = await signedInPage();
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent('refund a card payment')}`);
    const card = page.locator(`.card[data-api-id="${paymentsId}"]`);
    await card.waitFor(WAIT);
    expect(await card.locator('header .version').textContent()).toBe('v2.0.0');
    // In production: no badge; its other version listed with its stage and sunset date.
    expect(await card.locator('header .lifecycle').count()).toBe(0);
    expect(await card.locator('.card-versions a').allTextContents()).toEqual(['v1.0.0']);
    expect(await card.locator('.card-versions .lifecycle').textContent()).toBe('deprecated');
    expect(await card.locator('.card-versions').textContent()).toContain('sunset 2027-06-30');

    // Only deprecated APIs: the ledger, with its badge and sunset date; not payments.
    await page.locator('input[name=lifecycle][value=deprecated]').check();
    await page.waitForURL(/lifecycle=deprecated/, WAIT);
    await card.waitFor({ state: 'detached', ...WAIT });
    await page.locator('#results-heading, #results .empty').first().waitFor(WAIT);
    expect(await page.locator(`.card[data-api-id="${paymentsId}"]`).count()).toBe(0);
    // Browsing with the filter alone: every deprecated API.
    const ledgerCard = page.locator(`.card[data-api-id="${ledgerId}"]`);
    await page.goto(`${stack.url}/#/search?lifecycle=deprecated`);
    await ledgerCard.waitFor(WAIT);
    expect(await page.locator('input[name=lifecycle][value=deprecated]').isChecked()).toBe(true);
    expect(await page.locator('input[name=lifecycle][value=retired]').count()).toBe(0);
    expect(await ledgerCard.locator('header .lifecycle-deprecated').textContent()).toBe('deprecated');
    expect(await ledgerCard.locator('.deprecated-note').textContent()).toContain('2027-01-31');
    expect(await page.locator(`.card[data-api-id="${paymentsId}"]`).count()).toBe(0);
    await page.goto(`${stack.url}/#/search?lifecycle=production`);
    await card.waitFor(WAIT);
    expect(await page.locator('input[name=lifecycle][value=production]').isChecked()).toBe(true);
    expect(await ledgerCard.count()).toBe(0);

    // The catalogue: the same filter, repeated in its URL as its API takes it.
    await page.goto(`${stack.url}/#/catalogue`);
    await page.locator(`table.catalogue tr[data-api-id="${paymentsId}"]`).waitFor(WAIT);
    expect(await page.locator(`table.catalogue tr[data-api-id="${paymentsId}"] .other-versions`).textContent()).toContain('v1.0.0 (deprecated)');
    const rows = () => page.locator('table.catalogue tbody tr').evaluateAll((found) => found.map((row) => (row as unknown as Tagged).dataset.apiId));
    await page.locator('.catalogue-filters input[name=lifecycle][value=deprecated]').check();
    await page.waitForURL(/#\/catalogue\?lifecycle=deprecated$/, WAIT);
    await until(rows, (ids) => ids.length === 1, 60_000);
    expect(await rows()).toEqual([ledgerId]);
    const ledgerRow = page.locator(`table.catalogue tr[data-api-id="${ledgerId}"]`);
    expect(await ledgerRow.locator('.lifecycle-deprecated').textContent()).toBe('deprecated');
    expect(await ledgerRow.locator('.deprecated-note').textContent()).toBe('sunset 2027-01-31');
    await page.locator('.catalogue-filters input[name=lifecycle][value=production]').check();
    await page.waitForURL(/lifecycle=production&lifecycle=deprecated$/, WAIT);
    await until(rows, (ids) => ids.includes(paymentsId) && ids.includes(ledgerId), 60_000);
    expect(
      await page
        .locator('.catalogue-filters input[name=lifecycle]:checked')
        .evaluateAll((boxes) => boxes.map((box) => (box as unknown as { value: string }).value)),
    ).toEqual(['production', 'deprecated']);
    await page.close();
  });

  it("should show a deprecated version's banner with its sunset date and the version to move to", async () => {
    const page = await signedInPage();
    await page.goto(`${stack.url}/#/apis/${paymentsId}?version=1.0.0`);
    const banner = page.locator('#deprecated-banner');
    await banner.waitFor(WAIT);
    expect(await banner.textContent()).toBe('Deprecated. Version v1.0.0 is deprecated and goes on 2027-06-30. Move to v2.0.0.');
    expect(await page.locator('#versions [data-version="1.0.0"] .deprecation').textContent()).toBe('sunset 2027-06-30; move to v2.0.0');
    expect(await page.locator('#versions [data-version="2.0.0"] .recommended').count()).toBe(1);
    await banner.locator('a').click();
    await page.waitForURL(new RegExp(`#/apis/${paymentsId}$`), WAIT);
    await page.locator('#viewed-version', { hasText: 'v2.0.0' }).waitFor(WAIT);
    expect(await page.locator('#deprecated-banner').count()).toBe(0);
    await page.close();
  });

  it('should add a version from the detail page and show the breaking changes it warns of', async () => {
    const page = await signedInPage('publisher');
    await page.goto(`${stack.url}/#/apis/${paymentsId}`);
    await page.locator('#new-version').click(WAIT);
    await page.locator('h1', { hasText: 'New version of Payments' }).waitFor(WAIT);
    expect(await page.locator('#api-name').count()).toBe(0);
    expect(await page.locator('#api-lifecycle').inputValue()).toBe('production');
    await page.locator('#api-version').fill('2.1.0');
    await page.locator('#api-lifecycle').selectOption('preview');
    await page.locator('#api-spec').fill(JSON.stringify(paymentsV21, null, 2));
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#register-warnings').waitFor(WAIT);
    expect(await page.locator('#register-warnings').textContent()).toContain(
      'breaking change to version "2.0.0", in production, without a new major version: POST /refunds',
    );
    expect(await page.locator('#register-outcome').textContent()).toContain('Added Payments v2.1.0 (preview)');
    expect(await page.locator('#register-changes').textContent()).toMatch(/1 breaking/);
    const versions = (await as(reader).get(`${apis}/${paymentsId}/versions`).expect(200)).body.items as { version: string; lifecycle: string }[];
    expect(versions.find((item) => item.version === '2.1.0')).toMatchObject({ lifecycle: 'preview' });

    // Its stage is changed on its page: deprecated, with a sunset date.
    await page.goto(`${stack.url}/#/apis/${paymentsId}?version=2.1.0`);
    await page.locator('#stage-lifecycle').waitFor(WAIT);
    expect(await page.locator('#stage-sunset').isDisabled()).toBe(true);
    await page.locator('#stage-lifecycle').selectOption('deprecated');
    await page.locator('#stage-sunset').fill('2027-09-30');
    await page.locator('#stage-form button[type=submit]').click();
    await page.locator('#deprecated-banner').waitFor(WAIT);
    expect(await page.locator('#deprecated-banner').textContent()).toContain('goes on 2027-09-30');
    expect(
      (await as(reader).get(`${apis}/${paymentsId}/versions`).expect(200)).body.items.find((item: { version: string }) => item.version === '2.1.0'),
    ).toMatchObject({ lifecycle: 'deprecated', sunsetDate: '2027-09-30' });

    // Retired in one step (#39): its sunset date goes with deprecation, and the form says so before saving.
    expect(await page.locator('#stage-sunset-cleared').isVisible()).toBe(false);
    await page.locator('#stage-lifecycle').selectOption('retired');
    expect(await page.locator('#stage-sunset-cleared').textContent()).toBe('Only a deprecated version has a sunset date: saving clears 2027-09-30.');
    await page.locator('#stage-form button[type=submit]').click();
    await page.locator('#deprecated-banner.banner-retired').waitFor(WAIT);
    expect(await page.locator('#deprecated-banner').textContent()).toBe('Retired. Version v2.1.0 is retired: search and agents no longer offer it.');
    expect(await page.locator('#stage-form .error-box').count()).toBe(0);
    const retired = (await as(reader).get(`${apis}/${paymentsId}/versions`).expect(200)).body.items.find(
      (item: { version: string }) => item.version === '2.1.0',
    );
    expect(retired).toMatchObject({ lifecycle: 'retired' });
    expect(retired.sunsetDate).toBeUndefined();

    // And a new API's stage is chosen on the register form.
    await page.goto(`${stack.url}/#/register`);
    await page.locator('#api-lifecycle').waitFor(WAIT);
    expect(await page.locator('#api-lifecycle').inputValue()).toBe('production');
    await page.locator('#api-name').fill('Ledger beta');
    await page.locator('#api-version').fill('0.1');
    await page.locator('#api-lifecycle').selectOption('testing');
    await page.locator('#api-spec').fill(JSON.stringify(openapi('Ledger beta', '0.1', { '/beta/entries': { get: { summary: 'List entries' } } })));
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#registered-status [data-status]').waitFor(WAIT);
    const betaId = (await page.locator('#register-outcome a').first().getAttribute('href'))!.replace('#/apis/', '');
    expect((await as(reader).get(`${apis}/${betaId}`).expect(200)).body.lifecycle).toBe('testing');
    await page.close();
  });

  it('should show version names and lint findings as text: no script from them runs', async () => {
    const page = await signedInPage();
    await page.goto(`${stack.url}/#/apis/${hostileId}`);
    const hostileItem = page.locator('#versions .version-item', { hasText: `v2${XSS}` });
    await hostileItem.waitFor(WAIT);
    expect(await hostileItem.locator('a.version-link').textContent()).toBe(`v2${XSS}`);
    await hostileItem.locator('a.version-link').click();
    await page.locator('#viewed-version', { hasText: `v2${XSS}` }).waitFor(WAIT);
    const row = page.locator('details.operation').first();
    await row.waitFor(WAIT);
    expect(await row.getAttribute('data-operation')).toBe(`GET /x${XSS}`);
    // Lint findings come (their paths hold the spec's path), each shown as text.
    await page.locator('#lint .section-head .lint-badge').waitFor(WAIT);
    expect(await page.locator('#lint').textContent()).toContain(`of v2${XSS}`);
    await row.locator('summary').click();
    await row.locator('.operation-detail h4, .operation-detail .error-box').first().waitFor(WAIT);
    if (await row.locator('.lint-findings').count()) expect(await row.locator('.lint-findings').textContent()).toContain(XSS);
    await page.locator('#compare-versions').click();
    await page.locator('#changes-summary').waitFor(WAIT);
    expect(await page.locator('#changes-summary').textContent()).toContain(`v2${XSS}`);

    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('img, script:not([src])').count()).toBe(0);
    await page.close();
  });
});
