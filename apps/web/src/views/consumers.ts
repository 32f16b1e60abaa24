import type { ApiEndpoint, ApiVersionRecord, ConsumerRecord } from '../../../../libs/contracts/src/index.js';
import { CONSUMER_LIMITS } from '../../../../libs/contracts/src/consumers.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, methodBadge, versionLabel } from '../components.js';
import { consumerLabel, sourceBadge } from '../consumer-parts.js';
import type { ViewContext } from '../context.js';
import { formatDate, h, handler, replace } from '../dom.js';
import { operationKey } from '../feedback.js';

/** What the consumers section needs of the API's page. */
export interface ConsumersPage {
  apiId: string;
  apiName: string;
  versions: ApiVersionRecord[];
  /** The recommended version. */
  recommended: string;
  /** The version the page shows, and its operations. */
  viewed: string;
  endpoints: ApiEndpoint[];
}

/** The API's consumers, asked for once per drawing of its page: the section and the stage form both read them. */
export function loadConsumers(token: string, apiId: string): Promise<ConsumerRecord[] | Error> {
  return ragApiClient.listConsumers(token, apiId).then(
    ({ items }) => items,
    (error: Error) => error,
  );
}

/**
 * A button that watches the API (its events come to the caller's notifications) or stops
 * watching it, showing which it is (`aria-pressed`).
 */
export function watchToggle(token: string, apiId: string, message: HTMLElement): HTMLElement {
  let watching = false;
  const button = h('button', { type: 'button', id: 'watch-toggle', disabled: true, 'aria-pressed': 'false' }, 'Watch');
  const show = (state: boolean) => {
    watching = state;
    button.setAttribute('aria-pressed', String(state));
    button.textContent = state ? 'Watching' : 'Watch';
    button.title = state ? 'Its changes come to your notifications: press to stop' : 'Get its changes in your notifications';
    button.disabled = false;
  };
  button.addEventListener(
    'click',
    handler(async () => {
      button.disabled = true;
      try {
        show((await (watching ? ragApiClient.unwatchApi(token, apiId) : ragApiClient.watchApi(token, apiId))).watching);
      } catch (error) {
        button.disabled = false;
        replace(message, errorBox(error, watching ? 'Could not stop watching' : 'Could not watch this API'));
      }
    }),
  );
  ragApiClient.getWatch(token, apiId).then(
    (state) => show(state.watching),
    () => {
      button.disabled = false;
      button.title = 'Whether you watch it could not be read';
    },
  );
  return button;
}

/** The consumers of the API, each deletable by whoever may (the server decides), and the form that adds the caller's service. */
export function consumersSection(ctx: ViewContext, page: ConsumersPage, consumers: Promise<ConsumerRecord[] | Error>): HTMLElement {
  const heading = h('h2', { id: 'consumers-heading' }, 'Consumers');
  const list = h('div', { class: 'consumer-list-host' }, h('p', { class: 'loading' }, 'Loading consumers…'));
  const message = h('div', { class: 'consumer-message', 'aria-live': 'polite' });
  const draw = (items: ConsumerRecord[] | Error) => {
    if (items instanceof Error) {
      replace(list, errorBox(items, 'Could not load the consumers'));
      return;
    }
    heading.textContent = `Consumers (${items.length})`;
    replace(
      list,
      items.length === 0
        ? h('p', { class: 'empty' }, `No service is known to use ${page.apiName} yet. Add yours, so that you hear of changes that break it.`)
        : h(
            'ul',
            { class: 'consumer-list' },
            items.map((consumer) => consumerItem(ctx, page, consumer, message, reload)),
          ),
    );
  };
  const reload = async () => draw(await loadConsumers(ctx.session.token, page.apiId));
  void consumers.then(draw);
  return h(
    'section',
    { id: 'consumers', class: 'consumers', 'aria-labelledby': 'consumers-heading' },
    h('div', { class: 'section-head' }, heading),
    list,
    message,
    addConsumerForm(ctx, page, message, reload),
  );
}

/** Who may delete a consumer, as far as the page can tell: its declarer, a publisher or an admin (the server decides). */
function mayDelete(ctx: ViewContext, consumer: ConsumerRecord): boolean {
  return ctx.session.can('publisher') || (consumer.source === 'declared' && consumer.declaredBy === ctx.session.claims.sub);
}

function operationsText(consumer: ConsumerRecord): HTMLElement {
  if (consumer.operations.length === 0) return h('span', { class: 'consumer-operations muted' }, 'any operation');
  const items = consumer.operations.map((operation) => h('li', {}, methodBadge(operation.method), ' ', h('code', { class: 'path' }, operation.path)));
  return consumer.operations.length <= 3
    ? h('ul', { class: 'consumer-operations' }, items)
    : h('details', { class: 'consumer-operations' }, h('summary', {}, `${consumer.operations.length} operations`), h('ul', {}, items));
}

