import type { LifecycleStage, MatchBand, SearchFacets, SearchRequest, SearchResponse, SearchResult } from '../../../../libs/contracts/src/index.js';
import { LIFECYCLE_STAGES } from '../../../../libs/contracts/src/versions.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, kindBadge, lifecycleBadge, methodBadge, versionLabel } from '../components.js';
import type { ViewContext } from '../context.js';
import { h, highlight, queryTerms, replace } from '../dom.js';
import { cardHash, feedbackEvidence, type VoteNeed, voteButtons } from '../feedback.js';
import { kindLabel, kindOfVerb, knownKinds, speaksHttp, verbsOf } from '../kinds.js';
import { type Labels, labelChips, labelFilter, labelParams, labelsFromParams, labelText } from '../labels.js';

/** Cards per page of a search, and the most one search may return (SEARCH_LIMITS.maxResults). */
const PAGE_SIZE = 20;
const MAX_RESULTS = 50;
const MATCH_LABELS: Record<MatchBand, string> = { strong: 'strong match', partial: 'partial match', weak: 'weak match' };
/** The stages search can return: a retired API never is. */
const SEARCHED_STAGES = LIFECYCLE_STAGES.filter((stage) => stage !== 'retired');

/** What the URL chose to filter by. */
interface Chosen {
  methods: Set<string>;
  kinds: Set<string>;
  stages: Set<LifecycleStage>;
  /** Labels chosen so far (label=key:value, repeated). */
  labels: Labels;
}

function chosenInUrl(params: URLSearchParams): Chosen {
  return {
    methods: new Set(listParam(params, 'methods')),
    kinds: new Set(listParam(params, 'kinds')),
    stages: new Set(listParam(params, 'lifecycle').filter((stage): stage is LifecycleStage => (LIFECYCLE_STAGES as readonly string[]).includes(stage))),
    labels: labelsFromParams(params),
  };
}

/** The search request's filters: what the URL chose. */
function requestFilters(params: URLSearchParams, chosen: Chosen): NonNullable<SearchRequest['filters']> {
  return {
    ...(params.get('team') ? { teamNames: [params.get('team')!] } : {}),
    ...(params.get('tags')
      ? {
          tags: params
            .get('tags')!
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        }
      : {}),
    ...(chosen.methods.size ? { methods: [...chosen.methods] } : {}),
    ...(chosen.kinds.size ? { kinds: [...chosen.kinds] } : {}),
    ...(Object.keys(chosen.labels).length ? { labels: chosen.labels } : {}),
    ...(chosen.stages.size ? { lifecycle: [...chosen.stages] } : {}),
  };
}

/** One box, filters, and ranked API cards. The query and filters live in the URL (#/search?q=…). */
export function searchView(ctx: ViewContext): void {
  const { params } = ctx;
  const chosen = chosenInUrl(params);
  const { form, input, addLabel } = searchForm(ctx, chosen);
  const results = h('section', { id: 'results', 'aria-live': 'polite' });
  replace(ctx.main, h('h1', { class: 'visually-hidden' }, 'Search'), form, results);

  const query = params.get('q') ?? '';
  const filters = requestFilters(params, chosen);
  const hasFilters = Object.keys(filters).length > 0;
  if (!query && !hasFilters) {
    replace(
      results,
      h(
        'p',
        { class: 'empty' },
        'Describe what you need in your own words — what it should do, not its name. Press ',
        h('kbd', {}, '/'),
        ' to come back to the box from anywhere.',
      ),
    );
    input.focus();
    return;
  }
  const request = { orgId: ctx.session.org, query, maxEndpoints: 5, ...(hasFilters ? { filters } : {}) };
  void runSearch(results, { token: ctx.session.token, user: ctx.session.claims.sub }, request, query ? PAGE_SIZE : MAX_RESULTS, 'heading', addLabel);
}

/**
 * The search form: the box, the team and tag boxes (with the org's as suggestions), the label
 * filter and the checkbox groups. Submitting it navigates to the search it describes; `addLabel`
 * (a card's label clicked) searches again with that label too.
 */
