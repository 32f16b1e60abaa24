import type { ApiEndpoint, ApiRecord, ApiVersionRecord } from '../../../../libs/contracts/src/index.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, kindBadge, lifecycleBadge, statusLine, versionLabel, watchStatus } from '../components.js';
import { withForceConfirm } from '../consumer-parts.js';
import type { ViewContext } from '../context.js';
import { formatDate, h, handler, replace } from '../dom.js';
import { noteOpened } from '../feedback.js';
import { speaksHttp } from '../kinds.js';
import { labelChips, labelParams, labelText } from '../labels.js';
import { specActions } from '../spec-actions.js';
import { consumersSection, loadConsumers, watchToggle } from './consumers.js';
import { apiOverviewSection, operationRow } from './operations.js';
import { detailsForm } from './details-form.js';
import { sourceSection } from './source.js';
import { lifecycleBanner, lintUnavailable, showLint, stageForm, toldNotice, versionHash, versionsSection } from './versions.js';

/** An API at the version its page shows. */
interface Viewed {
  api: ApiRecord;
  versions: ApiVersionRecord[];
  /** The version shown: the one asked for (`?version=`), else the recommended one. */
  viewed: string;
  isRecommended: boolean;
  viewedRecord?: ApiVersionRecord;
  /** Versions other than the recommended one come with their own `?version=`; the recommended one's routes are the plain ones. */
  version?: string;
}

/** `listed`: the API's versions, when they could be listed; else what its record says of them. */
function viewedVersion(api: ApiRecord, listed: ApiVersionRecord[] | undefined, requested: string | undefined): Viewed {
  const versions: ApiVersionRecord[] =
    listed ??
    api.versions.map((item) => ({
      ...item,
      apiId: api.apiId,
      kind: api.kind,
      revision: item.version === api.version ? api.revision : 0,
      recommended: item.version === api.version,
      createdAt: api.createdAt,
      updatedAt: api.updatedAt,
    }));
  const viewed = requested ?? api.version;
  const isRecommended = viewed === api.version;
  return { api, versions, viewed, isRecommended, viewedRecord: versions.find((item) => item.version === viewed), version: isRecommended ? undefined : viewed };
}

/** Keeps the API's status line current until the page is left. */
function watchApiStatus(ctx: ViewContext, apiId: string, status: HTMLElement): void {
  ctx.onLeave(
    watchStatus(
      () => ragApiClient.getIndexingStatus(ctx.session.token, apiId),
      (next) => replace(status, statusLine(next)),
    ),
  );
}

/** Only the recommended version is indexed: another's page says so rather than showing the index's status. */
function indexingStatus(ctx: ViewContext, apiId: string, { api, isRecommended }: Viewed): HTMLElement {
  const status = h(
    'div',
    { id: 'api-status' },
    isRecommended
      ? statusLine(api.indexing)
      : h(
          'p',
          { class: 'muted' },
          'Search and agents use ',
          h('a', { href: versionHash(api.apiId, api.version, api.version) }, `${versionLabel(api.version)}, the recommended version`),
          '; this version is not indexed for search.',
        ),
  );
  if (isRecommended) watchApiStatus(ctx, apiId, status);
  return status;
}

/** What may be done with the API, by role: update its spec, add a version, view the spec, re-index it, delete it. */
function detailActions(ctx: ViewContext, apiId: string, { api, version }: Viewed, status: HTMLElement, message: HTMLElement): HTMLElement {
  const { session } = ctx;
  return h(
    'div',
    { class: 'actions' },
    watchToggle(session.token, api.apiId, message),
    session.can('publisher')
      ? h(
          'a',
          { class: 'button', id: 'update-spec', href: `#/register?${new URLSearchParams({ apiId: api.apiId, ...(version ? { version } : {}) })}` },
          'Update spec',
        )
      : null,
    session.can('publisher')
      ? h('a', { class: 'button', id: 'new-version', href: `#/register?${new URLSearchParams({ apiId: api.apiId, mode: 'version' })}` }, 'New version')
      : null,
    specActions(session.token, api.apiId, message, version),
    session.can('admin')
      ? h(
          'button',
          {
            type: 'button',
            onclick: handler(async () => {
              try {
                const run = await ragApiClient.startReindex(session.token, { apiIds: [api.apiId] });
                replace(message, h('span', { class: 'muted' }, `Re-index queued (${run.queued}).`));
                watchApiStatus(ctx, apiId, status);
              } catch (error) {
                replace(message, errorBox(error, 'Re-index failed'));
              }
            }),
          },
          'Re-index',
        )
      : null,
    session.can('publisher')
      ? h(
          'button',
          {
            type: 'button',
            class: 'danger',
            onclick: handler(async () => {
              if (!window.confirm(`Delete ${api.name} ${api.version}? It leaves the catalogue and search.`)) return;
              // Used by consumers: a 409 names them, and asks before deleting all the same.
              await withForceConfirm(message, 'Delete failed', `Delete ${api.name} anyway`, async (force) => {
                await ragApiClient.deleteApi(session.token, api.apiId, force);
                ctx.navigate('#/catalogue');
              });
            }),
          },
          'Delete',
        )
      : null,
  );
}

