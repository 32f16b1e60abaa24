import { MCP_RESOURCES, MCP_TOOLS } from '../../../../libs/contracts/src/mcp-tools.js';
import type { ViewContext } from '../context.js';
import { h, handler, replace } from '../dom.js';
import type { Session } from '../session.js';

/** The name the assistant knows this server by in its configuration. */
const SERVER_NAME = 'api-discovery';
/** Stands for the token until it is shown: none of it is in the page before then. */
const MASK = '••••••••••••';

/** One ready-to-copy configuration, written with a token (the real one, or the mask). */
export interface Snippet {
  id: string;
  title: string;
  /** Where it goes, said before it. */
  where: (string | Node)[];
  text: (token: string) => string;
  /** Said after it. */
  note?: (string | Node)[];
}

/**
 * What the MCP server offers, a line each: from the contracts the gateway's MCP server is checked
 * against (`mcp-tools.spec.ts`), so a tool added there cannot be missing here.
 */
const TOOLS: [string, string][] = [
  ...MCP_TOOLS.map((tool): [string, string] => [tool.name, tool.summary]),
  ...MCP_RESOURCES.map((resource): [string, string] => [resource.uriTemplate, resource.summary]),
];

/** `#/assistant`: configuration for an AI assistant to reach this gateway's MCP endpoint with the user's own token. */
export function assistantView(ctx: ViewContext): void {
  const { session } = ctx;
  const origin = location.origin;
  const snippets = assistantSnippets(origin);
  const blocks = snippets.map((snippet) => snippetBlock(snippet, session.token));
  const show = h('input', { type: 'checkbox', id: 'show-token', onchange: () => blocks.forEach((block) => block.reveal(show.checked)) });

  replace(
    ctx.main,
    h(
      'div',
      { class: 'assistant' },
      h('h1', {}, 'Connect an assistant'),
      h('p', { class: 'lead' }, 'Give an AI assistant this catalogue: ask it for an API in words; it gets the operation and how to call it.'),
      h('p', {}, 'The assistant speaks the Model Context Protocol (MCP) to ', h('code', { id: 'mcp-url' }, `${origin}/mcp`), ' with your token.'),
      accessNotice(session),
      h(
        'div',
        { class: 'token-toggle' },
        h('label', {}, show, ' Show token'),
        h('span', { class: 'muted' }, ' Copy copies the whole configuration, token included, even while it is hidden.'),
      ),
      h('h2', {}, 'Claude Code (HTTP)'),
      blocks[0].element,
      h('h2', {}, 'Clients that take an HTTP server with headers'),
      blocks[1].element,
      blocks[2].element,
      h('h2', {}, 'Claude Desktop (stdio, through the bridge)'),
      blocks[3].element,
      h('h2', {}, 'What the assistant gets'),
      h(
        'dl',
        { class: 'tool-list', id: 'tool-list' },
        TOOLS.flatMap(([name, line]) => [h('dt', {}, h('code', {}, name)), h('dd', {}, line)]),
      ),
    ),
  );
}