function searchForm(ctx: ViewContext, chosen: Chosen): { form: HTMLFormElement; input: HTMLInputElement; addLabel: (key: string, value: string) => void } {
  const { params } = ctx;
  const input = h('input', {
    id: 'search-input',
    type: 'search',
    name: 'q',
    value: params.get('q') ?? '',
    autocomplete: 'off',
    placeholder: 'Describe what you need, e.g. "send a verification code by sms"',
    'aria-label': 'Search APIs',
  });
  const team = filterBox(params, { name: 'team', placeholder: 'any team', label: 'Team', list: 'team-suggestions' });
  const tags = filterBox(params, { name: 'tags', placeholder: 'any tag (comma-separated)', label: 'Tags', list: 'tag-suggestions' });
  const teamSuggestions = h('datalist', { id: 'team-suggestions' });
  const tagSuggestions = h('datalist', { id: 'tag-suggestions' });
  void suggestFacets(ctx, teamSuggestions, tagSuggestions);
  // A chip removed, or one clicked on a card, searches again.
  let nextLabels: Labels | undefined;
  const labels = labelFilter({
    id: 'filter-labels',
    chosen: chosen.labels,
    onRemove: (rest) => {
      nextLabels = rest;
      form.requestSubmit();
    },
  });
  const addLabel = (key: string, value: string) => {
    nextLabels = { ...chosen.labels, [key]: value };
    form.requestSubmit();
  };
  const form = h(
    'form',
    {
      class: 'search-form',
      role: 'search',
      onsubmit: (event: Event) => {
        event.preventDefault();
        // What the label box holds joins the chips; a mistake in it is told there, and nothing is searched.
        const labelsChosen = nextLabels ?? labels.read();
        nextLabels = undefined;
        if (!labelsChosen) return;
        ctx.navigate(`#/search?${searchParams(form, [input, team, tags], labelsChosen)}`);
      },
    },
    h('div', { class: 'search-row' }, input, h('button', { type: 'submit', class: 'primary' }, 'Search')),
    h(
      'div',
      { class: 'filters' },
      h('label', {}, 'Team ', team, teamSuggestions),
      h('label', {}, 'Tags ', tags, tagSuggestions),
      labels.element,
      checkboxGroups(chosen, () => form.requestSubmit()),
    ),
  );
  return { form, input, addLabel };
}

/** A filter box of the form (`team`, `tags`): it holds the URL's words, and offers the org's (its datalist, `list`). */
function filterBox(params: URLSearchParams, box: { name: string; placeholder: string; label: string; list: string }): HTMLInputElement {
  return h('input', {
    id: `filter-${box.name}`,
    name: box.name,
    value: params.get(box.name) ?? '',
    placeholder: box.placeholder,
    'aria-label': box.label,
    list: box.list,
  });
}

/** The kinds, methods and lifecycle boxes; a box takes effect at once (`onChange`), as a filter does in any search page. */
function checkboxGroups(chosen: Chosen, onChange: () => void): HTMLElement[] {
  const box = (name: string, value: string, text: string, checked: boolean, className: string) =>
    h('label', { class: className }, h('input', { type: 'checkbox', name, value, checked, onchange: onChange }), text);
  const group = (className: string, label: string, boxes: HTMLElement[]) =>
    h('span', { class: className, role: 'group', 'aria-labelledby': `${className}-label` }, h('span', { id: `${className}-label` }, label), boxes);
  // The known kinds, and any other the URL names (so it can be unticked).
  const kindNames = [...new Set([...knownKinds().map((known) => known.kind), ...chosen.kinds])];
  const kindBoxes = kindNames.map((kind) => box('kind', kind, kindLabel(kind), chosen.kinds.has(kind), 'kind-filter'));
  const methodGroups = verbGroups(chosen.kinds, chosen.methods).map(({ kind, verbs }) =>
    h(
      'span',
      { class: 'verb-group', 'data-kind': kind },
      verbs.map((verb) => box('method', verb, verb, chosen.methods.has(verb), 'method-filter')),
    ),
  );
  const stageBoxes = SEARCHED_STAGES.map((stage) => box('lifecycle', stage, stage, chosen.stages.has(stage), 'lifecycle-filter'));
  return [group('kinds', 'Kinds', kindBoxes), group('methods', 'Methods', methodGroups), group('stages', 'Lifecycle', stageBoxes)];
}

