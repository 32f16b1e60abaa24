import type { AffectedConsumer, ApiVersionRecord, ConsumerRecord, ConsumerSource } from '../../../libs/contracts/src/index.js';
import { ApiError } from './api-client.js';
import { errorBox } from './components.js';
import { h, handler, replace } from './dom.js';

/** How the platform knows of a consumer: `declared` by a team, from a `catalog` tree, or `observed` calling over MCP. */
export function sourceBadge(source: ConsumerSource | string): HTMLElement {
  const titles: Record<string, string> = {
    declared: 'A team declared that it uses this API',
    catalog: "A Backstage Component's consumesApis names this API",
    observed: "Seen calling this API's operations with its client token",
  };
  return h('span', { class: `source-badge source-${source.replace(/[^a-z-]/g, '')}`, 'data-source': source, title: titles[source] }, source);
}

/** "billing-service (team payments, ops@example.com)": who a consumer is and whom to tell. */
export function consumerLabel(consumer: Pick<AffectedConsumer, 'name' | 'teamName' | 'contact'>): HTMLElement {
  const more = [consumer.teamName ? `team ${consumer.teamName}` : '', consumer.contact ?? ''].filter(Boolean).join(', ');
  return h(
    'span',
    { class: 'consumer-label' },
    h('strong', { class: 'consumer-name' }, consumer.name),
    more ? h('span', { class: 'muted' }, ` (${more})`) : null,
  );
}

/** Consumers as a short list, each with its team and contact. */
export function consumerList(consumers: Pick<AffectedConsumer, 'consumerId' | 'name' | 'teamName' | 'contact' | 'source'>[], className: string): HTMLElement {
  return h(
    'ul',
    { class: `consumer-names ${className}` },
    consumers.map((consumer) => h('li', { 'data-consumer-id': consumer.consumerId }, consumerLabel(consumer), ' ', sourceBadge(consumer.source))),
  );
}

/** Whether a consumer uses `version`: it names it, or it names none and `version` is the recommended one. */
export function usesVersion(consumer: ConsumerRecord, version: Pick<ApiVersionRecord, 'version' | 'recommended'>): boolean {
  return consumer.version === undefined || consumer.version === null ? version.recommended : consumer.version === version.version;
}

/** `1 consumer`, `3 consumers`. */
export function consumersCount(count: number): string {
  return `${count} consumer${count === 1 ? '' : 's'}`;
}

/**
 * A 409 that `force` overrides: consumers still use it. Another 409 (the only version of an API)
 * is no question to ask; the server's problem has no code of its own, so its detail tells them apart.
 */
function isInUse(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && /\bforce\b/.test(error.problem.detail);
}

/**
 * Runs `act` without force; when the server answers 409 (consumers still use what it would retire
 * or delete), shows its problem's `detail` (which names them) in `into` with a button that runs it
 * again with force, and one that leaves it. Any other failure is shown as it is. `show` puts a
 * failure or the question in `into` (a page may scroll to it and focus it).
 */
export async function withForceConfirm(
  into: HTMLElement,
  what: string,
  confirmLabel: string,
  act: (force: boolean) => Promise<void>,
  show: (content: HTMLElement) => void = (content) => replace(into, content),
): Promise<void> {
  try {
    await act(false);
    return;
  } catch (error) {
    if (!isInUse(error)) {
      show(errorBox(error, what));
      return;
    }
    const confirm = h(
      'button',
      {
        type: 'button',
        class: 'danger small',
        id: 'force-confirm',
        onclick: handler(async () => {
          confirm.disabled = true;
          try {
            await act(true);
            // Unless what it did shows in its place.
            if (question.isConnected) replace(into);
          } catch (forced) {
            show(errorBox(forced, what));
          }
        }),
      },
      confirmLabel,
    );
    const cancel = h('button', { type: 'button', class: 'small', id: 'force-cancel', onclick: () => replace(into) }, 'Cancel');
    const question = h(
      'div',
      { class: 'notice force-confirm', role: 'alertdialog', 'aria-labelledby': 'force-confirm-title' },
      h('strong', { id: 'force-confirm-title' }, 'Still in use. '),
      h('span', { class: 'force-detail' }, error.problem.detail),
      h('p', { class: 'muted' }, 'Go ahead anyway?'),
      h('div', { class: 'actions' }, confirm, cancel),
    );
    show(question);
    confirm.focus();
  }
}
