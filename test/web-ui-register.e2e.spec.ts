import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import request from 'supertest';
import { defaultSpecFormats } from '#api-specs';
import { readFixture } from './fixtures/fixtures.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const yamlFile = (title: string, version: string) => ({
  name: 'shop.yaml',
  mimeType: 'application/yaml',
  buffer: Buffer.from(
    `openapi: 3.0.3\ninfo:\n  contact:\n    name: not the title\n  title: ${title}\n  version: ${version} # the release\npaths:\n  /orders:\n    get:\n      summary: List the orders\n      responses:\n        '200':\n          description: ok\n`,
  ),
});
const jsonFile = (title: string, version: string) => ({
  name: 'parcels.json',
  mimeType: 'application/json',
  buffer: Buffer.from(
    JSON.stringify(
      {
        openapi: '3.0.3',
        info: { title, version },
        paths: { '/parcels/{id}': { get: { summary: 'Track a parcel', responses: { 200: { description: 'ok' } } } } },
      },
      null,
      2,
    ),
  ),
});

const sdl = 'type Query {\n  "Look up a pull request"\n  pullRequest(id: ID!): PullRequest\n}\ntype PullRequest { id: ID! title: String }\n';
const protoFile = {
  name: 'payments.proto',
  mimeType: 'application/octet-stream',
  buffer: Buffer.from(
    'syntax = "proto3";\npackage payments.v1;\n\nmessage RefundRequest { string id = 1; }\nmessage RefundReply { bool ok = 1; }\n\nservice PaymentService {\n  rpc Refund(RefundRequest) returns (RefundReply);\n}\n',
  ),
};

