import type { DeliveryAttempt, EventType, WebhookCreated, WebhookDelivery, WebhookRecord } from '../../../../libs/contracts/src/index.js';
import { EVENT_TYPES, NOTIFICATION_LIMITS } from '../../../../libs/contracts/src/notifications.js';
import { ragApiClient } from '../api-client.js';
import { errorBox } from '../components.js';
import type { ViewContext } from '../context.js';
import { formatDate, h, handler, replace } from '../dom.js';

/** `a, b,, c ` → `['a', 'b', 'c']`: the API ids and team names a webhook is kept to. */
function listOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * The org's webhooks (#/webhooks, publishers): each with its events, filters and state (disabled
 * after failing: when and why), a test send, its deliveries and every try of each; a form that
 * adds one and shows its signing secret this once.
 */
export async function webhooksView(ctx: ViewContext): Promise<void> {
  const { session } = ctx;
  const list = h('section', { id: 'webhooks', 'aria-labelledby': 'webhooks-heading', 'aria-live': 'polite' }, h('p', { class: 'loading' }, 'Loading…'));
  const created = h('div', { id: 'webhook-created', 'aria-live': 'polite' });
  const reload = async () => {
    try {
      const { items } = await ragApiClient.listWebhooks(session.token, session.org);
      if (!ctx.isCurrent()) return;
      replace(
        list,
        h('h2', { id: 'webhooks-heading' }, `Webhooks of ${session.org} (${items.length})`),
        items.length === 0
          ? h('p', { class: 'empty' }, 'No webhook yet: add one below to have the platform call your URL on every change.')
          : h(
              'ul',
              { class: 'webhook-list' },
              items.map((webhook) => webhookItem(ctx, webhook, reload)),
            ),
      );
    } catch (error) {
      replace(list, h('h2', { id: 'webhooks-heading' }, 'Webhooks'), errorBox(error, 'Could not load the webhooks'));
    }
  };
  replace(
    ctx.main,
    h('h1', {}, 'Webhooks'),
    h(
      'p',
      { class: 'muted' },
      'Signed per the Standard Webhooks spec (webhook-id, webhook-timestamp, webhook-signature): verify them with the secret shown when a webhook is added.',
    ),
    list,
    created,
    webhookForm(ctx, created, reload),
  );
  await reload();
}

function webhookItem(ctx: ViewContext, webhook: WebhookRecord, reload: () => Promise<void>): HTMLElement {
  const { token } = ctx.session;
  const message = h('div', { class: 'webhook-message', 'aria-live': 'polite' });
  const deliveries = h('div', { class: 'webhook-deliveries' });
  const button = (label: string, className: string, run: () => Promise<void>, more: Record<string, string> = {}) =>
    h('button', { type: 'button', class: `small ${className}`, onclick: handler(run), ...more }, label);
  const actions = h(
    'div',
    { class: 'actions' },
    button('Send test', 'webhook-test', async () => {
      replace(message, h('p', { class: 'loading' }, 'Sending…'));
      try {
        const result = await ragApiClient.testWebhook(token, webhook.webhookId);
        replace(
          message,
          h(
            'p',
            { class: result.delivered ? 'test-result delivered' : 'test-result failed', 'data-delivered': String(result.delivered) },
            result.delivered ? 'Test delivered: ' : 'Test not delivered: ',
            attemptText(result.attempt),
          ),
        );
      } catch (error) {
        replace(message, errorBox(error, 'Test not sent'));
      }
    }),
    button('Deliveries', 'webhook-show-deliveries', async () => {
      replace(deliveries, h('p', { class: 'loading' }, 'Loading deliveries…'));
      try {
        const { items } = await ragApiClient.webhookDeliveries(token, webhook.webhookId);
        replace(deliveries, deliveryList(items));
      } catch (error) {
        replace(deliveries, errorBox(error, 'Could not load the deliveries'));
      }
    }),
    webhook.disabledAt
      ? button('Enable', 'webhook-enable', async () => {
          try {
            await ragApiClient.enableWebhook(token, webhook.webhookId);
            await reload();
          } catch (error) {
            replace(message, errorBox(error, 'Not enabled'));
          }
        })
      : null,
    button(
      'Delete',
      'danger webhook-delete',
      async () => {
        if (!window.confirm(`Delete the webhook to ${webhook.url}? Nothing more is sent to it.`)) return;
        try {
          await ragApiClient.deleteWebhook(token, webhook.webhookId);
          await reload();
        } catch (error) {
          replace(message, errorBox(error, 'Not deleted'));
        }
      },
      { 'aria-label': `Delete the webhook to ${webhook.url}` },
    ),
  );
  return h(
    'li',
    { class: webhook.disabledAt ? 'webhook disabled' : 'webhook', 'data-webhook-id': webhook.webhookId },
    h('div', { class: 'webhook-head' }, h('code', { class: 'webhook-url' }, webhook.url), webhookState(webhook)),
    webhook.description ? h('p', { class: 'description' }, webhook.description) : null,
    h(
      'dl',
      { class: 'webhook-facts' },
      h('dt', {}, 'Events'),
      h('dd', { class: 'webhook-events' }, webhook.events.length ? webhook.events.join(', ') : 'all events'),
      h('dt', {}, 'APIs'),
      h('dd', {}, webhook.apiIds.length ? webhook.apiIds.map((apiId) => h('a', { href: `#/apis/${apiId}`, class: 'webhook-api' }, apiId, ' ')) : 'every API'),
      h('dt', {}, 'Teams'),
      h('dd', {}, webhook.teamNames.length ? webhook.teamNames.join(', ') : 'every team'),
      h('dt', {}, 'Added'),
      h('dd', {}, `${formatDate(webhook.createdAt)} by ${webhook.createdBy}`),
    ),
    actions,
    message,
    deliveries,
  );
}