/** The header: name, version and stage, kind and format, labels, facts, then `below` (status, actions, their message). */
function detailHeader(page: Viewed, kind: string | undefined, format: string | undefined, ...below: HTMLElement[]): HTMLElement {
  const { api, viewed, isRecommended, viewedRecord } = page;
  const lifecycle = viewedRecord?.lifecycle ?? (isRecommended ? api.lifecycle : undefined);
  return h(
    'header',
    { class: 'detail-header' },
    h(
      'h1',
      {},
      api.name,
      ' ',
      h('span', { class: 'version', id: 'viewed-version' }, versionLabel(viewed)),
      lifecycle ? [' ', lifecycleBadge(lifecycle)] : null,
    ),
    kind ? h('div', { class: 'kind-line' }, kindBadge(kind), format ? h('span', { class: 'format', id: 'api-format' }, format) : null) : null,
    // Each label a link to the catalogue's APIs that carry it too.
    labelChips(api.labels, {
      href: (key, value) => `#/catalogue?${new URLSearchParams({ label: labelParams({ [key]: value })[0] })}`,
      title: (key, value) => `Every API labelled ${labelText(key, value)}`,
    }),
    h(
      'div',
      { class: 'muted', id: 'api-facts' },
      api.teamName ? `Team ${api.teamName} · ` : '',
      `org ${api.orgId} · `,
      // Two counters, named: the API's goes up with every change search sees (details, labels,
      // stages, a new spec of the recommended version); a version's with every new spec of it.
      h(
        'span',
        { id: 'api-revision', title: 'Goes up with every change search sees: name, team, description, labels, stages, a new spec of the recommended version' },
        `API revision ${api.revision}`,
      ),
      viewedRecord
        ? [
            ' · ',
            h(
              'span',
              { id: 'spec-revision', title: `Goes up with every new spec of ${versionLabel(viewed)}` },
              `${versionLabel(viewed)} spec revision ${viewedRecord.revision}`,
            ),
          ]
        : null,
      ` · updated ${formatDate(isRecommended ? api.updatedAt : viewedRecord?.updatedAt)}`,
    ),
    below,
  );
}

/** Every operation, grouped by tag (untagged ones under Other); `searchId`: opening one is feedback on that search. */
function operationsSection(token: string, page: Viewed, endpoints: ApiEndpoint[], kind: string | undefined, searchId: string | undefined): HTMLElement {
  const { api, version } = page;
  const byTag = new Map<string, ApiEndpoint[]>();
  for (const endpoint of endpoints) {
    for (const tag of endpoint.tags.length ? endpoint.tags : ['Other']) byTag.set(tag, [...(byTag.get(tag) ?? []), endpoint]);
  }
  return h(
    'div',
    { id: 'operations' },
    h('h2', {}, `${speaksHttp(kind) ? 'Endpoints' : 'Operations'} (${endpoints.length})`),
    endpoints.length === 0 ? h('p', { class: 'empty' }, 'This spec has no operations.') : null,
    [...byTag].map(([tag, items]) =>
      h(
        'section',
        { class: 'tag-group' },
        h('h3', {}, tag),
        h(
          'ul',
          { class: 'endpoints' },
          items.map((endpoint) =>
            operationRow(
              token,
              api.apiId,
              endpoint,
              kind,
              version,
              searchId ? () => noteOpened(token, searchId, api.apiId, { method: endpoint.method, path: endpoint.path }) : undefined,
            ),
          ),
        ),
      ),
    ),
  );
}

