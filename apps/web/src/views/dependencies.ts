import type { ConsumedApi, ConsumerDependencies, ConsumerDependencyView } from '../../../../libs/contracts/src/index.js';
import { CONSUMER_LIMITS } from '../../../../libs/contracts/src/consumers.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, lifecycleBadge, versionLabel } from '../components.js';
import { sourceBadge } from '../consumer-parts.js';
import type { ViewContext } from '../context.js';
import { formatDate, h, replace } from '../dom.js';

/** The stages that end a version's life: whoever still uses one must move. */
const ENDING = ['deprecated', 'retired'] as const;

/** #/dependencies[?ending=1]: the filter is in the route, so a reload or a shared link keeps it. */
export function dependenciesHash(endingOnly: boolean): string {
  return endingOnly ? '#/dependencies?ending=1' : '#/dependencies';
}

/**
 * The org's dependency view (#/dependencies): each consumer with the API versions it uses and their
 * stages, deprecated and retired ones marked with their sunset dates; "only deprecated or retired"
 * answers "who still uses what is going".
 */
export async function dependenciesView(ctx: ViewContext): Promise<void> {
  const { session } = ctx;
  const endingOnly = ctx.params.get('ending') === '1';
  const filter = h('input', {
    type: 'checkbox',
    id: 'dependencies-ending',
    name: 'ending',
    checked: endingOnly,
    onchange: () => ctx.navigate(dependenciesHash(filter.checked)),
  });
  const results = h('section', { id: 'dependencies', 'aria-live': 'polite' }, h('p', { class: 'loading' }, 'Loading…'));
  replace(
    ctx.main,
    h('h1', {}, 'Dependencies'),
    h('p', { class: 'muted' }, `Every service and app known to use an API of ${session.org}, and the versions it uses.`),
    h(
      'form',
      { class: 'filters', 'aria-label': 'Filter the dependencies', onsubmit: (event: Event) => event.preventDefault() },
      h('label', {}, filter, ' Only deprecated or retired versions'),
    ),
    results,
  );
  let view: ConsumerDependencyView;
  try {
    view = await ragApiClient.consumerDependencies(session.token, session.org, endingOnly ? [...ENDING] : undefined);
  } catch (error) {
    replace(results, errorBox(error, 'Could not load the dependencies'));
    return;
  }
  if (!ctx.isCurrent()) return;
  replace(
    results,
    view.truncated ? h('p', { class: 'notice' }, `Only the first ${CONSUMER_LIMITS.maxDependencyRows} uses are listed.`) : null,
    view.items.length === 0
      ? h(
          'p',
          { class: 'empty' },
          endingOnly
            ? 'No consumer uses a deprecated or retired version.'
            : 'No consumer is known yet: a team adds its service on the page of each API it uses.',
        )
      : h('ul', { class: 'dependency-list' }, view.items.map(consumerCard)),
  );
}

function consumerCard(consumer: ConsumerDependencies): HTMLElement {
  const ending = consumer.uses.filter((use) => (ENDING as readonly string[]).includes(use.lifecycle)).length;
  return h(
    'li',
    { class: ending ? 'dependency has-ending' : 'dependency', 'data-consumer': consumer.name },
    h('div', { class: 'dependency-head' }, h('h2', {}, consumer.name), ending ? h('span', { class: 'ending-count' }, `${ending} deprecated or retired`) : null),
    consumer.teamNames.length || consumer.contacts.length
      ? h(
          'p',
          { class: 'muted dependency-who' },
          [consumer.teamNames.length ? `Team ${consumer.teamNames.join(', ')}` : '', consumer.contacts.length ? `contact ${consumer.contacts.join(', ')}` : '']
            .filter(Boolean)
            .join(' · '),
        )
      : null,
    h('ul', { class: 'uses' }, consumer.uses.map(useItem)),
  );
}

function useItem(use: ConsumedApi): HTMLElement {
  const ending = (ENDING as readonly string[]).includes(use.lifecycle);
  const version = use.followsRecommended ? undefined : use.version;
  return h(
    'li',
    { class: ending ? `use use-ending use-${use.lifecycle}` : 'use', 'data-api-id': use.apiId, 'data-version': use.version, 'data-lifecycle': use.lifecycle },
    h('a', { class: 'use-api', href: `#/apis/${use.apiId}${version ? `?${new URLSearchParams({ version })}` : ''}` }, use.apiName),
    h('span', { class: 'version' }, versionLabel(use.version)),
    use.followsRecommended ? h('span', { class: 'recommended', title: 'It named no version: it follows the recommended one' }, 'follows recommended') : null,
    lifecycleBadge(use.lifecycle),
    use.sunsetDate ? h('span', { class: 'deprecation' }, `sunset ${use.sunsetDate}`) : null,
    h(
      'span',
      { class: 'muted use-operations', title: use.operations.map((operation) => `${operation.method} ${operation.path}`).join('\n') || undefined },
      use.operations.length ? `${use.operations.length} operation${use.operations.length === 1 ? '' : 's'}` : 'any operation',
    ),
    sourceBadge(use.source),
    h('span', { class: 'muted use-seen' }, `last seen ${formatDate(use.lastSeenAt)}`),
  );
}