/** Enabled (and failing, when it is), or disabled: when and why. */
function webhookState(webhook: WebhookRecord): HTMLElement {
  if (webhook.disabledAt)
    return h(
      'span',
      { class: 'webhook-state state-disabled', 'data-state': 'disabled' },
      `disabled ${formatDate(webhook.disabledAt)}${webhook.disabledReason ? `: ${webhook.disabledReason}` : ''}`,
    );
  return h(
    'span',
    { class: webhook.consecutiveFailures ? 'webhook-state state-failing' : 'webhook-state state-enabled', 'data-state': 'enabled' },
    webhook.consecutiveFailures ? `enabled, ${webhook.consecutiveFailures} failed in a row` : 'enabled',
  );
}

/** "200 in 35 ms", "no answer after 10000 ms: connection refused". */
function attemptText(attempt: DeliveryAttempt): string {
  const status = attempt.statusCode !== undefined ? `${attempt.statusCode}` : 'no answer';
  return `${status} in ${attempt.durationMs} ms${attempt.error ? `: ${attempt.error}` : ''}`;
}

function deliveryList(items: WebhookDelivery[]): HTMLElement {
  if (items.length === 0) return h('p', { class: 'empty' }, 'Nothing sent to it yet.');
  return h(
    'ul',
    { class: 'delivery-list' },
    items.map((delivery) =>
      h(
        'li',
        { class: `delivery delivery-${delivery.state}`, 'data-state': delivery.state, 'data-event-id': delivery.eventId },
        h(
          'div',
          { class: 'delivery-head' },
          h('span', { class: `delivery-state state-${delivery.state}` }, delivery.state),
          h('code', { class: 'delivery-type' }, delivery.type),
          h('time', { class: 'muted', dateTime: delivery.createdAt }, formatDate(delivery.createdAt)),
          delivery.nextAttemptAt ? h('span', { class: 'muted' }, `next try ${formatDate(delivery.nextAttemptAt)}`) : null,
        ),
        delivery.attempts.length
          ? h(
              'ol',
              { class: 'attempts' },
              delivery.attempts.map((attempt) =>
                h(
                  'li',
                  { class: attempt.error ? 'attempt attempt-failed' : 'attempt', 'data-status': attempt.statusCode ?? '' },
                  `#${attempt.attempt} ${formatDate(attempt.at)}: `,
                  attemptText(attempt),
                ),
              ),
            )
          : h('p', { class: 'muted' }, 'Not tried yet.'),
      ),
    ),
  );
}

