import type { ApiRecord, LifecycleStage, ReindexProgress } from '../../../../libs/contracts/src/index.js';
import { LIFECYCLE_STAGES } from '../../../../libs/contracts/src/versions.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, kindBadge, lifecycleBadge, statusBadge, versionLabel } from '../components.js';
import type { ViewContext } from '../context.js';
import { formatDate, h, handler, replace } from '../dom.js';
import { kindLabel, knownKinds } from '../kinds.js';
import { type Labels, labelChips, labelFilter, labelParams, labelsFromParams, labelText } from '../labels.js';
import type { Session } from '../session.js';

const PAGE_SIZE = 50;

/** Every API of the org with its status; admins re-index one API or the whole org and watch the run. */
export async function catalogueView(ctx: ViewContext): Promise<void> {
  const { session } = ctx;
  const page = Math.max(1, Number(ctx.params.get('page') ?? 1) || 1);
  const kind = ctx.params.get('kind') ?? '';
  const labels = labelsFromParams(ctx.params);
  // Stages of the APIs' recommended versions, repeated (lifecycle=production&lifecycle=preview), as the API takes them.
  const stages = ctx.params.getAll('lifecycle').filter((stage): stage is LifecycleStage => (LIFECYCLE_STAGES as readonly string[]).includes(stage));
  const filtered = Object.keys(labels).length > 0 || stages.length > 0;
  replace(ctx.main, h('p', { class: 'loading' }, 'Loading…'));
  let items: ApiRecord[];
  let total: number;
  try {
    ({ items, total } = await ragApiClient.listApis(session.token, {
      orgId: session.org,
      kind,
      labels: labelParams(labels),
      lifecycle: stages,
      page,
      pageSize: PAGE_SIZE,
    }));
  } catch (error) {
    replace(ctx.main, h('h1', {}, `Catalogue of ${session.org}`), catalogueFilters(ctx, kind, labels, stages), errorBox(error, 'Could not list the APIs'));
    return;
  }
  const pageLink = (to: number) => catalogueHash(kind, labels, stages, to);
  // A label in a row narrows the list to the APIs that carry it too.
  const addLabel = (key: string, value: string) => ctx.navigate(catalogueHash(kind, { ...labels, [key]: value }, stages));

  const progress = h('div', { id: 'reindex-progress', 'aria-live': 'polite' });
  const reindex: Reindex = async (request) => {
    try {
      const run = await ragApiClient.startReindex(session.token, request);
      followRun(ctx, progress, run.reindexId);
    } catch (error) {
      replace(progress, errorBox(error, 'Re-index refused'));
    }
  };

  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  replace(
    ctx.main,
    catalogueHeader(session, total, reindex),
    catalogueFilters(ctx, kind, labels, stages),
    progress,
    total === 0 ? emptyCatalogue(session, kind, labels, filtered) : catalogueTable(session, items, addLabel, reindex),
    pages > 1
      ? h(
          'nav',
          { class: 'pager' },
          page > 1 ? h('a', { href: pageLink(page - 1) }, '← Previous') : null,
          h('span', { class: 'muted' }, ` page ${page} of ${pages} `),
          page < pages ? h('a', { href: pageLink(page + 1) }, 'Next →') : null,
        )
      : null,
  );
}

/** Starts a re-index of the org (`orgId`) or of some APIs (`apiIds`), and follows its run. */
type Reindex = (request: { orgId?: string; apiIds?: string[] }) => Promise<void>;

/** The title with the count, and what the role allows: registering an API, re-indexing the org. */
function catalogueHeader(session: Session, total: number, reindex: Reindex): HTMLElement {
  return h(
    'header',
    { class: 'catalogue-header' },
    h('h1', {}, `Catalogue of ${session.org}`, h('span', { class: 'muted' }, ` · ${total} API${total === 1 ? '' : 's'}`)),
    h(
      'div',
      { class: 'actions' },
      session.can('publisher') ? h('a', { class: 'button', href: '#/register' }, 'Register an API') : null,
      session.can('admin') && total > 0
        ? h('button', { type: 'button', id: 'reindex-org', onclick: handler(() => reindex({ orgId: session.org })) }, 'Re-index the org')
        : null,
    ),
  );
}