/** The configurations, for this gateway (`origin`) and a token. */
export function assistantSnippets(origin: string): Snippet[] {
  const endpoint = `${origin}/mcp`;
  const bearer = (token: string) => `Bearer ${token}`;
  // Indented, but a list of plain values on one line: the bridge's arguments read as a command.
  const json = (value: unknown) =>
    JSON.stringify(value, null, 2).replace(/\[\n\s*([^[\]{}]*?)\n\s*\]/g, (_list, items: string) => `[${items.split(/,\n\s*/).join(', ')}]`);
  return [
    {
      id: 'claude-code',
      title: 'Claude Code command',
      where: ['Run in a terminal (add ', h('code', {}, '--scope user'), ' for every project):'],
      text: (token) => `claude mcp add --transport http ${SERVER_NAME} ${endpoint} --header "Authorization: ${bearer(token)}"`,
    },
    {
      id: 'vscode',
      title: 'VS Code configuration',
      where: ['VS Code: ', h('code', {}, '.vscode/mcp.json'), ' (or the user configuration). Other clients that take a URL and headers take the same.'],
      text: (token) => json({ servers: { [SERVER_NAME]: { type: 'http', url: endpoint, headers: { Authorization: bearer(token) } } } }),
    },
    {
      id: 'cursor',
      title: 'Cursor configuration',
      where: ['Cursor: ', h('code', {}, '~/.cursor/mcp.json'), ':'],
      text: (token) => json({ mcpServers: { [SERVER_NAME]: { url: endpoint, headers: { Authorization: bearer(token) } } } }),
    },
    {
      id: 'claude-desktop',
      title: 'Claude Desktop configuration',
      where: [
        'Claude Desktop: ',
        h('code', {}, 'claude_desktop_config.json'),
        ' (Settings → Developer → Edit Config). It runs the bridge, which speaks stdio to the app and HTTP to this gateway:',
      ],
      text: (token) =>
        json({
          mcpServers: {
            [SERVER_NAME]: {
              command: 'npm',
              args: ['run', '-s', 'mcp', '--prefix', '/path/to/this/repo', '--', '--url', origin],
              env: { API_DISCOVERY_TOKEN: token },
            },
          },
        }),
      note: [
        'Replace ',
        h('code', {}, '/path/to/this/repo'),
        " with where the platform's repository is checked out on that computer (with its dependencies installed). If Claude Desktop cannot find ",
        h('code', {}, 'npm'),
        ', give its full path (',
        h('code', {}, 'which npm'),
        ').',
      ],
    },
  ];
}

/** A snippet: shown with the mask until revealed; Copy always copies it with the real token. */
function snippetBlock(snippet: Snippet, token: string): { element: HTMLElement; reveal(shown: boolean): void } {
  const code = h('code', {}, snippet.text(MASK));
  const pre = h('pre', { class: 'config', id: `snippet-${snippet.id}`, tabindex: 0, 'aria-label': snippet.title }, code);
  const message = h('span', { class: 'copy-message', 'aria-live': 'polite' });
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'small copy',
      'aria-label': `Copy ${snippet.title}`,
      onclick: handler(async () => {
        replace(
          message,
          (await copyText(snippet.text(token)))
            ? 'Copied.'
            : h('span', { class: 'error-text' }, 'Copying is not available in this browser: tick "Show token", then select the text and copy it.'),
        );
      }),
    },
    'Copy',
  );
  const element = h(
    'section',
    { class: 'snippet-block', 'data-snippet': snippet.id },
    h('div', { class: 'snippet-head' }, h('p', { class: 'where' }, snippet.where), h('div', { class: 'copy-row' }, copy, message)),
    pre,
    snippet.note ? h('p', { class: 'muted note' }, snippet.note) : null,
  );
  return { element, reveal: (shown) => replace(code, snippet.text(shown ? token : MASK)) };
}

/** The clipboard where the browser gives one (HTTPS or localhost); false where it does not or refuses. */
async function copyText(text: string): Promise<boolean> {
  if (!navigator.clipboard?.writeText) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Whose access the token carries, and until when. */
function accessNotice(session: Session): HTMLElement {
  const { claims } = session;
  const expires = claims.exp === undefined ? undefined : new Date(claims.exp * 1000);
  return h(
    'div',
    { class: 'notice', id: 'token-notice' },
    h(
      'p',
      {},
      h('strong', {}, 'The token gives the assistant the same access as you'),
      ` (${claims.roles.join(', ') || 'no role'} in ${claims.orgs.join(', ')}). The tools only read, but anyone who reads the configuration can use the token for anything you can do: keep it out of repositories.`,
    ),
    expires
      ? h(
          'p',
          { id: 'token-expiry' },
          `It expires ${expires.toLocaleString()} (${timeLeft(expires.getTime() - Date.now())}). Then the assistant's calls are refused: sign in again and replace the token in its configuration.`,
        )
      : h(
          'p',
          { id: 'token-expiry' },
          "The token does not say when it expires: when the assistant's calls are refused, get a new one and replace it in the configuration.",
        ),
    claims.orgs.length > 1 ? h('p', {}, `Your token has ${claims.orgs.length} orgs: the assistant names one (orgId) when it searches.`) : null,
  );
}

function timeLeft(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 90) return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} hours`;
  return `in ${Math.round(hours / 24)} days`;
}