/** The secret, once: with a button that copies it, and the word that it is not shown again. */
function secretNotice(webhook: WebhookCreated): HTMLElement {
  const copied = h('span', { class: 'copy-message', 'aria-live': 'polite' });
  return h(
    'div',
    { class: 'notice webhook-secret-notice', role: 'status' },
    h('p', {}, h('strong', {}, 'Webhook added. '), 'Its signing secret is shown this once: copy it into your receiver now.'),
    h(
      'div',
      { class: 'copy-row' },
      h('code', { id: 'webhook-secret', class: 'webhook-secret' }, webhook.secret),
      h(
        'button',
        {
          type: 'button',
          class: 'small',
          id: 'copy-secret',
          onclick: handler(async () => {
            try {
              await navigator.clipboard.writeText(webhook.secret);
              replace(copied, 'Copied.');
            } catch {
              replace(copied, 'Could not copy: select the secret and copy it.');
            }
          }),
        },
        'Copy',
      ),
      copied,
    ),
  );
}

function webhookForm(ctx: ViewContext, created: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const { session } = ctx;
  const url = h('input', {
    id: 'webhook-url',
    name: 'url',
    type: 'url',
    required: true,
    maxLength: NOTIFICATION_LIMITS.urlMaxChars,
    placeholder: 'https://hooks.example.com/api-changes',
  });
  const description = h('input', { id: 'webhook-description', name: 'description', maxLength: NOTIFICATION_LIMITS.descriptionMaxChars });
  const apiIds = h('input', { id: 'webhook-api-ids', name: 'apiIds', placeholder: 'API ids, comma-separated; empty: every API', autocomplete: 'off' });
  const teams = h('input', { id: 'webhook-teams', name: 'teamNames', placeholder: 'team names, comma-separated; empty: every team', autocomplete: 'off' });
  const events = h(
    'fieldset',
    { class: 'field event-choices', id: 'webhook-events' },
    h('legend', {}, 'Events'),
    h('small', { class: 'muted' }, 'None ticked: every event.'),
    EVENT_TYPES.map((type) => h('label', { class: 'event-choice' }, h('input', { type: 'checkbox', name: 'events', value: type }), ' ', h('code', {}, type))),
  );
  const message = h('div', { class: 'webhook-form-message', 'aria-live': 'polite' });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Add webhook');
  const field = (label: string, control: HTMLElement) => h('label', { class: 'field' }, h('span', {}, label), control);
  const form = h(
    'form',
    {
      id: 'webhook-form',
      class: 'register-form webhook-form',
      'aria-labelledby': 'webhook-form-heading',
      onsubmit: handler(async (event: Event) => {
        event.preventDefault();
        const chosen = [...events.querySelectorAll<HTMLInputElement>('input[name=events]:checked')].map((box) => box.value as EventType);
        save.disabled = true;
        replace(message);
        try {
          const webhook = await ragApiClient.createWebhook(session.token, {
            orgId: session.org,
            url: url.value.trim(),
            ...(chosen.length ? { events: chosen } : {}),
            ...(listOf(apiIds.value).length ? { apiIds: listOf(apiIds.value) } : {}),
            ...(listOf(teams.value).length ? { teamNames: listOf(teams.value) } : {}),
            ...(description.value.trim() ? { description: description.value.trim() } : {}),
          });
          form.reset();
          replace(created, secretNotice(webhook));
          await reload();
          created.querySelector<HTMLElement>('#copy-secret')?.focus();
        } catch (error) {
          replace(
            message,
            errorBox(error, 'Webhook not added', { 400: 'Check the URL: a private or loopback host needs WEBHOOK_ALLOWED_HOSTS on the server.' }),
          );
        } finally {
          save.disabled = false;
        }
      }),
    },
    h('h2', { id: 'webhook-form-heading' }, 'Add a webhook'),
    field('URL', url),
    field('Description', description),
    events,
    field('Only these APIs', apiIds),
    field('Only these teams', teams),
    h('div', { class: 'actions' }, save),
    message,
  );
  return form;
}
