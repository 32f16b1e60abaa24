import { type Browser, chromium } from 'playwright-core';
import { startStack, type TestStack } from './support/stack.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('Development sign-in in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ env: { AUTH_DEV_LOGIN: 'true' } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it.each([
    ['no role', 'demo', [], 'choose at least one role'],
    ['no org', ' , ', ['reader'], 'enter at least one org'],
  ])('should refuse %s with one message, without asking the gateway', async (_case, orgs, roles, reason) => {
    const page = await browser.newPage();
    const asked: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().endsWith('/auth/dev-token')) asked.push(sent.url());
    });
    await page.goto(stack.url);
    await page.locator('#dev-orgs').fill(orgs);
    for (const box of await page.locator('.dev-role').all()) await box.setChecked(roles.includes((await box.getAttribute('value'))!));
    await page.locator('#dev-sign-in').click();
    await page.locator('.error-box').waitFor();
    expect({ message: await page.locator('.error-box').textContent(), asked }).toEqual({
      message: `Could not get a development token: ${reason}`,
      asked: [],
    });
    await page.close();
  });
});
