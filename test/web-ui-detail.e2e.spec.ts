import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import request from 'supertest';
import { readFixture } from './fixtures/fixtures.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TOKEN_KEY = 'api-discovery.token';

/** Spec text in every place the detail shows, carrying a script that flags `window.__xss` if it ever runs. */
const XSS = '<img src=x onerror="window.__xss=1">';
const hostileSpec = {
  openapi: '3.0.3',
  info: { title: 'Parcels', version: '1' },
  servers: [{ url: `https://parcels.example.com/${XSS}` }],
  paths: {
    '/parcels': {
      post: {
        summary: 'Send a parcel',
        parameters: [{ name: `x${XSS}`, in: 'query', description: XSS, schema: { type: 'string', description: XSS } }],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { [`label${XSS}`]: { type: 'string' } } } } } },
        responses: { 201: { description: XSS } },
      },
    },
  },
};

/** A GraphQL schema (SDL): its operations are QUERY and MUTATION fields with arguments. */
const reviewSdl = `
type Query {
  "Look up a pull request"
  pullRequest(id: ID!): PullRequest
}
type Mutation {
  "Close a pull request without merging it"
  closePullRequest(
    "Which pull request"
    id: ID!
    reason: String
  ): PullRequest
}
type PullRequest { id: ID! title: String }
`;

