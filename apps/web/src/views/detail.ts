import type { ApiEndpoint } from '../../../../libs/contracts/src/index.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, kindBadge, statusLine, versionLabel, watchStatus } from '../components.js';
import type { ViewContext } from '../context.js';
import { formatDate, h, replace } from '../dom.js';
import { speaksHttp } from '../kinds.js';
import { labelChips, labelParams, labelText } from '../labels.js';
import { specActions } from '../spec-actions.js';
import { apiOverviewSection, operationRow } from './operations.js';

/** An API: its facts, live indexing status, servers and auth, and every endpoint grouped by tag, each opening to its detail. */
export async function detailView(ctx: ViewContext, apiId: string): Promise<void> {
  const { session } = ctx;
  replace(ctx.main, h('p', { class: 'loading' }, 'Loading…'));
  let api, endpoints: ApiEndpoint[];
  // Best effort: an API has none until its spec is indexed.
  const overview = ragApiClient.getOperations(session.token, apiId).catch((error: Error) => error);
  try {
    [api, { items: endpoints }] = await Promise.all([ragApiClient.getApi(session.token, apiId), ragApiClient.getEndpoints(session.token, apiId)]);
  } catch (error) {
    replace(ctx.main, errorBox(error, 'Could not load this API'), h('p', {}, h('a', { href: '#/catalogue' }, '← Catalogue')));
    return;
  }

  const status = h('div', { id: 'api-status' }, statusLine(api.indexing));
  ctx.onLeave(watchStatus(() => ragApiClient.getIndexingStatus(session.token, apiId), (next) => replace(status, statusLine(next))));
  const message = h('div', { class: 'action-message', 'aria-live': 'polite' });

  const actions = h(
    'div',
    { class: 'actions' },
    session.can('publisher') ? h('a', { class: 'button', href: `#/register?apiId=${api.apiId}` }, 'Update spec') : null,
    specActions(session.token, api.apiId, message),
    session.can('admin') ? h('button', { type: 'button', onclick: async () => {
      try {
        const run = await ragApiClient.startReindex(session.token, { apiIds: [api.apiId] });
        replace(message, h('span', { class: 'muted' }, `Re-index queued (${run.queued}).`));
        ctx.onLeave(watchStatus(() => ragApiClient.getIndexingStatus(session.token, apiId), (next) => replace(status, statusLine(next))));
      } catch (error) {
        replace(message, errorBox(error, 'Re-index failed'));
      }
    } }, 'Re-index') : null,
    session.can('publisher') ? h('button', { type: 'button', class: 'danger', onclick: async () => {
      if (!window.confirm(`Delete ${api.name} ${api.version}? It leaves the catalogue and search.`)) return;
      try {
        await ragApiClient.deleteApi(session.token, api.apiId);
        ctx.navigate('#/catalogue');
      } catch (error) {
        replace(message, errorBox(error, 'Delete failed'));
      }
    } }, 'Delete') : null,
  );

  const details = await overview;
  // The registry knows the kind from registration; the indexed spec also knows its format and version.
  const kind = api.kind ?? (details instanceof Error ? undefined : details.kind);
  const format = details instanceof Error ? undefined : details.format;

  const byTag = new Map<string, ApiEndpoint[]>();
  for (const endpoint of endpoints) {
    for (const tag of endpoint.tags.length ? endpoint.tags : ['Other']) byTag.set(tag, [...(byTag.get(tag) ?? []), endpoint]);
  }

  replace(
    ctx.main,
    h('p', {}, h('button', { type: 'button', class: 'link', onclick: () => history.back() }, '← Back')),
    h('header', { class: 'detail-header' },
      h('h1', {}, api.name, ' ', h('span', { class: 'version' }, versionLabel(api.version))),
      kind ? h('div', { class: 'kind-line' }, kindBadge(kind), format ? h('span', { class: 'format', id: 'api-format' }, format) : null) : null,
      // Each label a link to the catalogue's APIs that carry it too.
      labelChips(api.labels, {
        href: (key, value) => `#/catalogue?${new URLSearchParams({ label: labelParams({ [key]: value })[0] })}`,
        title: (key, value) => `Every API labelled ${labelText(key, value)}`,
      }),
      h('div', { class: 'muted' }, api.teamName ? `Team ${api.teamName} · ` : '', `org ${api.orgId} · revision ${api.revision} · updated ${formatDate(api.updatedAt)}`),
      status,
      actions,
      message,
    ),
    api.description ? h('p', { class: 'description' }, api.description) : null,
    apiOverviewSection(details, api.description),
    h('h2', {}, `${speaksHttp(kind) ? 'Endpoints' : 'Operations'} (${endpoints.length})`),
    endpoints.length === 0 ? h('p', { class: 'empty' }, 'This spec has no operations.') : null,
    [...byTag].map(([tag, items]) =>
      h('section', { class: 'tag-group' },
        h('h3', {}, tag),
        h('ul', { class: 'endpoints' }, items.map((endpoint) => operationRow(session.token, api.apiId, endpoint, kind))))),
  );
}
