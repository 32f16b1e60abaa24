import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page, type Response as PageResponse } from 'playwright-core';
import request from 'supertest';
import { readFixture } from './fixtures/fixtures.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** `SAVE_SCREENSHOTS=1 npm test -- web-ui` refreshes the README's screenshots in docs/. */
const SCREENSHOTS = process.env.SAVE_SCREENSHOTS ? join(process.cwd(), 'docs/screenshots') : undefined;

const weatherSpec = {
  openapi: '3.0.3',
  info: { title: 'Weather', version: '2.0.0', description: 'Forecasts and current conditions for any city.' },
  paths: {
    '/forecast/{city}': {
      get: {
        tags: ['forecast'],
        summary: 'Get the seven-day forecast of a city',
        parameters: [{ name: 'city', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'ok' } },
      },
    },
    '/alerts': { delete: { tags: ['alerts'], summary: 'Dismiss all weather alerts', responses: { 204: { description: 'gone' } } } },
  },
};

/** A GraphQL schema (SDL) and an AsyncAPI document: cards of other kinds beside the OpenAPI ones. */
const reviewSdl = [
  'type Query {',
  '  "Look up a pull request"',
  '  pullRequest(id: ID!): PullRequest',
  '}',
  'type Mutation {',
  '  "Close a pull request without merging it"',
  '  closePullRequest(id: ID!): PullRequest',
  '}',
  'type PullRequest { id: ID! title: String }',
].join('\n');
const signupEvents = readFileSync(join(process.cwd(), 'demo/asyncapi/account-service-2.6.yml'), 'utf8');

/** Every field a spec author controls, carrying a script that flags `window.__xss` if it ever runs. */
const XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>';
const hostileSpec = {
  openapi: '3.0.3',
  info: { title: `Evil ${XSS}`, version: '1.0.0', description: `Sends parcels ${XSS} <svg onload="window.__xss=1">` },
  tags: [{ name: `t${XSS}`, description: XSS }],
  paths: {
    [`/parcels/<svg onload="window.__xss=1">`]: {
      post: {
        tags: [`t${XSS}`],
        summary: `Send a parcel ${XSS}`,
        description: `<a href="javascript:window.__xss=1">click</a>`,
        operationId: `x${XSS}`,
        responses: { 200: { description: XSS } },
      },
    },
  },
};

