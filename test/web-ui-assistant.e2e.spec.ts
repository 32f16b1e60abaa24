import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { startStack, type TestStack } from './support/stack.js';

const ORG = 'acme';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TOKEN_KEY = 'api-discovery.token';
/** `ASSISTANT_SCREENSHOT=/tmp/assistant.png` saves the panel as a user sees it. */
const SCREENSHOT = process.env.ASSISTANT_SCREENSHOT;

interface HttpServerConfig {
  servers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
}

/** The "Connect an assistant" page: configurations for this gateway's MCP endpoint, with the user's own token. */
describe('Web UI "Connect an assistant" in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let token: string;
  const contexts: BrowserContext[] = [];

  /** A page signed in as a publisher of ORG, allowed the clipboard (or, with `noClipboard`, a browser without one). */
  const signedInPage = async (width: number, options: { noClipboard?: boolean } = {}): Promise<Page> => {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      permissions: options.noClipboard ? [] : ['clipboard-read', 'clipboard-write'],
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.addInitScript(`localStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`);
    // As on a plain-HTTP address other than localhost: the browser gives no clipboard.
    if (options.noClipboard) await page.addInitScript('Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined })');
    return page;
  };
  const openPanel = async (page: Page) => {
    await page.goto(`${stack.url}/#/assistant`);
    await page.locator('#snippet-claude-desktop').waitFor();
  };
  const snippet = (page: Page, id: string) => page.locator(`#snippet-${id}`).textContent() as Promise<string>;
  /** The whole document as markup: attributes included, so a token cannot hide in one. */
  const markup = (page: Page) => page.evaluate('document.documentElement.outerHTML') as Promise<string>;

  beforeAll(async () => {
    stack = await startStack();
    token = await stack.token([ORG], ['publisher'], { ttlSeconds: 7200 });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await stack?.close();
  });

  it('should show the three configurations with this gateway\'s URL, the token hidden until "Show token"', async () => {
    const page = await signedInPage(1200);
    await page.goto(`${stack.url}/#/search`);
    await page.locator('nav a', { hasText: 'Assistant' }).click();
    await page.locator('#snippet-claude-desktop').waitFor();
    expect(await page.locator('h1').textContent()).toBe('Connect an assistant');
    expect(await page.locator('nav a[aria-current=page]').textContent()).toBe('Assistant');
    expect(await page.locator('#mcp-url').textContent()).toBe(`${stack.url}/mcp`);
    expect(await page.locator('.lead').textContent()).toContain('ask it for an API in words; it gets the operation and how to call it');

    // Hidden: nowhere in the page, not even in an attribute.
    expect(await markup(page)).not.toContain(token);
    expect(await markup(page)).not.toContain(token.split('.')[2]);
    expect(await snippet(page, 'claude-code')).toBe(
      `claude mcp add --transport http api-discovery ${stack.url}/mcp --header "Authorization: Bearer ••••••••••••"`,
    );

    await page.locator('#show-token').check();
    expect(await snippet(page, 'claude-code')).toBe(`claude mcp add --transport http api-discovery ${stack.url}/mcp --header "Authorization: Bearer ${token}"`);
    expect(JSON.parse(await snippet(page, 'vscode'))).toEqual({
      servers: { 'api-discovery': { type: 'http', url: `${stack.url}/mcp`, headers: { Authorization: `Bearer ${token}` } } },
    });
    expect(JSON.parse(await snippet(page, 'cursor'))).toEqual({
      mcpServers: { 'api-discovery': { url: `${stack.url}/mcp`, headers: { Authorization: `Bearer ${token}` } } },
    });
    expect(JSON.parse(await snippet(page, 'claude-desktop'))).toEqual({
      mcpServers: {
        'api-discovery': {
          command: 'npm',
          args: ['run', '-s', 'mcp', '--prefix', '/path/to/this/repo', '--', '--url', stack.url],
          env: { API_DISCOVERY_TOKEN: token },
        },
      },
    });
    expect(await page.locator('[data-snippet=claude-desktop] .note').textContent()).toContain("where the platform's repository is checked out");

    // Hidden again: gone again.
    await page.locator('#show-token').uncheck();
    expect(await markup(page)).not.toContain(token);

    expect(await page.locator('#token-notice').textContent()).toContain('same access as you');
    // Two hours from now, and what to do then.
    expect(await page.locator('#token-expiry').textContent()).toMatch(/^It expires .+ \(in 2 hours\)\. .*sign in again/);
    expect(await page.locator('#tool-list dt').allTextContents()).toEqual([
      'search_apis',
      'get_operation',
      'rate_result',
      'get_api',
      'compare_versions',
      'list_apis',
      'api-spec://{apiId}',
    ]);
    if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('should copy the real configuration while the token is hidden, and the VS Code one connects an MCP client to the six tools', async () => {
    const page = await signedInPage(1200);
    await openPanel(page);
    await page.locator('[data-snippet=vscode] button.copy').click();
    await page.locator('[data-snippet=vscode] .copy-message', { hasText: 'Copied.' }).waitFor();
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(copied).toContain(`Bearer ${token}`);
    expect(await markup(page)).not.toContain(token);

    // What the page shows once the token is shown is what was copied.
    await page.locator('#show-token').check();
    const shown = await snippet(page, 'vscode');
    expect(shown).toBe(copied);

    const server = (JSON.parse(shown) as HttpServerConfig).servers['api-discovery'];
    expect(server.type).toBe('http');
    const client = new Client({ name: 'web-ui-assistant-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['compare_versions', 'get_api', 'get_operation', 'list_apis', 'rate_result', 'search_apis']);
      // The page lists every tool the server offers (#39: compare_versions was missing).
      const listed = await page.locator('#tool-list dt').allTextContents();
      expect(listed.filter((name) => !name.includes('://')).sort()).toEqual(tools.map((tool) => tool.name).sort());
    } finally {
      await client.close();
    }
  });

  it('should say how to copy by hand where the browser gives no clipboard', async () => {
    const page = await signedInPage(1200, { noClipboard: true });
    await openPanel(page);
    await page.locator('[data-snippet=claude-code] button.copy').click();
    expect(await page.locator('[data-snippet=claude-code] .copy-message').textContent()).toContain('tick "Show token", then select the text and copy it');
    expect(await markup(page)).not.toContain(token);
  });

  it('should fit a phone screen, with the token hidden and shown', async () => {
    const page = await signedInPage(390);
    await openPanel(page);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.locator('#show-token').check();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT.replace(/(\.png)?$/, '-phone.png'), fullPage: true });
  });

  it('should be used by keyboard alone: the nav link, "Show token" and each Copy button', async () => {
    const page = await signedInPage(1200);
    await page.goto(`${stack.url}/#/search`);
    await page.locator('#search-input').waitFor();
    /** Tabs until `selector` has the focus (and says so), at most 40 times. */
    const tabTo = async (selector: string) => {
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    await page.evaluate('document.activeElement?.blur()');
    await tabTo('nav a[href="#/assistant"]');
    await page.keyboard.press('Enter');
    await page.locator('#snippet-claude-desktop').waitFor();

    await tabTo('#show-token');
    await page.keyboard.press('Space');
    expect(await snippet(page, 'claude-code')).toContain(`Bearer ${token}`);

    await tabTo('[data-snippet=claude-desktop] button.copy');
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe('Copy Claude Desktop configuration');
    await page.keyboard.press('Enter');
    await page.locator('[data-snippet=claude-desktop] .copy-message', { hasText: 'Copied.' }).waitFor();
    expect(JSON.parse((await page.evaluate('navigator.clipboard.readText()')) as string).mcpServers['api-discovery'].env).toEqual({
      API_DISCOVERY_TOKEN: token,
    });
    // The snippet itself takes the focus, so a long line can be scrolled by keyboard.
    await tabTo('#snippet-claude-desktop');
  });
});
