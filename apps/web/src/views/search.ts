import type { SearchRequest, SearchResult } from '../../../../libs/contracts/src/index.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, methodBadge } from '../components.js';
import type { ViewContext } from '../context.js';
import { h, highlight, queryTerms, replace } from '../dom.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** One box, filters, and ranked API cards. The query and filters live in the URL (#/search?q=…). */
export function searchView(ctx: ViewContext): void {
  const { params } = ctx;
  const input = h('input', {
    id: 'search-input', type: 'search', name: 'q', value: params.get('q') ?? '', autocomplete: 'off',
    placeholder: 'Describe what you need, e.g. "send a verification code by sms"', 'aria-label': 'Search APIs',
  });
  const team = h('input', { id: 'filter-team', name: 'team', value: params.get('team') ?? '', placeholder: 'any team', 'aria-label': 'Team' });
  const tags = h('input', { id: 'filter-tags', name: 'tags', value: params.get('tags') ?? '', placeholder: 'any tag (comma-separated)', 'aria-label': 'Tags' });
  const chosen = new Set((params.get('methods') ?? '').split(',').filter(Boolean));
  const methodBoxes = METHODS.map((method) =>
    h('label', { class: 'method-filter' }, h('input', { type: 'checkbox', name: 'method', value: method, checked: chosen.has(method) }), method),
  );
  const results = h('section', { id: 'results', 'aria-live': 'polite' });

  const form = h(
    'form',
    { class: 'search-form', role: 'search', onsubmit: (event: Event) => {
      event.preventDefault();
      const next = new URLSearchParams();
      if (input.value.trim()) next.set('q', input.value.trim());
      if (team.value.trim()) next.set('team', team.value.trim());
      if (tags.value.trim()) next.set('tags', tags.value.trim());
      const methods = methodBoxes.map((label) => label.querySelector('input')!).filter((box) => box.checked).map((box) => box.value);
      if (methods.length) next.set('methods', methods.join(','));
      ctx.navigate(`#/search?${next}`);
    } },
    h('div', { class: 'search-row' }, input, h('button', { type: 'submit', class: 'primary' }, 'Search')),
    h('div', { class: 'filters' }, h('label', {}, 'Team ', team), h('label', {}, 'Tags ', tags), h('span', { class: 'methods' }, methodBoxes)),
  );
  replace(ctx.main, h('h1', { class: 'visually-hidden' }, 'Search'), form, results);

  const query = params.get('q') ?? '';
  const filters: SearchRequest['filters'] = {
    ...(params.get('team') ? { teamNames: [params.get('team')!] } : {}),
    ...(params.get('tags') ? { tags: params.get('tags')!.split(',').map((t) => t.trim()).filter(Boolean) } : {}),
    ...(chosen.size ? { methods: [...chosen] } : {}),
  };
  const hasFilters = Object.keys(filters).length > 0;
  if (!query && !hasFilters) {
    replace(results, h('p', { class: 'empty' }, 'Describe what you need in your own words — what it should do, not its name. Press ', h('kbd', {}, '/'), ' to come back to the box from anywhere.'));
    input.focus();
    return;
  }
  void runSearch(ctx, results, { orgId: ctx.session.org, query, maxResults: query ? 20 : 50, maxEndpoints: 5, ...(hasFilters ? { filters } : {}) });
}

async function runSearch(ctx: ViewContext, results: HTMLElement, request: SearchRequest): Promise<void> {
  replace(results, h('p', { class: 'loading' }, 'Searching…'));
  try {
    const response = await ragApiClient.searchApis(ctx.session.token, request);
    if (response.results.length === 0) {
      const what = request.query ? `matches "${request.query}"${request.filters ? ' with these filters' : ''}` : 'passes these filters';
      replace(results, h('p', { class: 'empty' }, `No API in ${request.orgId} ${what}.`, ' Try other words, fewer filters, or look through the ', h('a', { href: '#/catalogue' }, 'catalogue'), '.'));
      return;
    }
    const terms = queryTerms(request.query);
    replace(
      results,
      h('p', { class: 'muted summary' }, `${response.totalFound} API${response.totalFound === 1 ? '' : 's'} · ${Math.round(response.searchMs)} ms`),
      h('ol', { class: 'cards', role: 'list' }, response.results.map((result) => h('li', {}, card(result, terms)))),
    );
  } catch (error) {
    replace(results, errorBox(error, 'Search failed'));
  }
}

function card(result: SearchResult, terms: string[]): HTMLElement {
  const percent = Math.round(result.relevanceScore * 100);
  const snippet = result.matchedChunks[0]?.snippet;
  return h(
    'article',
    { class: 'card', tabindex: 0, 'data-api-id': result.apiId, 'aria-label': `${result.apiName} ${result.version}` },
    h(
      'header',
      {},
      h('h2', {}, h('a', { href: `#/apis/${result.apiId}`, class: 'card-title' }, result.apiName)),
      h('span', { class: 'version' }, `v${result.version}`),
      result.teamName ? h('span', { class: 'team' }, result.teamName) : null,
      h('span', { class: 'relevance', title: `relevance ${percent}%`, 'aria-label': `relevance ${percent} percent` }, h('span', { class: 'relevance-bar', style: `width:${percent}%` })),
    ),
    result.description ? h('p', { class: 'description' }, result.description.length > 300 ? `${result.description.slice(0, 300)}…` : result.description) : null,
    result.endpoints.length
      ? h('ul', { class: 'endpoints' }, result.endpoints.map((endpoint) =>
          h('li', {}, methodBadge(endpoint.method), h('code', { class: 'path' }, endpoint.path), endpoint.summary ? h('span', { class: 'summary' }, endpoint.summary) : null)))
      : null,
    snippet ? h('p', { class: 'snippet' }, highlight(snippet, terms)) : null,
  );
}