/** A card's operation opens on arrival, and its opening is the feedback; without one, the API's opening is. */
function openChosenOperation(ctx: ViewContext, operations: HTMLElement, apiId: string, searchId: string | undefined): void {
  const chosen = ctx.params.get('operation');
  const row = chosen
    ? [...operations.querySelectorAll<HTMLDetailsElement>('details.operation')].find((details) => details.dataset.operation === chosen)
    : undefined;
  if (row) {
    row.open = true;
    row.querySelector('summary')!.focus();
  } else if (searchId) {
    noteOpened(ctx.session.token, searchId, apiId);
  }
}

/**
 * An API at one of its versions (#/apis/:id?version=…, the recommended one without it): its facts,
 * where an imported one's spec comes from, versions and their stages, live indexing status, the
 * services that use it (and a form to add one's own), servers and auth, lint findings, and every
 * endpoint grouped by tag, each opening to its detail.
 */
export async function detailView(ctx: ViewContext, apiId: string): Promise<void> {
  const { session } = ctx;
  const requested = ctx.params.get('version') || undefined;
  replace(ctx.main, h('p', { class: 'loading' }, 'Loading…'));
  let api: ApiRecord, endpoints: ApiEndpoint[];
  // Best effort: an API has none until its spec is indexed.
  const overview = ragApiClient.getOperations(session.token, apiId, requested).catch((error: Error) => error);
  // Best effort too: the page still shows the API without its list of versions.
  const versionList = ragApiClient.listVersions(session.token, apiId).then(
    ({ items }) => items,
    () => undefined,
  );
  try {
    [api, { items: endpoints }] = await Promise.all([ragApiClient.getApi(session.token, apiId), ragApiClient.getEndpoints(session.token, apiId, requested)]);
  } catch (error) {
    replace(
      ctx.main,
      errorBox(error, requested ? `Could not load version "${requested}" of this API` : 'Could not load this API'),
      h('p', {}, requested ? h('a', { href: `#/apis/${apiId}` }, '← The recommended version') : h('a', { href: '#/catalogue' }, '← Catalogue')),
    );
    return;
  }
  const page = viewedVersion(api, await versionList, requested);
  const { viewed, viewedRecord } = page;
  const status = indexingStatus(ctx, apiId, page);
  const message = h('div', { class: 'action-message', 'aria-live': 'polite' });
  const actions = detailActions(ctx, apiId, page, status, message);

  const details = await overview;
  // The registry knows the kind from registration; the indexed spec also knows its format and version.
  const kind = api.kind ?? (details instanceof Error ? undefined : details.kind);
  const format = details instanceof Error ? undefined : details.format;
  // Reached from a search's card (see `cardHash`): opening the API, or an operation here, is feedback on that search.
  const searchId = ctx.params.get('searchId') || undefined;
  const operations = operationsSection(session.token, page, endpoints, kind, searchId);
  const lint = h(
    'section',
    { id: 'lint', class: 'lint', 'aria-labelledby': 'lint-heading' },
    h('h2', { id: 'lint-heading' }, 'Lint'),
    h('p', { class: 'loading' }, 'Linting…'),
  );
  const redraw = () => ctx.navigate(location.hash);
  const consumers = loadConsumers(session.token, api.apiId);

  replace(
    ctx.main,
    h('p', {}, h('button', { type: 'button', class: 'link', onclick: () => history.back() }, '← Back')),
    lifecycleBanner(api.apiId, viewedRecord, api.version),
    detailHeader(page, kind, format, status, actions, message),
    api.description ? h('p', { class: 'description' }, api.description) : null,
    session.can('publisher') ? detailsForm(session.token, api, redraw) : null,
    // Imported (#31): where the spec comes from; a URL's publishers can fetch it again now.
    sourceSection(api, { token: session.token, canRefresh: session.can('publisher'), redraw, viewed: viewedRecord }),
    versionsSection(api.apiId, page.versions, viewed, api.version),
    toldNotice(api.apiId, viewed),
    session.can('publisher') && viewedRecord
      ? stageForm(session.token, api.apiId, viewedRecord, redraw, consumers, () => ctx.navigate(`#/apis/${api.apiId}`))
      : null,
    consumersSection(ctx, { apiId: api.apiId, apiName: api.name, versions: page.versions, recommended: api.version, viewed, endpoints }, consumers),
    apiOverviewSection(details, api.description),
    lint,
    operations,
  );
  openChosenOperation(ctx, operations, api.apiId, searchId);
  // Linted when first asked for: the rows show first, their findings when they come.
  ragApiClient.getLint(session.token, api.apiId, viewed).then(
    (report) => lint.isConnected && showLint(lint, operations, report),
    (error: unknown) => lint.isConnected && lintUnavailable(lint, error),
  );
}
