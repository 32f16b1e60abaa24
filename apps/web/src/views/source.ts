import type { ApiRecord, ApiRefreshResult, ApiVersionRecord } from '../../../../libs/contracts/src/index.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, versionLabel } from '../components.js';
import { formatDate, h, handler, replace } from '../dom.js';
import { changeCountsText } from './changes.js';
import { changesHash } from './versions.js';

/** What the last "Refresh now" said, kept for the page drawn after it (the refresh changes what the page shows). */
const refreshed = new Map<string, ApiRefreshResult>();

/** What a refresh did, in words: unchanged, the revision it made (with its warnings and what changed), or why it failed. */
function refreshNote(api: ApiRecord, result: ApiRefreshResult): HTMLElement {
  const version = api.source?.version ?? api.version;
  if (result.outcome === 'unchanged') {
    return h('p', { class: 'refresh-result', 'data-outcome': 'unchanged' }, 'Unchanged: the document at the URL is the spec registered now.');
  }
  if (result.outcome === 'failed') {
    return h(
      'div',
      { class: 'error-box refresh-result', role: 'alert', 'data-outcome': 'failed' },
      h('strong', {}, 'Refresh failed: '),
      result.error ?? 'the URL could not be fetched',
      h('div', { class: 'hint' }, 'The last good spec stays registered.'),
    );
  }
  const revision = result.revision;
  return h(
    'div',
    { class: 'refresh-result', 'data-outcome': 'updated' },
    h(
      'p',
      {},
      revision !== undefined ? `Updated to revision ${revision} of ${versionLabel(version)}.` : `Updated ${versionLabel(version)}.`,
      ' Search and agents follow once it is indexed.',
    ),
    result.warnings?.length
      ? h(
          'div',
          { class: 'notice refresh-warnings', role: 'alert' },
          h('strong', {}, 'Warning'),
          h(
            'ul',
            {},
            result.warnings.map((warning) => h('li', {}, warning)),
          ),
        )
      : null,
    result.changes
      ? h(
          'p',
          { class: 'muted refresh-changes' },
          `Compared with the revision before: ${changeCountsText(result.changes)}`,
          revision !== undefined && revision > 1
            ? [' ', h('a', { href: changesHash(api.apiId, `${version}@${revision - 1}`, `${version}@${revision}`) }, 'What changed')]
            : null,
        )
      : null,
  );
}

/**
 * Where an imported API's spec comes from (#31): the URL it is fetched from, or the tree and path
 * of a folder import; when it was last fetched and the last fetch's failure. A publisher can
 * refresh a URL source now: the page is drawn again (`redraw`) with what the refresh did.
 * Nothing when the API was registered from a request body.
 */
export function sourceSection(
  api: ApiRecord,
  options: { token: string; canRefresh: boolean; redraw: () => void; viewed?: Pick<ApiVersionRecord, 'version' | 'source'> },
): HTMLElement | null {
  const { source, catalog } = api;
  if (!source) return null;
  const file = source.tree !== undefined && options.viewed?.source?.tree === source.tree ? options.viewed.source.path : undefined;
  const fed = source.url ? source.version : file ? options.viewed?.version : undefined;
  const last = refreshed.get(api.apiId);
  refreshed.delete(api.apiId);
  const message = h('div', { id: 'source-message', class: 'source-message', 'aria-live': 'polite', tabindex: -1 }, last ? refreshNote(api, last) : null);
  // Drawn anew after a refresh: what it did is focused (so read out), once the page holds it.
  if (last) window.setTimeout(() => message.isConnected && message.focus());
  const row = (term: string, ...value: (Node | string)[]) => [h('dt', {}, term), h('dd', {}, ...value)];
  const refresh =
    source.url && options.canRefresh
      ? h(
          'button',
          {
            type: 'button',
            id: 'refresh-source',
            onclick: handler(async () => {
              refresh!.disabled = true;
              replace(message, h('p', { class: 'loading' }, 'Fetching the URL…'));
              try {
                refreshed.set(api.apiId, await ragApiClient.refreshApi(options.token, api.apiId));
              } catch (error) {
                refresh!.disabled = false;
                replace(message, errorBox(error, 'Refresh refused'));
                message.focus();
                return;
              }
              // Revision, fetch time and the last error all change: the page is drawn again, with the answer.
              options.redraw();
            }),
          },
          'Refresh now',
        )
      : null;
  return h(
    'section',
    { id: 'api-source', class: 'api-source', 'aria-labelledby': 'api-source-heading', 'data-source': source.url ? 'url' : 'folder' },
    h('div', { class: 'section-head' }, h('h2', { id: 'api-source-heading' }, 'Source'), refresh),
    h(
      'dl',
      { class: 'source-facts' },
      // As text, never a link: the address is the publisher's, and only the server should fetch it.
      source.url ? row('Imported from', h('code', { id: 'source-url', class: 'path' }, source.url)) : null,
      source.tree !== undefined ? row('Folder import', h('code', { id: 'source-tree', class: 'path' }, source.tree)) : null,
      // A tree's files feed its versions one each: the one of the version shown.
      file ? row('File', h('code', { id: 'source-path', class: 'path' }, file)) : null,
      fed ? row('Feeds', versionLabel(fed)) : null,
      source.url ? row('Last fetched', h('span', { id: 'source-fetched' }, source.fetchedAt ? formatDate(source.fetchedAt) : 'never')) : null,
      // A Backstage entity's place in the catalogue, as its descriptor says (#42).
      ...(catalog
        ? [
            row('Backstage entity', h('code', { id: 'catalog-entity', class: 'path' }, catalog.entityRef)),
            catalog.owner ? row('Owner', h('code', { id: 'catalog-owner', class: 'path' }, catalog.owner)) : null,
            catalog.system ? row('System', h('span', { id: 'catalog-system' }, catalog.system)) : null,
            catalog.tags?.length ? row('Tags', h('span', { id: 'catalog-tags' }, catalog.tags.join(', '))) : null,
          ]
        : []),
    ),
    source.lastError
      ? h(
          'div',
          { id: 'source-error', class: 'error-box source-error' },
          h('strong', {}, 'Last fetch failed: '),
          source.lastError,
          h('div', { class: 'hint' }, 'The spec shown is the last one fetched successfully.'),
        )
      : null,
    message,
  );
}
