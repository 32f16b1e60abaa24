import type { ApiRecord, ReindexProgress } from '../../../../libs/contracts/src/index.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, kindBadge, statusBadge } from '../components.js';
import type { ViewContext } from '../context.js';
import { formatDate, h, replace } from '../dom.js';
import { kindLabel, knownKinds } from '../kinds.js';

const PAGE_SIZE = 50;

/** Every API of the org with its status; admins re-index one API or the whole org and watch the run. */
export async function catalogueView(ctx: ViewContext): Promise<void> {
  const { session } = ctx;
  const page = Math.max(1, Number(ctx.params.get('page') ?? 1) || 1);
  const kind = ctx.params.get('kind') ?? '';
  replace(ctx.main, h('p', { class: 'loading' }, 'Loading…'));
  let items: ApiRecord[];
  let total: number;
  try {
    ({ items, total } = await ragApiClient.listApis(session.token, { orgId: session.org, kind, page, pageSize: PAGE_SIZE }));
  } catch (error) {
    replace(ctx.main, h('h1', {}, `Catalogue of ${session.org}`), kindFilter(ctx, kind), errorBox(error, 'Could not list the APIs'));
    return;
  }
  const pageLink = (to: number) => `#/catalogue?${new URLSearchParams({ ...(kind ? { kind } : {}), page: String(to) })}`;

  const progress = h('div', { id: 'reindex-progress', 'aria-live': 'polite' });
  const reindex = async (request: { orgId?: string; apiIds?: string[] }) => {
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
    h('header', { class: 'catalogue-header' },
      h('h1', {}, `Catalogue of ${session.org}`, h('span', { class: 'muted' }, ` · ${total} API${total === 1 ? '' : 's'}`)),
      h('div', { class: 'actions' },
        session.can('publisher') ? h('a', { class: 'button', href: '#/register' }, 'Register an API') : null,
        session.can('admin') && total > 0 ? h('button', { type: 'button', id: 'reindex-org', onclick: () => reindex({ orgId: session.org }) }, 'Re-index the org') : null)),
    kindFilter(ctx, kind),
    progress,
    total === 0 && kind
      ? h('p', { class: 'empty' }, `No ${kindLabel(kind)} API in ${session.org}. `, h('a', { href: '#/catalogue' }, 'Show every kind.'))
    : total === 0
      ? h('p', { class: 'empty' }, `No API in ${session.org} yet. `, session.can('publisher') ? h('a', { href: '#/register' }, 'Register the first one.') : 'Ask a publisher to register one.')
      // On a phone the team and indexed columns give way; what is left scrolls inside its box.
      : h('div', { class: 'table-scroll' }, h('table', { class: 'catalogue' },
          h('thead', {}, h('tr', {}, h('th', {}, 'API'), h('th', {}, 'Version'), h('th', { class: 'optional-column' }, 'Team'), h('th', {}, 'Status'), h('th', { class: 'optional-column' }, 'Indexed'), session.can('admin') ? h('th', {}, '') : null)),
          h('tbody', {}, items.map((api) =>
            h('tr', { 'data-api-id': api.apiId },
              // The kind beside the name, not a column of its own: on a phone the status must still fit.
              h('td', {}, h('a', { href: `#/apis/${api.apiId}` }, api.name), api.kind ? [' ', kindBadge(api.kind)] : null),
              h('td', {}, api.version),
              h('td', { class: 'optional-column' }, api.teamName ?? ''),
              h('td', { title: api.indexing?.error ?? '' }, statusBadge(api.indexing?.status)),
              h('td', { class: 'muted optional-column' }, formatDate(api.indexing?.indexedAt)),
              session.can('admin') ? h('td', {}, h('button', { type: 'button', class: 'small', onclick: () => reindex({ apiIds: [api.apiId] }) }, 'Re-index')) : null))))),
    pages > 1
      ? h('nav', { class: 'pager' },
          page > 1 ? h('a', { href: pageLink(page - 1) }, '← Previous') : null,
          h('span', { class: 'muted' }, ` page ${page} of ${pages} `),
          page < pages ? h('a', { href: pageLink(page + 1) }, 'Next →') : null)
      : null,
  );
}

/** Which kind of API to list; a choice takes effect at once and lives in the URL (#/catalogue?kind=grpc). */
function kindFilter(ctx: ViewContext, kind: string): HTMLElement {
  const kinds = [...new Set([...knownKinds().map((known) => known.kind), ...(kind ? [kind] : [])])];
  const select = h('select', { id: 'catalogue-kind', name: 'kind', onchange: () => ctx.navigate(`#/catalogue${select.value ? `?kind=${encodeURIComponent(select.value)}` : ''}`) },
    h('option', { value: '', selected: !kind }, 'Every kind'),
    kinds.map((name) => h('option', { value: name, selected: name === kind }, kindLabel(name))));
  return h('div', { class: 'filters catalogue-filters' }, h('label', {}, 'Kind ', select));
}

/** Polls a re-index run until it completes, drawing its progress. */
function followRun(ctx: ViewContext, into: HTMLElement, reindexId: string): void {
  let stopped = false;
  ctx.onLeave(() => (stopped = true));
  const draw = (run: ReindexProgress) => {
    const finished = run.done + run.failed;
    const percent = run.total ? Math.round((finished / run.total) * 100) : 100;
    replace(into, h('div', { class: 'run', 'data-run-status': run.status },
      h('strong', {}, run.status === 'COMPLETED' ? 'Re-index complete' : 'Re-indexing…'),
      h('span', {}, ` ${finished}/${run.total} done${run.failed ? `, ${run.failed} failed` : ''}`),
      h('div', { class: 'progress' }, h('span', { class: 'progress-bar', style: `width:${percent}%` })),
      run.failures.length ? h('ul', { class: 'failures' }, run.failures.map((failure) => h('li', {}, h('a', { href: `#/apis/${failure.apiId}` }, failure.apiId), `: ${failure.error}`))) : null));
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