/** The search the form describes, as the URL's parameters: its boxes' words (`q`, `team`, `tags`), the ticked boxes and `labels`. */
function searchParams(form: HTMLFormElement, boxes: HTMLInputElement[], labels: Labels): URLSearchParams {
  const next = new URLSearchParams();
  for (const box of boxes) if (box.value.trim()) next.set(box.name, box.value.trim());
  const ticked = (name: string) => [...form.querySelectorAll<HTMLInputElement>(`input[name=${name}]:checked`)].map((checkbox) => checkbox.value);
  const kinds = ticked('kind');
  // A verb of a kind no longer chosen would only hide every result: HTTP verbs stay, they are always offered.
  const methods = ticked('method').filter((verb) => {
    const kind = kindOfVerb(verb);
    return kind === undefined || speaksHttp(kind) || kinds.includes(kind);
  });
  if (kinds.length) next.set('kinds', kinds.join(','));
  if (methods.length) next.set('methods', methods.join(','));
  const stages = ticked('lifecycle');
  if (stages.length) next.set('lifecycle', stages.join(','));
  for (const label of labelParams(labels)) next.append('label', label);
  return next;
}

function listParam(params: URLSearchParams, name: string): string[] {
  return (params.get(name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * The method boxes, a group a kind: HTTP kinds' always (the verbs most people filter by), each
 * other chosen kind's after them, and any verb the URL ticks that neither covers (so it can be
 * unticked). Every kind's verbs at once would crowd a phone; choosing a kind brings its few.
 */
function verbGroups(kinds: Set<string>, ticked: Set<string>): { kind: string; verbs: string[] }[] {
  const all = knownKinds().map((known) => known.kind);
  const shown = [...all.filter((kind) => speaksHttp(kind)), ...all.filter((kind) => !speaksHttp(kind) && kinds.has(kind))];
  const groups = shown.map((kind) => ({ kind, verbs: verbsOf([kind]) }));
  const offered = new Set(groups.flatMap((group) => group.verbs));
  const others = [...ticked].filter((verb) => !offered.has(verb));
  return others.length ? [...groups, { kind: 'other', verbs: others }] : groups;
}

/** Each org's facets, asked for at most every `FACETS_TTL_MS`: every search redraws the form. */
const facetsByOrg = new Map<string, Promise<SearchFacets>>();
const FACETS_TTL_MS = 30_000;

/** The org's teams and tags as the filter boxes' suggestions; without them the boxes still work. */
async function suggestFacets(ctx: ViewContext, teams: HTMLDataListElement, tags: HTMLDataListElement): Promise<void> {
  const { org, token } = ctx.session;
  if (!facetsByOrg.has(org)) {
    facetsByOrg.set(org, ragApiClient.getFacets(token, org));
    window.setTimeout(() => facetsByOrg.delete(org), FACETS_TTL_MS);
  }
  try {
    const facets = await facetsByOrg.get(org)!;
    replace(
      teams,
      facets.teams.map((team) => h('option', { value: team.name })),
    );
    replace(
      tags,
      facets.tags.map((tag) => h('option', { value: tag.name })),
    );
  } catch {
    // Suggestions are a convenience: a search still works without them (and asks again next time).
    facetsByOrg.delete(org);
  }
}

/** Who searches: their token, and who they are (their votes are kept by person, `VoteNeed`). */
interface Searcher {
  token: string;
  user: string;
}

/**
 * Draws a search's cards: how many are shown of how many matched (with more on request), and
 * whether any of them matches well. Focus moves to the results' heading, or after "Show more" to
 * the first card it added.
 */
async function runSearch(
  results: HTMLElement,
  caller: Searcher,
  request: SearchRequest,
  shown: number,
  focus: 'heading' | number,
  onLabel: (key: string, value: string) => void,
): Promise<void> {
  const { token } = caller;
  replace(results, h('p', { class: 'loading' }, 'Searching…'));
  let response: SearchResponse;
  try {
    response = await ragApiClient.searchApis(token, { ...request, maxResults: shown });
  } catch (error) {
    replace(results, errorBox(error, 'Search failed'));
    return;
  }
  if (response.results.length === 0) {
    replace(results, noResults(request));
    return;
  }
  const terms = queryTerms(request.query);
  // Feedback is about a need put in words: browsing by filters alone has none to learn from.
  const feedback = request.query ? { token, searchId: response.searchId, need: { user: caller.user, org: request.orgId, query: request.query } } : undefined;
  const count = response.results.length;
  const heading = resultsHeading(response);
  const more = showMore(response, (next) => void runSearch(results, caller, request, next, count, onLabel));
  replace(
    results,
    heading,
    response.warnings?.length
      ? h(
          'ul',
          { class: 'notice' },
          response.warnings.map((warning) => h('li', {}, warning)),
        )
      : null,
    noStrongMatch(request, response),
    h(
      'ol',
      { class: 'cards', role: 'list' },
      response.results.map((result) => h('li', {}, card(result, terms, onLabel, feedback))),
    ),
    more,
  );
  if (focus === 'heading') heading.focus();
  else results.querySelectorAll<HTMLElement>('.card')[focus]?.focus();
}

/** What to say when nothing matched: the query and filters in words, and where else to look. */
function noResults(request: SearchRequest): HTMLElement {
  const what = request.query ? `matches "${request.query}"${request.filters ? ' with these filters' : ''}` : 'passes these filters';
  return h(
    'p',
    { class: 'empty' },
    `No API in ${request.orgId} ${what}.`,
    ' Try other words, fewer filters, or look through the ',
    h('a', { href: '#/catalogue' }, 'catalogue'),
    '.',
  );
}

/** How many cards are shown of how many matched, and how long the search took; focusable, so focus can land on it. */
function resultsHeading(response: SearchResponse): HTMLElement {
  const count = response.results.length;
  return h(
    'h2',
    { id: 'results-heading', class: 'results-heading', tabindex: -1 },
    count < response.totalFound ? `Showing ${count} of ${response.totalFound} APIs` : `${count} API${count === 1 ? '' : 's'}`,
    h('span', { class: 'muted' }, ` · ${Math.round(response.searchMs)} ms`),
  );
}

/** "Show more" (`onMore` gets how many to show then) while more matched, up to `MAX_RESULTS`; past it, how to narrow the search. */
function showMore(response: SearchResponse, onMore: (next: number) => void): HTMLElement | null {
  const count = response.results.length;
  const next = Math.min(MAX_RESULTS, response.totalFound, count + PAGE_SIZE);
  if (count >= response.totalFound) return null;
  return next > count
    ? h('button', { type: 'button', id: 'show-more', onclick: () => onMore(next) }, `Show ${next - count} more`)
    : h('p', { class: 'muted' }, `These are the best ${MAX_RESULTS}: add words or filters to narrow the search.`);
}

/** Scores are calibrated (DESIGN: relevanceScore): none strong means nothing here fits the need well, and the page says so. */
function noStrongMatch(request: SearchRequest, response: SearchResponse): HTMLElement | null {
  if (!request.query || response.results.some((result) => result.match === 'strong')) return null;
  return h(
    'p',
    { class: 'notice', id: 'no-strong-match' },
    'No API matches this well. ',
    response.results[0].match === 'partial'
      ? 'The nearest ones are below and may still do: check their endpoints, or try other words.'
      : 'The nearest ones are below; try other words, or ask the team that would own such an API.',
  );
}

/** `feedback`: the search had words; the card offers a vote, and its links carry the search (opening them is feedback too). */
function card(
  result: SearchResult,
  terms: string[],
  onLabel: (key: string, value: string) => void,
  feedback?: { token: string; searchId: string; need: VoteNeed },
): HTMLElement {
  const searchId = feedback?.searchId;
  const percent = Math.round(result.relevanceScore * 100);
  const snippet = result.matchedChunks[0]?.snippet;
  const label = result.match ? `${MATCH_LABELS[result.match]} (${percent}%)` : `relevance ${percent}%`;
  return h(
    'article',
    { class: 'card', tabindex: 0, 'data-api-id': result.apiId, 'aria-label': `${result.apiName} ${result.version}` },
    h(
      'header',
      {},
      // The title and its badges wrap in their own box; the match and the bar keep the first line's right end.
      h(
        'div',
        { class: 'card-heading' },
        h('h2', {}, h('a', { href: cardHash(result.apiId, searchId), class: 'card-title' }, result.apiName)),
        h('span', { class: 'version' }, versionLabel(result.version)),
        // Production goes without saying; any other stage is told.
        result.lifecycle && result.lifecycle !== 'production' ? lifecycleBadge(result.lifecycle) : null,
        result.kind ? kindBadge(result.kind) : null,
        result.teamName ? h('span', { class: 'team' }, result.teamName) : null,
      ),
      h(
        'div',
        { class: 'card-score' },
        result.match ? h('span', { class: `match match-${result.match}`, 'data-match': result.match, title: label }, MATCH_LABELS[result.match]) : null,
        h('span', { class: 'relevance', title: label, 'aria-label': label }, h('span', { class: 'relevance-bar', style: `width:${percent}%` })),
      ),
    ),
    result.lifecycle === 'deprecated'
      ? h('p', { class: 'deprecated-note' }, `${versionLabel(result.version)} is deprecated${result.sunsetDate ? `: sunset ${result.sunsetDate}` : ''}.`)
      : null,
    feedbackEvidence(result.evidence?.feedback),
    otherVersions(result, searchId),
    // Each label a button: it narrows the search to the APIs that carry it too.
    labelChips(result.labels, { onClick: onLabel, title: (key, value) => `Only APIs labelled ${labelText(key, value)}` }),
    result.description ? h('p', { class: 'description' }, result.description.length > 300 ? `${result.description.slice(0, 300)}…` : result.description) : null,
    result.endpoints.length
      ? h(
          'ul',
          { class: 'endpoints', 'data-kind': result.kind },
          result.endpoints.map((endpoint) =>
            // Each one a link to the API's page with this operation open.
            h(
              'li',
              {},
              h(
                'a',
                { class: 'endpoint-link', href: cardHash(result.apiId, searchId, { operation: endpoint }) },
                methodBadge(endpoint.method),
                h('code', { class: 'path' }, endpoint.path),
                endpoint.summary ? h('span', { class: 'summary' }, endpoint.summary) : null,
              ),
            ),
          ),
        )
      : null,
    snippet ? h('p', { class: 'snippet' }, highlight(snippet, terms)) : null,
    feedback ? voteButtons(feedback.token, feedback.searchId, result.apiId, result.apiName, feedback.need) : null,
  );
}

/** An API's other versions, compactly, each with its stage and a link to its page; nothing when it has one. */
function otherVersions(result: SearchResult, searchId: string | undefined): HTMLElement | null {
  const others = (result.versions ?? []).filter((item) => item.version !== result.version);
  if (!others.length) return null;
  return h(
    'p',
    { class: 'card-versions' },
    h('span', { class: 'muted' }, 'Also: '),
    others
      .map((item, index) => [
        index ? ', ' : '',
        h('a', { href: cardHash(result.apiId, searchId, { version: item.version }), 'data-version': item.version }, versionLabel(item.version)),
        ' ',
        lifecycleBadge(item.lifecycle),
        item.sunsetDate ? h('span', { class: 'muted' }, ` sunset ${item.sunsetDate}`) : null,
      ])
      .flat(),
  );
}