function consumerItem(ctx: ViewContext, page: ConsumersPage, consumer: ConsumerRecord, message: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const remove = mayDelete(ctx, consumer)
    ? h(
        'button',
        {
          type: 'button',
          class: 'small danger consumer-delete',
          'aria-label': `Remove ${consumer.name}`,
          onclick: handler(async () => {
            if (!window.confirm(`Remove ${consumer.name} from the consumers of ${page.apiName}?`)) return;
            try {
              await ragApiClient.deleteConsumer(ctx.session.token, page.apiId, consumer.consumerId);
              replace(message, h('p', { class: 'muted' }, `Removed ${consumer.name}.`));
              await reload();
            } catch (error) {
              replace(message, errorBox(error, `${consumer.name} was not removed`, { 403: 'Only its declarer, a publisher or an admin may remove it.' }));
            }
          }),
        },
        'Remove',
      )
    : null;
  return h(
    'li',
    { class: 'consumer-item', 'data-consumer-id': consumer.consumerId, 'data-source': consumer.source },
    h('div', { class: 'consumer-head' }, consumerLabel(consumer), sourceBadge(consumer.source), remove),
    h(
      'div',
      { class: 'consumer-facts muted' },
      h('span', { class: 'consumer-version' }, consumer.version ? versionLabel(consumer.version) : `recommended (${versionLabel(page.recommended)})`),
      ' · ',
      h('span', { class: 'consumer-seen' }, `last seen ${formatDate(consumer.lastSeenAt)}`),
    ),
    operationsText(consumer),
  );
}

/** "Add my service": name, team, contact, the version it uses and the operations it calls (none ticked: any). */
function addConsumerForm(ctx: ViewContext, page: ConsumersPage, message: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const { token } = ctx.session;
  const input = (id: string, name: string, maxLength: number, more: Record<string, string | boolean> = {}) =>
    h('input', { id, name, maxLength, autocomplete: 'off', ...more });
  const name = input('consumer-name', 'name', CONSUMER_LIMITS.nameMaxChars, { required: true, placeholder: 'billing-service' });
  const team = input('consumer-team', 'teamName', CONSUMER_LIMITS.teamMaxChars);
  const contact = input('consumer-contact', 'contact', CONSUMER_LIMITS.contactMaxChars, { placeholder: 'an address, a channel, a URL' });
  const version = h(
    'select',
    { id: 'consumer-version', name: 'version' },
    h('option', { value: '', selected: page.viewed === page.recommended }, `Whichever is recommended (now ${versionLabel(page.recommended)})`),
    page.versions.map((item) =>
      h(
        'option',
        { value: item.version, selected: page.viewed !== page.recommended && item.version === page.viewed },
        `${versionLabel(item.version)} (${item.lifecycle})`,
      ),
    ),
  );
  const operations = h('div', { class: 'operation-choices', id: 'consumer-operations' });
  const endpointsOf = new Map<string, Promise<ApiEndpoint[] | Error>>([[page.viewed, Promise.resolve(page.endpoints)]]);
  const showOperations = async () => {
    const chosen = version.value || page.recommended;
    if (!endpointsOf.has(chosen)) {
      endpointsOf.set(
        chosen,
        ragApiClient.getEndpoints(token, page.apiId, chosen === page.recommended ? undefined : chosen).then(
          ({ items }) => items,
          (error: Error) => error,
        ),
      );
    }
    replace(operations, h('p', { class: 'loading' }, 'Loading its operations…'));
    const endpoints = await endpointsOf.get(chosen)!;
    if ((version.value || page.recommended) !== chosen) return;
    replace(
      operations,
      endpoints instanceof Error
        ? errorBox(endpoints, 'Could not list its operations: the service is added as using any of them')
        : endpoints.length === 0
          ? h('p', { class: 'muted' }, 'This version has no operations.')
          : endpoints.map((endpoint) =>
              h(
                'label',
                { class: 'operation-choice' },
                h('input', { type: 'checkbox', name: 'operation', value: operationKey(endpoint), 'data-method': endpoint.method, 'data-path': endpoint.path }),
                ' ',
                methodBadge(endpoint.method),
                ' ',
                h('code', { class: 'path' }, endpoint.path),
              ),
            ),
    );
  };
  version.addEventListener('change', handler(showOperations));
  void showOperations();
  const save = h('button', { type: 'submit', class: 'primary' }, 'Add my service');
  const field = (label: string, control: HTMLElement, note?: string) =>
    h('label', { class: 'field' }, h('span', {}, label), control, note ? h('small', { class: 'muted' }, note) : null);
  const form = h(
    'form',
    {
      id: 'consumer-form',
      class: 'consumer-form',
      'aria-label': 'Add my service',
      onsubmit: handler(async (event: Event) => {
        event.preventDefault();
        const picked = [...operations.querySelectorAll<HTMLInputElement>('input[name=operation]:checked')].map((box) => ({
          method: box.dataset.method!,
          path: box.dataset.path!,
        }));
        save.disabled = true;
        try {
          const added = await ragApiClient.addConsumer(token, page.apiId, {
            name: name.value.trim(),
            ...(team.value.trim() ? { teamName: team.value.trim() } : {}),
            ...(contact.value.trim() ? { contact: contact.value.trim() } : {}),
            ...(version.value ? { version: version.value } : {}),
            ...(picked.length ? { operations: picked } : {}),
          });
          replace(message, h('p', { class: 'muted', id: 'consumer-added' }, `Added ${added.name}: you hear of changes that break it.`));
          form.reset();
          await reload();
          void showOperations();
        } catch (error) {
          replace(message, errorBox(error, 'Your service was not added'));
        } finally {
          save.disabled = false;
        }
      }),
    },
    field('Service or app', name),
    field('Team', team),
    field('Contact', contact),
    field('Version it uses', version),
    h(
      'fieldset',
      { class: 'field operation-fieldset' },
      h('legend', {}, 'Operations it calls'),
      h('small', { class: 'muted' }, 'None ticked: it may call any of them, and hears of every breaking change.'),
      operations,
    ),
    h('div', { class: 'actions' }, save),
  );
  return h('details', { class: 'add-consumer', id: 'add-consumer' }, h('summary', {}, 'Add my service'), form);
}