describe('Web UI: registering and updating, in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let page: Page;
  let publisher: string;

  const http = () => request(stack.gateway.getHttpServer());
  // Browser-side code as text: this project's type-check has no DOM types.
  /** Whether the element is inside the viewport (a pixel's leeway: scroll positions are whole pixels, boxes are not). */
  const inView = (selector: string) =>
    page.evaluate<boolean>(`(() => {
      const box = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight + 1;
    })()`);
  const focusedId = () => page.evaluate<string | undefined>('document.activeElement?.id');
  const noHorizontalOverflow = () => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
  /**
   * Waits until the field's value passes `test`, polled from here: a string predicate polled in
   * the page is evaluated there, which the UI's Content-Security-Policy forbids.
   */
  const valueIs = async (id: string, test: (value: string) => boolean) => {
    const deadline = Date.now() + 30_000;
    while (!test(await page.locator(`#${id}`).inputValue())) {
      if (Date.now() > deadline) throw new Error(`#${id} never passed ${test}`);
      await page.waitForTimeout(50);
    }
  };
  const scrollToTop = () => page.evaluate('window.scrollTo(0, 0)');
  /** A fresh form: going to the route the page is on already changes nothing, so it is loaded anew. */
  const freshForm = async () => {
    await page.goto(`${stack.url}/#/register`);
    await page.reload();
    await page.locator('.register-form').waitFor();
  };

  beforeAll(async () => {
    stack = await startStack();
    publisher = await stack.token([ORG], ['publisher']);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    // A phone's width: the form is longer than the screen, so a result below it is out of view.
    page = await browser.newPage({ viewport: { width: 390, height: 700 } });
    // Signed in as the UI keeps a session (its sign-in is web-ui.e2e's): each view is opened by its route.
    await page.addInitScript(`localStorage.setItem('api-discovery.token', ${JSON.stringify(publisher)})`);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('should fill name and version from a chosen YAML or JSON file, never over what was typed', async () => {
    await page.goto(`${stack.url}/#/register`);
    const file = page.locator('#api-spec-file');
    const name = page.locator('#api-name');
    const version = page.locator('#api-version');

    await file.setInputFiles(yamlFile(`'Pet''s shop'`, '"1.0.7"'));
    await valueIs('api-name', (value) => value !== '');
    expect([await name.inputValue(), await version.inputValue()]).toEqual(["Pet's shop", '1.0.7']);
    expect(await page.locator('#api-spec').inputValue()).toContain('List the orders');

    // What a file filled, the next file replaces.
    await file.setInputFiles(jsonFile('Parcel tracking', '3.2'));
    await valueIs('api-name', (value) => value === 'Parcel tracking');
    expect(await version.inputValue()).toBe('3.2');

    // What a person typed, it does not.
    await name.fill('Parcels (EU)');
    await file.setInputFiles(yamlFile('Plain title', '2.0.0'));
    await valueIs('api-version', (value) => value === '2.0.0');
    expect(await name.inputValue()).toBe('Parcels (EU)');
  });

  it("should offer every format's files, and fill the name from an AsyncAPI info block, a .proto's service or an SDL file's name", async () => {
    await freshForm();
    const file = page.locator('#api-spec-file');
    // Every kind's file names, as the server's format plugins say them.
    expect((await file.getAttribute('accept'))?.split(',')).toEqual([
      ...new Set([...defaultSpecFormats().all.flatMap((format) => format.fileExtensions), '.txt']),
    ]);
    expect((await file.getAttribute('accept'))?.split(',')).toEqual(
      expect.arrayContaining(['.json', '.yaml', '.yml', '.graphql', '.graphqls', '.gql', '.proto', '.txt']),
    );
    await file.setInputFiles({
      name: 'account-service.yml',
      mimeType: 'application/yaml',
      buffer: readFileSync(join(process.cwd(), 'demo/asyncapi/account-service-3.0.yml')),
    });
    await valueIs('api-name', (value) => value === 'Account Service');
    expect(await page.locator('#api-version').inputValue()).toBe('1.0.0');

    await file.setInputFiles(protoFile);
    await valueIs('api-name', (value) => value === 'PaymentService');
    expect(await page.locator('#api-version').inputValue()).toBe('v1');

    await file.setInputFiles({ name: 'code-review.graphql', mimeType: 'application/octet-stream', buffer: Buffer.from(sdl) });
    await valueIs('api-name', (value) => value === 'code-review');
    // The SDL names no version: what the last file filled goes.
    expect(await page.locator('#api-version').inputValue()).toBe('');
    expect(await page.locator('#api-spec').inputValue()).toBe(sdl);
  });

  it('should send the format chosen, and none when it is left to detection', async () => {
    const sent: Record<string, unknown>[] = [];
    const listen = (sentRequest: { url(): string; method(): string; postDataJSON(): unknown }) => {
      if (sentRequest.method() === 'POST' && sentRequest.url().endsWith('/api-management/apis'))
        sent.push(sentRequest.postDataJSON() as Record<string, unknown>);
    };
    page.on('request', listen);
    await freshForm();
    // Each kind the server reads, by the formats it reads.
    expect(await page.locator('#api-format option').allTextContents()).toEqual([
      'Detect automatically',
      ...defaultSpecFormats().all.map((format) => format.label),
    ]);
    expect(await page.locator('#api-format option').allTextContents()).toEqual(
      expect.arrayContaining(['OpenAPI 2.0, 3.0 and 3.1', 'AsyncAPI 2.x and 3.0', 'GraphQL SDL', 'Protocol Buffers (gRPC)']),
    );
    expect(await page.locator('#api-format').inputValue()).toBe('');
    await page.locator('#api-name').fill('Code review');
    await page.locator('#api-version').fill('4');
    await page.locator('#api-spec').fill(sdl);
    await page.locator('#api-format').selectOption('graphql');
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#registered-status [data-status]').waitFor();
    expect(sent.at(-1)).toMatchObject({ name: 'Code review', spec: sdl, format: 'graphql' });
    await page.locator('#registered-status [data-status="COMPLETED"]').waitFor({ timeout: 60_000 });

    // Read as the format named: the server's reason shows as any refusal does.
    await page.locator('#api-format').selectOption('openapi');
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#register-outcome .error-box').waitFor();
    expect(sent.at(-1)).toMatchObject({ format: 'openapi' });
    expect(await page.locator('#register-outcome .error-box').textContent()).toMatch(/^Registration refused: /);

    await freshForm();
    await page.locator('#api-name').fill('Code review 2');
    await page.locator('#api-version').fill('4');
    await page.locator('#api-spec').fill(sdl);
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#registered-status [data-status]').waitFor();
    expect(sent.at(-1)).not.toHaveProperty('format');
    expect(await noHorizontalOverflow()).toBe(true);
    page.off('request', listen);
  });

  it('should bring the outcome into view and focus it, for a refusal and for a registration', async () => {
    await page.goto(`${stack.url}/#/register`);
    await page.locator('#api-name').fill('Broken');
    await page.locator('#api-version').fill('1');
    await page.locator('#api-spec').fill('openapi: [3.0\n  info: {');
    await scrollToTop();
    expect(await inView('#register-outcome')).toBe(false);
    // Enter in the first field: submitted from the top of the form, the outcome far below.
    await page.locator('#api-name').press('Enter');
    await page.locator('#register-outcome .error-box').waitFor();
    expect(await focusedId()).toBe('register-outcome');
    expect(await inView('#register-outcome')).toBe(true);

    await page.locator('#api-spec-file').setInputFiles(jsonFile('Parcel tracking', '3.2'));
    await valueIs('api-spec', (value) => value.includes('Track a parcel'));
    // Typed before, so the file left them alone.
    await page.locator('#api-name').fill('Parcel tracking');
    await page.locator('#api-version').fill('3.2');
    await scrollToTop();
    await page.locator('#api-name').press('Enter');
    await page.locator('#registered-status [data-status]').waitFor();
    expect(await focusedId()).toBe('register-outcome');
    expect(await page.locator('#register-outcome').textContent()).toContain('Registered Parcel tracking v3.2');
    // And stays in view while its live status changes.
    await page.locator('#registered-status [data-status="COMPLETED"]').waitFor({ timeout: 60_000 });
    expect(await inView('#register-outcome')).toBe(true);
  });

  it('should offer the current spec to update, and send it whole', async () => {
    const yaml = readFixture('petstore-swagger2.yaml');
    const created = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Petstore', version: '1.0.7', spec: yaml });
    expect(created.status).toBe(201);
    const apiId = created.body.apiId as string;

    await page.goto(`${stack.url}/#/register?apiId=${apiId}`);
    await page.locator('h1', { hasText: 'Update Petstore' }).waitFor();
    const spec = page.locator('#api-spec');
    expect(await spec.inputValue()).toBe(yaml);
    expect(await page.locator('.register-form').textContent()).toContain('the spec registered now (revision 1)');
    expect(await noHorizontalOverflow()).toBe(true);

    await page.locator('#api-version').fill('1.0.8');
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#registered-status [data-status]').waitFor();
    expect(await focusedId()).toBe('register-outcome');
    const record = await http().get(`/api-management/apis/${apiId}`).set('authorization', `Bearer ${publisher}`);
    expect(record.body).toMatchObject({ version: '1.0.8', revision: 2 });
    const stored = await http()
      .get(`/api-management/apis/${apiId}/spec`)
      .set('authorization', `Bearer ${publisher}`)
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => done(null, text));
      });
    expect(stored.body).toBe(yaml);
  });

  it('should take labels, one key=value a line, check them before sending, and offer them to update', async () => {
    const sent: { method: string; body: Record<string, unknown> }[] = [];
    const listen = (sentRequest: { url(): string; method(): string; postDataJSON(): unknown }) => {
      if (/\/api-management\/apis(\/[^/]+)?$/.test(sentRequest.url()) && ['POST', 'PUT'].includes(sentRequest.method())) {
        sent.push({ method: sentRequest.method(), body: sentRequest.postDataJSON() as Record<string, unknown> });
      }
    };
    page.on('request', listen);
    await freshForm();
    const labels = page.locator('#api-labels');
    expect(await page.locator('.register-form').textContent()).toContain('one key=value a line');
    await page.locator('#api-name').fill('Labelled shop');
    await page.locator('#api-version').fill('1');
    await page.locator('#api-spec').fill(sdl);

    // Told beside the field, naming the line and the label; nothing is sent.
    await labels.fill('tier=gold\nTeam=payments');
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#api-labels-error').waitFor();
    expect(await page.locator('#api-labels-error').textContent()).toMatch(/^Labels, line 2: label key "Team" must be .*lower case/);
    expect(await focusedId()).toBe('api-labels');
    expect(await labels.getAttribute('aria-invalid')).toBe('true');
    expect(await noHorizontalOverflow()).toBe(true);
    for (const [text, message] of [
      ['tier gold', /line 1: "tier gold" is not key=value/],
      ['tier=', /line 1: label "tier" must have a value of 1-100 characters/],
      [`note=${'x'.repeat(101)}`, /line 1: label "note" must have a value of 1-100 characters/],
      ['tier=gold\n\ntier=silver', /line 3: the key "tier" is given twice/],
      [Array.from({ length: 21 }, (_, index) => `k${index}=v`).join('\n'), /^21 labels: at most 20/],
    ] as const) {
      await labels.fill(text);
      // Typing clears the last message.
      expect(await page.locator('#api-labels-error').textContent()).toBe('');
      await page.locator('.register-form button[type=submit]').click();
      await page.locator('#api-labels-error:not(:empty)').waitFor();
      expect(await page.locator('#api-labels-error').textContent()).toMatch(message);
    }
    expect(sent).toEqual([]);

    // Trimmed, blank lines skipped, a value may hold "=" and ",".
    await labels.fill(' tier = gold \n\nteam/owner=payments, EU\nquery=a=b');
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#registered-status [data-status]').waitFor();
    expect(sent.at(-1)).toEqual({ method: 'POST', body: expect.objectContaining({ labels: { tier: 'gold', 'team/owner': 'payments, EU', query: 'a=b' } }) });
    const apiId = (await page.locator('#register-outcome a').getAttribute('href'))!.replace('#/apis/', '');
    const stored = async () =>
      (await http().get(`/api-management/apis/${apiId}`).set('authorization', `Bearer ${publisher}`)).body.labels as Record<string, string>;
    expect(await stored()).toEqual({ query: 'a=b', 'team/owner': 'payments, EU', tier: 'gold' });

    // An update starts from the API's labels; a changed field replaces them, an emptied one clears them.
    await page.goto(`${stack.url}/#/register?apiId=${apiId}`);
    await page.locator('h1', { hasText: 'Update Labelled shop' }).waitFor();
    expect((await labels.inputValue()).split('\n').sort()).toEqual(['query=a=b', 'team/owner=payments, EU', 'tier=gold']);
    await labels.fill('tier=silver');
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#registered-status [data-status]').waitFor();
    expect(sent.at(-1)).toEqual({ method: 'PUT', body: expect.objectContaining({ labels: { tier: 'silver' } }) });
    expect(await stored()).toEqual({ tier: 'silver' });

    await page.goto(`${stack.url}/#/register?apiId=${apiId}`);
    await page.reload();
    await page.locator('h1', { hasText: 'Update Labelled shop' }).waitFor();
    expect(await labels.inputValue()).toBe('tier=silver');
    await labels.fill('');
    await page.locator('.register-form button[type=submit]').click();
    await page.locator('#registered-status [data-status]').waitFor();
    expect(sent.at(-1)).toEqual({ method: 'PUT', body: expect.objectContaining({ labels: {} }) });
    expect(await stored()).toEqual({});
    page.off('request', listen);
  });

  it('should have no horizontal overflow on the register page at 390 px', async () => {
    await page.goto(`${stack.url}/#/register`);
    await page.locator('.register-form').waitFor();
    expect(await page.evaluate('window.innerWidth')).toBe(390);
    expect(await noHorizontalOverflow()).toBe(true);
  });

  it("should view the registered spec in a new tab and download it under its API's name", async () => {
    const yaml = readFixture('petstore-swagger2.yaml');
    const created = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Pet Store', version: '2 beta', spec: yaml });
    await waitForStatus(stack, publisher, created.body.apiId);
    await page.goto(`${stack.url}/#/apis/${created.body.apiId}`);
    await page.locator('.detail-header h1').waitFor();
    await page.locator('#download-spec').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-spec').click()]);
    expect(download.suggestedFilename()).toBe('Pet-Store-2-beta.yaml');
    expect(readFileSync((await download.path())!, 'utf8')).toBe(yaml);

    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.locator('#view-spec').click()]);
    await tab.waitForURL(/^blob:/);
    expect((await tab.locator('body').innerText()).trim()).toBe(yaml.trim());
    await tab.close();
    expect(await page.locator('.detail-header .action-message').textContent()).toBe('');
  });
  it('should view a GraphQL schema as text and download it as the server names it (.graphql)', async () => {
    const created = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Code review board', version: '5', spec: sdl });
    expect(created.status).toBe(201);
    await waitForStatus(stack, publisher, created.body.apiId);
    await page.goto(`${stack.url}/#/apis/${created.body.apiId}`);
    await page.locator('#download-spec').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-spec').click()]);
    expect(download.suggestedFilename()).toBe('Code-review-board-5.graphql');
    expect(readFileSync((await download.path())!, 'utf8')).toBe(sdl);
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.locator('#view-spec').click()]);
    await tab.waitForURL(/^blob:/);
    expect((await tab.locator('body').innerText()).trim()).toBe(sdl.trim());
    await tab.close();
  });
});