/** Why the list is empty, with the way out: the filters to drop, or the first API to register. */
function emptyCatalogue(session: Session, kind: string, labels: Labels, filtered: boolean): HTMLElement {
  if (filtered)
    return h(
      'p',
      { class: 'empty' },
      `No ${kind ? `${kindLabel(kind)} ` : ''}API in ${session.org} with these ${Object.keys(labels).length ? 'labels' : 'stages'}. `,
      h('a', { href: catalogueHash(kind, {}, []) }, Object.keys(labels).length ? 'Show every label.' : 'Show every stage.'),
    );
  if (kind) return h('p', { class: 'empty' }, `No ${kindLabel(kind)} API in ${session.org}. `, h('a', { href: '#/catalogue' }, 'Show every kind.'));
  return h(
    'p',
    { class: 'empty' },
    `No API in ${session.org} yet. `,
    session.can('publisher') ? h('a', { href: '#/register' }, 'Register the first one.') : 'Ask a publisher to register one.',
  );
}

/** The APIs, a row each. On a phone the team and indexed columns give way; what is left scrolls inside its box. */
function catalogueTable(session: Session, items: ApiRecord[], addLabel: (key: string, value: string) => void, reindex: Reindex): HTMLElement {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'catalogue' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'API'),
          h('th', {}, 'Version'),
          h('th', { class: 'optional-column' }, 'Team'),
          h('th', {}, 'Status'),
          h('th', { class: 'optional-column' }, 'Indexed'),
          session.can('admin') ? h('th', {}, '') : null,
        ),
      ),
      h(
        'tbody',
        {},
        items.map((api) => catalogueRow(session, api, addLabel, reindex)),
      ),
    ),
  );
}

/** One API's row: name, kind and labels; version and stage; team; status; when indexed; and, for admins, a re-index button. */
function catalogueRow(session: Session, api: ApiRecord, addLabel: (key: string, value: string) => void, reindex: Reindex): HTMLElement {
  return h(
    'tr',
    { 'data-api-id': api.apiId },
    // The kind beside the name, not a column of its own: on a phone the status must still fit.
    h(
      'td',
      {},
      h('a', { href: `#/apis/${api.apiId}` }, api.name),
      api.kind ? [' ', kindBadge(api.kind)] : null,
      labelChips(api.labels, { onClick: addLabel, title: (key, value) => `Only APIs labelled ${labelText(key, value)}` }),
    ),
    h(
      'td',
      { class: 'version-cell' },
      api.version,
      api.lifecycle && api.lifecycle !== 'production' ? [' ', lifecycleBadge(api.lifecycle)] : null,
      api.lifecycle === 'deprecated' && api.sunsetDate ? h('div', { class: 'muted deprecated-note' }, `sunset ${api.sunsetDate}`) : null,
      (api.versions ?? []).length > 1
        ? h(
            'div',
            { class: 'muted other-versions' },
            'also ',
            api.versions
              .filter((item) => item.version !== api.version)
              .map((item) => `${versionLabel(item.version)} (${item.lifecycle})`)
              .join(', '),
          )
        : null,
    ),
    h('td', { class: 'optional-column' }, api.teamName ?? ''),
    h('td', { title: api.indexing?.error ?? '' }, statusBadge(api.indexing?.status)),
    h('td', { class: 'muted optional-column' }, formatDate(api.indexing?.indexedAt)),
    session.can('admin')
      ? h('td', {}, h('button', { type: 'button', class: 'small', onclick: handler(() => reindex({ apiIds: [api.apiId] })) }, 'Re-index'))
      : null,
  );
}

/** The catalogue's route: #/catalogue?kind=grpc&label=team:payments&lifecycle=preview&page=2 (labels and stages repeated, as the API takes them). */
function catalogueHash(kind: string, labels: Labels, stages: readonly string[], page?: number): string {
  const params = new URLSearchParams();
  if (kind) params.set('kind', kind);
  for (const label of labelParams(labels)) params.append('label', label);
  for (const stage of stages) params.append('lifecycle', stage);
  if (page) params.set('page', String(page));
  const query = params.toString();
  return `#/catalogue${query ? `?${query}` : ''}`;
}