describe('Web UI in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let page: Page;
  let publisher: string;
  let petstoreId: string;
  let reviewId: string;
  let paymentsId: string;
  let refundsId: string;
  const dialogs: string[] = [];

  const register = async (body: object) => {
    const created = await request(stack.gateway.getHttpServer()).post('/api-management/apis').set('authorization', `Bearer ${publisher}`).send(body);
    expect(created.status).toBe(201);
    await waitForStatus(stack, publisher, created.body.apiId);
    return created.body.apiId as string;
  };
  const shot = async (name: string) => {
    if (!SCREENSHOTS) return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    // hash: each search shares its words with the card it must show; ranking by meaning is platform's.
    // The README's screenshots show the product as it ships: with its own model.
    stack = await startStack({ env: { AUTH_DEV_LOGIN: 'true', ...(SCREENSHOTS ? { EMBEDDINGS_PROVIDER: 'local' } : {}) } });
    publisher = await stack.token([ORG], ['publisher']);
    petstoreId = await register({ orgId: ORG, name: 'Petstore', version: '1.0.7', teamName: 'pets', spec: readFixture('petstore-swagger2.yaml') });
    await register({ orgId: ORG, name: 'Weather', version: '2.0.0', teamName: 'climate', spec: weatherSpec });
    reviewId = await register({ orgId: ORG, name: 'Code review', version: '4', teamName: 'review', spec: reviewSdl, format: 'graphql' });
    await register({ orgId: ORG, name: 'Account events', version: '1.0.0', teamName: 'accounts', spec: signupEvents });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("should sign in with a development token and offer the token's orgs", async () => {
    await page.goto(stack.url);
    await page.locator('#dev-orgs').fill(`${ORG}, sandbox`);
    await page.locator('#dev-sign-in').click();
    await page.locator('#search-input').waitFor();
    expect(await page.locator('#org-switcher option').allTextContents()).toEqual([ORG, 'sandbox']);
  });

  it('should sign in with a pasted token and refuse a bad one with the reason', async () => {
    const other = await browser.newPage();
    await other.goto(stack.url);
    await other.locator('#token-input').fill('not-a-token');
    await other.locator('#sign-in').click();
    await other.locator('.error-box').waitFor();
    expect(await other.locator('.error-box').textContent()).toContain('does not look like a token');

    await other.locator('#token-input').fill(await stack.token([ORG], ['reader'], { sub: 'pasted-reader' }));
    await other.locator('#sign-in').click();
    await other.locator('#search-input').waitFor();
    expect(await other.locator('.who').textContent()).toContain('pasted-reader');
    // A reader is not offered registration.
    expect(await other.locator('nav a', { hasText: 'Register' }).count()).toBe(0);
    await other.close();
  });

  it('should search, show the right card with its endpoints and highlighted terms, and move by keyboard', async () => {
    await page.locator(':focus').blur(); // "/" brings the box back
    await page.keyboard.press('/');
    expect(await page.locator(':focus').getAttribute('id')).toBe('search-input');
    await page.keyboard.type('place an order to buy a pet');
    await page.keyboard.press('Enter');
    const first = page.locator('.card').first();
    await first.waitFor();
    expect(await first.locator('.card-title').textContent()).toBe('Petstore');
    expect(await first.locator('.endpoints li').first().textContent()).toContain('POST/store/order');
    expect(await first.locator('.team').textContent()).toBe('pets');
    expect(await page.locator('.card mark').count()).toBeGreaterThan(0);
    await shot('search');

    await page.keyboard.press('ArrowDown');
    expect(await page.locator(':focus').getAttribute('data-api-id')).toBe(petstoreId);
    await page.keyboard.press('Enter');
    await page.locator('.detail-header h1').waitFor();
    expect(page.url()).toContain(`#/apis/${petstoreId}`);
  });

  it("should show an API's endpoints grouped by tag with its indexing status", async () => {
    await page.goto(`${stack.url}/#/apis/${petstoreId}`);
    await page.locator('#api-status [data-status="COMPLETED"]').waitFor();
    const groups = await page.locator('.tag-group h3').allTextContents();
    expect(groups).toEqual(expect.arrayContaining(['pet', 'store', 'user']));
    expect(await page.locator('.tag-group', { hasText: 'store' }).locator('.path').allTextContents()).toContain('/store/order');
  });

  it('should filter by method and team', async () => {
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent('delete things')}&methods=DELETE&team=climate`);
    await page.locator('.card').first().waitFor();
    expect(await page.locator('.card .card-title').allTextContents()).toEqual(['Weather']);
    expect(await page.locator('#filter-team').inputValue()).toBe('climate');
    expect(await page.locator('input[name=method][value=DELETE]').isChecked()).toBe(true);

    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent('order a pet')}&team=nobody`);
    await page.locator('#results .empty').waitFor();
    expect(await page.locator('#results .empty').textContent()).toContain('with these filters');
  });

  it("should show each card's kind, and narrow the search to the kinds chosen, at once and in the URL", async () => {
    const kindsOfCards = () => page.locator('.card .kind').allTextContents();
    /** The distinct texts of `selector` once the new search's cards have replaced the last one's. */
    const settledTexts = async (selector: string, expected: string[]) => {
      const deadline = Date.now() + 15_000;
      let texts = new Set<string>();
      while (Date.now() < deadline) {
        texts = new Set(await page.locator(selector).allTextContents());
        if (texts.size === expected.length && expected.every((text) => texts.has(text))) break;
        await page.waitForTimeout(50);
      }
      return texts;
    };
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent("close a pull request, a user signed up, or a city's forecast")}`);
    await page.locator('.card').first().waitFor();
    expect(await kindsOfCards()).toEqual(expect.arrayContaining(['GraphQL', 'AsyncAPI', 'OpenAPI']));
    const review = page.locator(`.card[data-api-id="${reviewId}"]`);
    expect(await review.locator('.kind').getAttribute('data-kind')).toBe('graphql');
    // In the kind's own notation: the verb, then the field.
    expect(await review.locator('.endpoints li').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^MUTATIONclosePullRequest/)]));
    const card = page.locator('.card', { hasText: 'Account events' });
    expect(await card.locator('.endpoints .method').first().textContent()).toBe('SUBSCRIBE');
    // A tinted badge, not an HTTP one's white on colour, nor the grey of an unknown verb.
    expect(await page.evaluate(`getComputedStyle(document.querySelector('.card .method-mutation')).backgroundColor`)).toBe('rgb(252, 232, 240)');
    await page.screenshot({ path: '/tmp/kinds-search.png', fullPage: true });

    // Only HTTP verbs until a kind is chosen: then its own come too.
    expect(await page.locator('input[name=method][value=QUERY]').count()).toBe(0);
    await page.locator('input[name=kind][value=graphql]').check();
    await page.waitForURL(/kinds=graphql/);
    expect(await settledTexts('.card .kind', ['GraphQL'])).toEqual(new Set(['GraphQL']));
    expect(await page.locator('input[name=kind][value=graphql]').isChecked()).toBe(true);
    expect(
      await page
        .locator('.verb-group[data-kind=graphql] input[name=method]')
        .evaluateAll((boxes) => boxes.map((box) => (box as unknown as { value: string }).value)),
    ).toEqual(['QUERY', 'MUTATION', 'SUBSCRIPTION']);

    await page.locator('input[name=method][value=MUTATION]').check();
    await page.waitForURL(/methods=MUTATION/);
    expect(await settledTexts('.card .endpoints .method', ['MUTATION'])).toEqual(new Set(['MUTATION']));

    // Two kinds; then none: a verb of a kind no longer chosen goes with it.
    await page.locator('input[name=kind][value=asyncapi]').check();
    await page.waitForURL(/kinds=asyncapi%2Cgraphql|kinds=asyncapi,graphql/);
    await page.locator('input[name=kind][value=graphql]').uncheck();
    await page.waitForURL((url) => !url.hash.includes('graphql'));
    expect(page.url()).not.toContain('MUTATION');
    expect(await settledTexts('.card .kind', ['AsyncAPI'])).toEqual(new Set(['AsyncAPI']));
  });

  it('should show the kind of each API in the catalogue and list one kind at a time', async () => {
    await page.goto(`${stack.url}/#/catalogue`);
    await page.locator('table.catalogue').waitFor();
    expect(await page.locator(`tr[data-api-id="${reviewId}"] .kind`).textContent()).toBe('GraphQL');
    expect(await page.locator(`tr[data-api-id="${petstoreId}"] .kind`).textContent()).toBe('OpenAPI');
    await page.locator('#catalogue-kind').selectOption('graphql');
    await page.waitForURL(/#\/catalogue\?kind=graphql/);
    await page.locator(`tr[data-api-id="${petstoreId}"]`).waitFor({ state: 'detached' });
    await page.locator(`tr[data-api-id="${reviewId}"]`).waitFor();
    expect(await page.locator('table.catalogue tbody .kind').allTextContents()).toEqual(['GraphQL']);
    expect(await page.locator('#catalogue-kind').inputValue()).toBe('graphql');
    await page.locator('#catalogue-kind').selectOption('grpc');
    await page.locator('.empty', { hasText: 'No gRPC API in' }).waitFor();
  });

  it("should never paint a late answer over a newer view: the old org's catalogue under a search (#39)", async () => {
    await page.goto(`${stack.url}/#/catalogue`);
    await page.locator(`tr[data-api-id="${petstoreId}"]`).waitFor();
    // The other org's catalogue answers only when the test says so.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const isSandboxList = (url: URL) => url.pathname === '/api-management/apis' && url.searchParams.get('orgId') === 'sandbox';
    await page.route(isSandboxList, async (route) => {
      await released;
      await route.continue();
    });
    const asked = page.waitForRequest((request) => isSandboxList(new URL(request.url())));
    await page.locator('#org-switcher').selectOption('sandbox');
    await asked;
    await page.locator('nav a', { hasText: 'Search' }).click();
    await page.locator('#search-input').waitFor();
    // From here on, anything of a catalogue that reaches the page is noted.
    await page.evaluate(`(() => {
      window.__cataloguePainted = false;
      new MutationObserver(() => {
        if (document.querySelector('table.catalogue, .catalogue-header, .catalogue-filters')) window.__cataloguePainted = true;
      }).observe(document.body, { childList: true, subtree: true });
    })()`);
    const answered = page.waitForResponse((response) => isSandboxList(new URL(response.url())));
    release();
    await answered;
    // Its body read and drawn, had it been drawn: two frames after the answer.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    await page.waitForTimeout(200);
    expect(await page.evaluate('window.__cataloguePainted')).toBe(false);
    expect(page.url()).toMatch(/#\/search$/);
    expect(await page.locator('#search-input').isVisible()).toBe(true);
    expect(await page.locator('h1', { hasText: 'Catalogue of' }).count()).toBe(0);
    await page.unroute(isSandboxList);
    await page.locator('#org-switcher').selectOption(ORG);
  });

  it('should register a spec and show it go to COMPLETED', async () => {
    await page.goto(`${stack.url}/#/register`);
    await page.locator('#api-name').fill('Parcel tracking');
    await page.locator('#api-version').fill('1.0');
    await page.locator('#api-team').fill('logistics');
    await page.locator('#api-spec').fill(
      JSON.stringify(
        {
          openapi: '3.0.3',
          info: { title: 'Parcel tracking', version: '1.0' },
          paths: { '/parcels/{id}/events': { get: { summary: 'Track where a parcel is', responses: { 200: { description: 'ok' } } } } },
        },
        null,
        2,
      ),
    );
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#registered-status [data-status]').waitFor();
    await shot('register');
    await page.locator('#registered-status [data-status="COMPLETED"]').waitFor({ timeout: 60_000 });
    expect(await page.locator('#registered-status').textContent()).toMatch(/indexed .* chunks/);
  });

  it('should show why an invalid spec is refused, inline', async () => {
    await page.goto(`${stack.url}/#/register`);
    await page.locator('#api-name').fill('Broken');
    await page.locator('#api-version').fill('1');
    await page.locator('#api-spec').fill('openapi: [3.0\n  info: {');
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#register-outcome .error-box').waitFor();
    expect(await page.locator('#register-outcome .error-box').textContent()).toMatch(/Registration refused: The spec is neither valid JSON nor valid YAML/);
    await shot('register-error');
  });

  it('should show spec text as text: no script from a spec ever runs', async () => {
    const evilId = await register({ orgId: ORG, name: `Evil ${XSS}`, version: '1', teamName: `t${XSS}`, description: XSS, spec: hostileSpec });
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent('send a parcel')}`);
    await page.locator('.card').first().waitFor();
    await page.goto(`${stack.url}/#/apis/${evilId}`);
    await page.locator('.tag-group').first().waitFor();
    await page.goto(`${stack.url}/#/catalogue`);
    await page.locator('table.catalogue').waitFor();
    await page.waitForTimeout(300);

    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(await page.locator('table.catalogue').textContent()).toContain(`Evil ${XSS}`);
    await page.goto(`${stack.url}/#/apis/${evilId}`);
    await page.locator('.tag-group').first().waitFor();
    expect(await page.locator('.tag-group .path').first().textContent()).toBe('/parcels/<svg onload="window.__xss=1">');
    expect(await page.locator('img, script:not([src]), svg').count()).toBe(0);
  });

  it('should say when no API matches well, show the nearest ones, and label every card', async () => {
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent('zzzqqq xxyyww')}`);
    await page.locator('.card').first().waitFor();
    expect(await page.locator('#no-strong-match').textContent()).toContain('No API matches this well');
    const labels = await page.locator('.card .match').allTextContents();
    expect(labels.length).toBe(await page.locator('.card').count());
    expect(labels.every((label) => label === 'weak match')).toBe(true);
  });

  it('should show how many cards of how many, and more on request', async () => {
    const many = Array.from({ length: 22 }, (_, index) => index);
    for (const index of many) {
      await register({
        orgId: ORG,
        name: `Sensor ${index}`,
        version: '1',
        teamName: 'Climate',
        spec: {
          openapi: '3.0.3',
          info: { title: `Sensor ${index}`, version: '1' },
          paths: {
            [`/sensors/${index}/readings`]: {
              get: { tags: ['Readings'], summary: 'Read the temperature of a sensor', responses: { 200: { description: 'ok' } } },
            },
          },
        },
      });
    }
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent('temperature readings of a sensor')}`);
    await page.locator('.card').first().waitFor();
    // After a search, focus is on the results' heading.
    expect(await page.locator(':focus').getAttribute('id')).toBe('results-heading');
    const heading = await page.locator('#results-heading').textContent();
    const [, shown, total] = heading!.match(/Showing (\d+) of (\d+) APIs/)!.map(Number);
    expect(shown).toBe(20);
    expect(await page.locator('.card').count()).toBe(20);
    expect(total).toBeGreaterThan(20);
    await page.locator('#show-more').click();
    await page.locator('.card').nth(20).waitFor();
    expect(await page.locator('.card').count()).toBe(Math.min(total, 40));
    // Focus moves to the first card the button added.
    expect(await page.locator(':focus').getAttribute('data-api-id')).toBe(await page.locator('.card').nth(20).getAttribute('data-api-id'));
  });

  it("should suggest the org's teams and tags, and re-run the search when a method box changes", async () => {
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent('weather')}`);
    await page.reload(); // suggestions are kept for 30 s; the sensors came since
    await page.locator('.card').first().waitFor();
    await page.locator('#team-suggestions option').first().waitFor({ state: 'attached' });
    const suggestions = (list: string) =>
      page.locator(`${list} option`).evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value.toLowerCase()));
    // "climate" and the sensors' "Climate" are one team.
    const teams = await suggestions('#team-suggestions');
    expect(teams).toEqual(expect.arrayContaining(['climate', 'pets']));
    expect(teams.filter((team) => team === 'climate')).toHaveLength(1);
    expect(await suggestions('#tag-suggestions')).toEqual(expect.arrayContaining(['forecast', 'store', 'readings']));
    await page.locator('input[name=method][value=DELETE]').check();
    await page.waitForURL(/methods=DELETE/);
    await page.locator('.card').first().waitFor();
    expect(await page.locator('.card .card-title').first().textContent()).toBe('Weather');
    // "/" finds the box from a checkbox too.
    await page.locator('input[name=method][value=GET]').focus();
    await page.keyboard.press('/');
    expect(await page.locator(':focus').getAttribute('id')).toBe('search-input');
  });

  it('should offer a skip link to the content and a favicon', async () => {
    await page.goto(`${stack.url}/#/search`);
    await page.locator('#search-input').waitFor();
    // First in the page, so first in the tab order.
    expect(await page.evaluate('document.body.firstElementChild.textContent')).toBe('Skip to content');
    await page.locator('.skip-link').focus();
    await page.keyboard.press('Enter');
    expect(await page.locator(':focus').getAttribute('id')).toBe('app-main');
    const icon = await request(stack.gateway.getHttpServer()).get((await page.locator('link[rel=icon]').getAttribute('href')) as string);
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toContain('image/svg+xml');
  });

  it('should show a busy service as busy, not down', async () => {
    await page.route('**/api-management/ai/search', (route) =>
      route.fulfill({
        status: 503,
        headers: { 'retry-after': '2', 'content-type': 'application/problem+json' },
        body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'Too many searches at once' }),
      }),
    );
    await page.goto(`${stack.url}/#/search?q=weather`);
    await page.locator('#results .error-box').waitFor();
    expect(await page.locator('#results .error-box').getAttribute('data-busy')).toBe('true');
    expect(await page.locator('#results .error-box').textContent()).toMatch(/busy, try again.*try again in 2 seconds/);
    await page.unroute('**/api-management/ai/search');
  });

  it("should show one's own vote as pressed after a reload, for that need only (#39)", async () => {
    const query = encodeURIComponent('dismiss the weather alerts');
    await page.goto(`${stack.url}/#/search?q=${query}`);
    const weather = page.locator('.card', { hasText: 'Weather' }).first();
    await weather.waitFor();
    expect(await weather.locator('.vote-helpful').getAttribute('aria-pressed')).toBe('false');
    await weather.locator('.vote-helpful').click();
    await weather.locator('.vote-status', { hasText: 'Thanks' }).waitFor();

    await page.reload();
    const again = page.locator('.card', { hasText: 'Weather' }).first();
    await again.waitFor();
    expect(await again.locator('.vote-helpful').getAttribute('aria-pressed')).toBe('true');
    expect(await again.locator('.vote-unhelpful').getAttribute('aria-pressed')).toBe('false');
    // The same words in another case and spacing are the same need; other words are another.
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent('Dismiss  the weather ALERTS')}`);
    await page.locator('.card', { hasText: 'Weather' }).first().locator('.vote-helpful[aria-pressed="true"]').waitFor();
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent('seven-day forecast of a city')}`);
    const other = page.locator('.card', { hasText: 'Weather' }).first();
    await other.waitFor();
    expect(await other.locator('.vote-helpful').getAttribute('aria-pressed')).toBe('false');
  });

  it('should show labels on cards, the catalogue and the detail page, and filter by them', async () => {
    const cardSpec = (title: string, path: string, summary: string) => ({
      openapi: '3.0.3',
      info: { title, version: '1' },
      paths: { [path]: { post: { summary, responses: { 200: { description: 'ok' } } } } },
    });
    paymentsId = await register({
      orgId: ORG,
      name: 'Card payments',
      version: '1',
      teamName: 'payments',
      labels: { tier: 'gold', env: 'prod' },
      spec: cardSpec('Card payments', '/payments', 'Charge a credit card'),
    });
    // A key and a value as long as the rules allow: they must wrap on a phone.
    refundsId = await register({
      orgId: ORG,
      name: 'Card refunds',
      version: '1',
      teamName: 'payments',
      spec: cardSpec('Card refunds', '/refunds', 'Refund a credit card charge'),
      labels: { tier: 'silver', env: 'prod', [`cost-center/${'k'.repeat(51)}`]: `CC-${'1234567890'.repeat(9)}-end` },
    });
    const cardLabels = (apiId: string) => page.locator(`.card[data-api-id="${apiId}"] .labels .label-chip`).allTextContents();
    /** The cards' API ids once the new search's cards have replaced the last one's. */
    const settledCards = async (expected: string[]) => {
      const deadline = Date.now() + 15_000;
      let ids: string[] = [];
      while (Date.now() < deadline) {
        ids = (
          await page.locator('.card').evaluateAll((cards) => cards.map((card) => (card as unknown as { dataset: { apiId: string } }).dataset.apiId))
        ).sort();
        if (JSON.stringify(ids) === JSON.stringify([...expected].sort())) break;
        await page.waitForTimeout(50);
      }
      return ids;
    };
    const query = encodeURIComponent('charge or refund a credit card');

    // On the cards: key=value chips, keys in order.
    await page.goto(`${stack.url}/#/search?q=${query}`);
    await page.locator(`.card[data-api-id="${paymentsId}"]`).waitFor();
    expect(await cardLabels(paymentsId)).toEqual(['env=prod', 'tier=gold']);
    expect(await cardLabels(refundsId)).toEqual(expect.arrayContaining(['tier=silver', 'env=prod']));
    expect(await page.locator('.card', { hasText: 'Weather' }).locator('.labels').count()).toBe(0);

    // A chip, by keyboard: the search narrows to the APIs that carry it, and the URL says so.
    await page.locator(`.card[data-api-id="${paymentsId}"] .label-chip[data-label="tier=gold"]`).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/label=tier%3Agold/);
    expect(await settledCards([paymentsId])).toEqual([paymentsId]);
    expect(page.url()).toContain(`q=${query.replace(/%20/g, '+')}`);
    expect(await page.locator('.label-filters .label-chip').allTextContents()).toEqual(['tier=gold ×']);

    // Typed: a second label (values in any case), kept beside the first.
    await page.locator('#filter-labels').fill('env=PROD');
    await page.locator('#filter-labels').press('Enter');
    await page.waitForURL(/label=env%3APROD/);
    expect(page.url()).toContain('label=tier%3Agold');
    expect(await settledCards([paymentsId])).toEqual([paymentsId]);

    // A mistake is told beside the box, and nothing is searched.
    await page.locator('#filter-labels').fill('Tier=gold');
    await page.locator('#filter-labels').press('Enter');
    expect(await page.locator('#filter-labels-error').textContent()).toMatch(/label key "Tier" must be .*lower case/);
    expect(await page.locator('#filter-labels').getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).not.toContain('Tier');

    // A chip removed: the other filter stays.
    await page.locator('#filter-labels').fill('');
    await page.locator('.label-filters .label-chip[data-label="tier=gold"]').click();
    await page.waitForURL((url) => !url.hash.includes('tier'));
    expect(page.url()).toContain('label=env%3APROD');
    expect(await settledCards([paymentsId, refundsId])).toEqual([paymentsId, refundsId].sort());

    // Without words: the labelled APIs, every one.
    await page.goto(`${stack.url}/#/search?label=tier:silver`);
    expect(await settledCards([refundsId])).toEqual([refundsId]);

    // The catalogue: chips in the rows, a filter kept in the URL, and kept when the kind changes.
    await page.goto(`${stack.url}/#/catalogue`);
    await page.locator(`tr[data-api-id="${paymentsId}"] .label-chip`).first().waitFor();
    expect(await page.locator(`tr[data-api-id="${paymentsId}"] .label-chip`).allTextContents()).toEqual(['env=prod', 'tier=gold']);
    await page.locator('#catalogue-label').fill('tier=silver');
    await page.locator('#catalogue-label').press('Enter');
    await page.waitForURL(/#\/catalogue\?label=tier%3Asilver$/);
    await page.locator(`tr[data-api-id="${paymentsId}"]`).waitFor({ state: 'detached' });
    await page.locator(`tr[data-api-id="${refundsId}"]`).waitFor();
    expect(
      await page.locator('table.catalogue tbody tr').evaluateAll((rows) => rows.map((row) => (row as unknown as { dataset: { apiId: string } }).dataset.apiId)),
    ).toEqual([refundsId]);
    await page.locator('#catalogue-kind').selectOption('graphql');
    await page.waitForURL(/kind=graphql&label=tier%3Asilver/);
    await page.locator('.empty', { hasText: 'with these labels' }).waitFor();
    await page.locator('.label-filters .label-chip[data-label="tier=silver"]').click();
    await page.waitForURL(/#\/catalogue\?kind=graphql$/);
    await page.locator(`tr[data-api-id="${reviewId}"]`).waitFor();
    // A chip in a row adds its label to the filter.
    await page.goto(`${stack.url}/#/catalogue`);
    await page.locator(`tr[data-api-id="${paymentsId}"] .label-chip[data-label="tier=gold"]`).click();
    await page.waitForURL(/label=tier%3Agold/);
    await page.locator(`tr[data-api-id="${refundsId}"]`).waitFor({ state: 'detached' });
    await page.locator(`tr[data-api-id="${paymentsId}"]`).waitFor();
    expect(await page.locator('table.catalogue tbody tr').count()).toBe(1);

    // The detail page: chips in the header, each a link to the catalogue of its label.
    await page.goto(`${stack.url}/#/apis/${paymentsId}`);
    await page.locator('.detail-header .label-chip').first().waitFor();
    expect(await page.locator('.detail-header .label-chip').allTextContents()).toEqual(['env=prod', 'tier=gold']);
    await page.locator('.detail-header .label-chip[data-label="env=prod"]').click();
    await page.waitForURL(/#\/catalogue\?label=env%3Aprod$/);
    await page.locator(`tr[data-api-id="${refundsId}"]`).waitFor();
    expect(await page.locator('table.catalogue tbody tr').count()).toBe(2);
  });

  it("should change an API's team, description and labels on its page, without sending its spec (#39)", async () => {
    await page.goto(`${stack.url}/#/apis/${paymentsId}`);
    await page.locator('#edit-details summary').click();
    expect(await page.locator('#details-labels').inputValue()).toBe('env=prod\ntier=gold');
    // A mistake is told beside the form, and nothing is sent.
    await page.locator('#details-labels').fill('Tier=gold');
    await page.locator('#details-save').click();
    expect(await page.locator('#details-message').textContent()).toMatch(/"Tier"/);

    await page.locator('#details-team').fill('billing');
    await page.locator('#details-description').fill('Charges credit cards for the shop');
    await page.locator('#details-labels').fill('env=prod\ntier=platinum');
    await page.locator('#details-save').click();
    await page.locator('.detail-header .label-chip[data-label="tier=platinum"]').waitFor();
    expect(await page.locator('.detail-header .label-chip').allTextContents()).toEqual(['env=prod', 'tier=platinum']);
    expect(await page.locator('#api-facts').textContent()).toContain('Team billing');
    expect(await page.locator('.detail-header + p.description').textContent()).toBe('Charges credit cards for the shop');
    // No new spec: the version is at its first spec revision still.
    expect(await page.locator('#spec-revision').textContent()).toBe('v1 spec revision 1');
    const record = await request(stack.gateway.getHttpServer())
      .get(`/api-management/apis/${paymentsId}`)
      .set('authorization', `Bearer ${publisher}`)
      .expect(200);
    expect(record.body).toMatchObject({ teamName: 'billing', description: 'Charges credit cards for the shop', labels: { env: 'prod', tier: 'platinum' } });

    // Emptied, the team goes.
    await page.locator('#edit-details summary').click();
    await page.locator('#details-team').fill('');
    await page.locator('#details-save').click();
    await page.locator('#api-facts', { hasNotText: 'Team billing' }).waitFor();
    await waitForStatus(stack, publisher, paymentsId);
  });

  it('should fit a 390 px phone screen on every page', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const fits = () => phone.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
    await phone.goto(stack.url);
    await phone.evaluate(`localStorage.setItem('api-discovery.token', ${JSON.stringify(publisher)})`);
    await register({
      orgId: ORG,
      name: 'An API whose name is far longer than a phone is wide, to see it wrap',
      version: '2024-01-01-preview',
      teamName: 'a-team-with-a-rather-long-name',
      spec: {
        openapi: '3.0.3',
        info: { title: 'Long', version: '1' },
        paths: {
          '/organizations/{organization_identifier}/repositories/{repository_identifier}/pull-requests/{pull_request_number}/review-comments': {
            get: { summary: 'List the review comments of a pull request', responses: { 200: { description: 'ok' } } },
          },
        },
      },
    });
    const everyKind = 'kinds=openapi,asyncapi,graphql,grpc&methods=GET,PUBLISH,SUBSCRIPTION,RPC';
    for (const hash of [
      '#/search',
      `#/search?q=${encodeURIComponent('review comments of a pull request')}`,
      `#/search?q=${encodeURIComponent('pull request or signed up')}&${everyKind}`,
      '#/catalogue',
      '#/catalogue?kind=graphql',
      `#/apis/${petstoreId}`,
      `#/apis/${reviewId}`,
      '#/register',
      // Labels: chips on cards and rows, the chosen ones beside the filter boxes; a key and a value as long as allowed.
      `#/search?q=${encodeURIComponent('refund a credit card')}&label=env:prod&label=tier:silver`,
      '#/catalogue?label=env:prod',
      `#/apis/${refundsId}`,
    ]) {
      await phone.goto(`${stack.url}/${hash}`);
      // Loaded anew: a hash change alone would leave the last page on screen until this one is drawn.
      await phone.reload();
      await phone.locator('#app-main > *').first().waitFor();
      await phone.waitForLoadState('networkidle');
      // Signed in: the page itself, not the sign-in form.
      expect(await phone.locator('#sign-out').count()).toBe(1);
      expect({ hash, fits: await fits() }).toEqual({ hash, fits: true });
    }
    await phone.close();
  });

  it("should keep the match and the relevance bar on a long title's first line (#39)", async () => {
    for (const width of [1200, 390]) {
      const narrow = await browser.newPage({ viewport: { width, height: 900 } });
      await narrow.goto(stack.url);
      await narrow.evaluate(`localStorage.setItem('api-discovery.token', ${JSON.stringify(publisher)})`);
      await narrow.goto(`${stack.url}/#/search?q=${encodeURIComponent('review comments of a pull request')}`);
      // Loaded anew, to start signed in with the token just stored.
      await narrow.reload();
      const card = narrow.locator('.card', { hasText: 'far longer than a phone is wide' });
      await card.waitFor();
      const title = (await card.locator('.card-title').boundingBox())!;
      const bar = (await card.locator('.relevance').boundingBox())!;
      // The bar's middle is within the title's first line (a 1.1rem title's line is about 21 px), to the right of where the title starts.
      expect({ width, onFirstLine: bar.y + bar.height / 2 < title.y + 24, right: bar.x > title.x }).toEqual({ width, onFirstLine: true, right: true });
      await narrow.close();
    }
  });

  it('should let an admin re-index the org from the catalogue and watch it complete', async () => {
    await page.goto(`${stack.url}/#/catalogue`);
    await page.locator('#reindex-org').click();
    await page.locator('#reindex-progress [data-run-status="COMPLETED"]').waitFor({ timeout: 60_000 });
    expect(await page.locator('#reindex-progress').textContent()).toMatch(/Re-index complete/);
    await shot('catalogue');
  });

  it("should take a vote on a card, count opening a card's operation, and show the next search who chose it", async () => {
    const query = 'place an order to buy a pet';
    const isFeedback = (response: PageResponse) => response.url().endsWith('/api-management/ai/feedback') && response.request().method() === 'POST';
    const searched = page.waitForResponse((response) => response.url().endsWith('/api-management/ai/search'));
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent(query)}`);
    const { searchId } = (await (await searched).json()) as { searchId: string };
    const card = page.locator(`.card[data-api-id="${petstoreId}"]`);
    const yes = card.getByRole('button', { name: 'This answered it' });
    const no = card.getByRole('button', { name: 'Not what I need' });
    await yes.waitFor();
    expect(await card.getByRole('group', { name: 'Did Petstore answer your search?' }).count()).toBe(1);
    expect([await yes.getAttribute('aria-pressed'), await no.getAttribute('aria-pressed')]).toEqual(['false', 'false']);

    // A refused vote is told on the card, in the server's words, and nothing shows as chosen.
    await page.route(
      '**/api-management/ai/feedback',
      (route) =>
        route.fulfill({
          status: 404,
          contentType: 'application/problem+json',
          body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'This search is no longer kept' }),
        }),
      { times: 1 },
    );
    await yes.click();
    await card.locator('.vote-status .error-text').waitFor();
    expect(await card.locator('.vote-status').textContent()).toContain('This search is no longer kept');
    expect(await yes.getAttribute('aria-pressed')).toBe('false');
    expect(dialogs).toEqual([]);

    // By keyboard: the vote is sent, answered 204, and the card thanks.
    const voted = page.waitForResponse(isFeedback);
    await yes.focus();
    await page.keyboard.press('Enter');
    const vote = await voted;
    expect(vote.status()).toBe(204);
    expect(vote.request().postDataJSON()).toEqual({ searchId, apiId: petstoreId, helpful: true, signal: 'vote' });
    await card.locator('.vote-status', { hasText: 'Thanks — this helps the next person with the same need' }).waitFor();
    expect([await yes.getAttribute('aria-pressed'), await no.getAttribute('aria-pressed')]).toEqual(['true', 'false']);

    // The other button changes the vote; pressing back restores it.
    for (const [button, helpful] of [
      [no, false],
      [yes, true],
    ] as const) {
      const changed = page.waitForResponse(isFeedback);
      await button.click();
      expect((await changed).request().postDataJSON()).toEqual({ searchId, apiId: petstoreId, helpful, signal: 'vote' });
      await card.locator(`button[aria-pressed=true]`, { hasText: helpful ? 'This answered it' : 'Not what I need' }).waitFor();
    }

    // An operation opened from the card: the API's page with it open, and an `opened` signal for this search.
    const opened = page.waitForResponse((response) => isFeedback(response) && response.request().postDataJSON().signal === 'opened');
    await card.locator('.endpoint-link', { hasText: /^POST\/store\/order(?!\/)/ }).click();
    const signal = await opened;
    expect(signal.status()).toBe(204);
    expect(signal.request().postDataJSON()).toEqual({
      searchId,
      apiId: petstoreId,
      operation: { method: 'POST', path: '/store/order' },
      helpful: true,
      signal: 'opened',
    });
    expect(await page.locator('details[data-operation="POST /store/order"]').getAttribute('open')).not.toBeNull();

    // The same need again: the card says who voted for it.
    await page.goto(`${stack.url}/#/search?q=${encodeURIComponent(query)}`);
    await card.locator('.feedback-evidence', { hasText: 'Voted the answer by 1 person for this need' }).waitFor();
  });
});