describe('Web UI detail page in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let petstoreId: string;
  let hostileId: string;
  let reviewId: string;
  let signupId: string;

  const register = async (token: string, body: object) => {
    const created = await request(stack.gateway.getHttpServer()).post('/api-management/apis').set('authorization', `Bearer ${token}`).send(body);
    // With the body: a refusal says why.
    expect({ status: created.status, body: created.status === 201 ? undefined : created.body }).toEqual({ status: 201, body: undefined });
    await expect(waitForStatus(stack, token, created.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
    return created.body.apiId as string;
  };
  /** A page signed in as a reader of ORG (the token kept where the UI keeps it). */
  const signedInPage = async (width: number): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const token = await stack.token([ORG], ['reader']);
    await page.addInitScript(`localStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`);
    return page;
  };
  const openOperation = async (page: Page, operation: string) => {
    const details = page.locator(`details[data-operation="${operation}"]`);
    await details.locator('summary').click();
    await details.locator('.operation-detail h4').first().waitFor();
    return details;
  };

  beforeAll(async () => {
    stack = await startStack();
    const publisher = await stack.token([ORG], ['publisher']);
    petstoreId = await register(publisher, { orgId: ORG, name: 'Petstore', version: '1.0.7', spec: readFixture('petstore-swagger2.yaml') });
    hostileId = await register(publisher, { orgId: ORG, name: 'Parcels', version: '1', spec: hostileSpec });
    reviewId = await register(publisher, { orgId: ORG, name: 'Code review', version: '4', spec: reviewSdl, format: 'graphql' });
    signupId = await register(publisher, {
      orgId: ORG,
      name: 'Account events',
      version: '1.0.0',
      spec: readFileSync(join(process.cwd(), 'demo/asyncapi/account-service-2.6.yml'), 'utf8'),
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("should show the API's servers and auth schemes, and an operation's parameters, body and responses when it is opened", async () => {
    const page = await signedInPage(1200);
    await page.goto(`${stack.url}/#/apis/${petstoreId}`);
    await page.locator('#api-overview').waitFor();
    expect(await page.locator('#api-overview .servers').textContent()).toContain('https://petstore.swagger.io/v2');
    const auth = await page.locator('#api-overview .auth-schemes').textContent();
    expect(auth).toContain('petstore_auth');
    expect(auth).toContain('write:pets');
    expect(auth).toContain('API key in header "api_key"');

    const addPet = await openOperation(page, 'POST /pet');
    expect(await addPet.getAttribute('open')).not.toBeNull();
    const body = await addPet.locator('.request-body').textContent();
    expect(body).toContain('Required.');
    // Swagger 2.0 gives both media types the same schema: shown once.
    expect(await addPet.locator('.request-body .media-type').allTextContents()).toEqual(['application/json, application/xml']);
    expect(await addPet.locator('.request-body pre.schema').first().textContent()).toContain('"photoUrls": {"type":"array","items":{"type":"string"}}');
    expect(await addPet.locator('.responses').textContent()).toContain('405 Invalid input');
    expect(await addPet.locator('.security').textContent()).toBe('petstore_auth (write:pets, read:pets)');

    const getPet = await openOperation(page, 'GET /pet/{petId}');
    const row = getPet.locator('table.parameters tbody tr');
    expect(await row.locator('td').allTextContents()).toEqual(['petId', 'path', 'yes', '{"type":"integer","format":"int64"}', 'ID of pet to return']);
    expect(await getPet.locator('.responses li').first().textContent()).toContain('200 successful operation');
    await page.close();
  });

  it('should fit a phone screen with an operation open: schemas scroll inside their own box', async () => {
    const page = await signedInPage(390);
    await page.goto(`${stack.url}/#/apis/${petstoreId}`);
    await page.locator('#api-overview').waitFor();
    await openOperation(page, 'POST /pet');
    await openOperation(page, 'GET /pet/findByStatus');
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.close();
  });

  it("should show a GraphQL API's kind and format, its QUERY and MUTATION operations, and their arguments and return type", async () => {
    const page = await signedInPage(1200);
    await page.goto(`${stack.url}/#/apis/${reviewId}`);
    await page.locator('#api-overview').waitFor();
    expect(await page.locator('.detail-header .kind').textContent()).toBe('GraphQL');
    expect(await page.locator('.detail-header #api-format').textContent()).toBe('GraphQL SDL');
    expect(
      await page
        .locator('details.operation')
        .evaluateAll((rows) => rows.map((row) => (row as unknown as { dataset: { operation: string } }).dataset.operation)),
    ).toEqual(expect.arrayContaining(['QUERY pullRequest', 'MUTATION closePullRequest']));
    expect(await page.locator('details[data-operation="MUTATION closePullRequest"] summary').textContent()).toMatch(/^MUTATIONclosePullRequest/);

    const close = await openOperation(page, 'MUTATION closePullRequest');
    const headings = await close.locator('.operation-detail h4').allTextContents();
    expect(headings).toEqual(expect.arrayContaining(['Arguments', 'Returns']));
    expect(headings).not.toContain('Request body');
    expect(headings).not.toContain('Parameters');
    // Every input is an argument: no "In" column to say so.
    expect(await close.locator('table.parameters th').allTextContents()).toEqual(['Name', 'Required', 'Schema', 'Description']);
    expect(await close.locator('table.parameters tbody tr').first().locator('td').first().textContent()).toBe('id');
    expect(await close.locator('.responses').textContent()).toContain('PullRequest');
    await page.close();
  });

  it("should show an AsyncAPI operation's message as its message", async () => {
    const page = await signedInPage(1200);
    await page.goto(`${stack.url}/#/apis/${signupId}`);
    await page.locator('#api-overview').waitFor();
    expect(await page.locator('.detail-header .kind').textContent()).toBe('AsyncAPI');
    expect(await page.locator('.detail-header #api-format').textContent()).toBe('AsyncAPI 2.6.0');
    const signedUp = await openOperation(page, 'SUBSCRIBE user/signedup');
    const headings = await signedUp.locator('.operation-detail h4').allTextContents();
    expect(headings).toContain('Message');
    expect(headings).not.toContain('Request body');
    expect(await signedUp.locator('.request-body pre.schema').textContent()).toContain('"email"');
    await page.close();
  });

  it('should fit a phone screen with a GraphQL operation open', async () => {
    const page = await signedInPage(390);
    await page.goto(`${stack.url}/#/apis/${reviewId}`);
    await page.locator('#api-overview').waitFor();
    await openOperation(page, 'MUTATION closePullRequest');
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.close();
  });

  it('should show spec text in the details as text: no script from a spec runs', async () => {
    const page = await signedInPage(1200);
    await page.goto(`${stack.url}/#/apis/${hostileId}`);
    await page.locator('#api-overview').waitFor();
    const parcel = await openOperation(page, 'POST /parcels');
    await parcel.locator('.responses').waitFor();

    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('img, script:not([src])').count()).toBe(0);
    expect(await page.locator('#api-overview .servers').textContent()).toContain(`https://parcels.example.com/${XSS}`);
    expect(await parcel.locator('table.parameters code').first().textContent()).toBe(`x${XSS}`);
    // As JSON writes it: the quotes inside escaped.
    expect(await parcel.locator('.request-body pre.schema').textContent()).toContain(JSON.stringify(`label${XSS}`));
    await page.close();
  });
});