/**
 * Which kind of API to list, and which labels it must carry; a kind takes effect at once, a label
 * on Enter (or Filter); both live in the URL (#/catalogue?kind=grpc&label=env:prod).
 */
function catalogueFilters(ctx: ViewContext, kind: string, labels: Labels, stages: LifecycleStage[]): HTMLElement {
  const kinds = [...new Set([...knownKinds().map((known) => known.kind), ...(kind ? [kind] : [])])];
  const ticked = () => [...form.querySelectorAll<HTMLInputElement>('input[name=lifecycle]:checked')].map((box) => box.value);
  const select = h(
    'select',
    { id: 'catalogue-kind', name: 'kind', onchange: () => ctx.navigate(catalogueHash(select.value, labels, ticked())) },
    h('option', { value: '', selected: !kind }, 'Every kind'),
    kinds.map((name) => h('option', { value: name, selected: name === kind }, kindLabel(name))),
  );
  const labelBox = labelFilter({ id: 'catalogue-label', chosen: labels, onRemove: (rest) => ctx.navigate(catalogueHash(kind, rest, ticked())) });
  // A stage takes effect at once, as the kind does.
  const stageBoxes = LIFECYCLE_STAGES.map((stage) =>
    h(
      'label',
      { class: 'lifecycle-filter' },
      h('input', {
        type: 'checkbox',
        name: 'lifecycle',
        value: stage,
        checked: stages.includes(stage),
        onchange: () => ctx.navigate(catalogueHash(select.value, labels, ticked())),
      }),
      stage,
    ),
  );
  const form = h(
    'form',
    {
      class: 'filters catalogue-filters',
      role: 'search',
      'aria-label': 'Filter the catalogue',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const chosen = labelBox.read();
        if (chosen) ctx.navigate(catalogueHash(select.value, chosen, ticked()));
      },
    },
    h('label', {}, 'Kind ', select),
    labelBox.element,
    h(
      'span',
      { class: 'stages', role: 'group', 'aria-labelledby': 'catalogue-stages-label' },
      h('span', { id: 'catalogue-stages-label' }, 'Lifecycle'),
      stageBoxes,
    ),
    h('button', { type: 'submit', class: 'small', id: 'catalogue-filter' }, 'Filter'),
  );
  return form;
}

/** Polls a re-index run until it completes, drawing its progress. */
function followRun(ctx: ViewContext, into: HTMLElement, reindexId: string): void {
  let stopped = false;
  ctx.onLeave(() => (stopped = true));
  const draw = (run: ReindexProgress) => {
    const finished = run.done + run.failed;
    const percent = run.total ? Math.round((finished / run.total) * 100) : 100;
    replace(
      into,
      h(
        'div',
        { class: 'run', 'data-run-status': run.status },
        h('strong', {}, run.status === 'COMPLETED' ? 'Re-index complete' : 'Re-indexing…'),
        h('span', {}, ` ${finished}/${run.total} done${run.failed ? `, ${run.failed} failed` : ''}`),
        h('div', { class: 'progress' }, h('span', { class: 'progress-bar', style: `width:${percent}%` })),
        run.failures.length
          ? h(
              'ul',
              { class: 'failures' },
              run.failures.map((failure) => h('li', {}, h('a', { href: `#/apis/${failure.apiId}` }, failure.apiId), `: ${failure.error}`)),
            )
          : null,
      ),
    );
  };
  const tick = async () => {
    if (stopped) return;
    try {
      const run = await ragApiClient.getReindexProgress(ctx.session.token, reindexId);
      if (stopped) return;
      draw(run);
      if (run.status !== 'COMPLETED') window.setTimeout(tick, 1000);
    } catch (error) {
      replace(into, errorBox(error, 'Could not read the re-index progress'));
    }
  };
  void tick();
}
