import { LABEL_LIMITS, labelProblem } from '../../../libs/contracts/src/labels.js';
import { h } from './dom.js';

/** An API's labels (`ApiRecord.labels`): `team=payments`, `env=prod`… a key once each. */
export type Labels = Record<string, string>;

/** The server's rules (LABEL_LIMITS), checked here too, so a mistake is told before anything is sent. */
export { LABEL_LIMITS };

/** `key=value`, as the UI shows and takes a label. */
export function labelText(key: string, value: string): string {
  return `${key}=${value}`;
}

/**
 * Labels from `key=value` entries, checked as the server checks them: blank entries are skipped,
 * keys and values trimmed. `entries` are lines (the register form) or a filter box's parts.
 */
export function parseLabels(entries: string[], name: (index: number) => string): { labels: Labels } | { error: string } {
  const labels: Labels = {};
  for (const [index, entry] of entries.entries()) {
    if (!entry.trim()) continue;
    const where = name(index);
    const equals = entry.indexOf('=');
    if (equals < 0) return { error: `${where}: "${entry.trim()}" is not key=value.` };
    const key = entry.slice(0, equals).trim();
    const value = entry.slice(equals + 1).trim();
    if (!key) return { error: `${where}: "${entry.trim()}" has no key (key=value).` };
    const problem = labelProblem(key, value);
    if (problem) return { error: `${where}: ${problem}.` };
    if (Object.hasOwn(labels, key)) return { error: `${where}: the key "${key}" is given twice; a key takes one value.` };
    labels[key] = value;
  }
  if (Object.keys(labels).length > LABEL_LIMITS.maxLabels) return { error: `${Object.keys(labels).length} labels: at most ${LABEL_LIMITS.maxLabels}.` };
  return { labels };
}

/** The register form's text: one `key=value` a line. */
export function parseLabelLines(text: string): { labels: Labels } | { error: string } {
  return parseLabels(text.split(/\r?\n/), (index) => `Labels, line ${index + 1}`);
}

/**
 * A filter box's text: `key=value`, several separated by commas. A part without `=` belongs to the
 * value before it, so a value may hold a comma (`region=eu,us` is one label).
 */
export function parseLabelFilter(text: string): { labels: Labels } | { error: string } {
  const parts: string[] = [];
  for (const part of text.split(',')) {
    if (parts.length && !part.includes('=')) parts[parts.length - 1] += `,${part}`;
    else parts.push(part);
  }
  return parseLabels(parts, () => 'Label filter');
}

/** The lines the register form shows for labels. */
export function labelLines(labels: Labels): string {
  return Object.entries(labels)
    .map(([key, value]) => labelText(key, value))
    .join('\n');
}

/** Label filters in a URL: `label=key:value`, repeated (as the catalogue's API takes them); a key holds no colon. */
export function labelsFromParams(params: URLSearchParams): Labels {
  // Checked by the server, which names a bad one; own properties whatever the key.
  return Object.fromEntries(
    params
      .getAll('label')
      .map((item) => [item.slice(0, Math.max(0, item.indexOf(':'))).trim(), item.slice(item.indexOf(':') + 1).trim()])
      .filter(([key, value]) => key && value),
  );
}

/** `key:value` each, for `label=` in a URL. */
export function labelParams(labels: Labels): string[] {
  return Object.entries(labels).map(([key, value]) => `${key}:${value}`);
}

/** What a label chip does: a button (filter by it here), a link (to the APIs that carry it), or nothing. */
export interface ChipAction {
  onClick?: (key: string, value: string) => void;
  href?: (key: string, value: string) => string;
  title?: (key: string, value: string) => string;
}

/** A label as a small chip `key=value`. */
export function labelChip(key: string, value: string, action: ChipAction = {}): HTMLElement {
  const text = labelText(key, value);
  const content = [h('span', { class: 'label-key' }, key), '=', h('span', { class: 'label-value' }, value)];
  const title = action.title?.(key, value);
  const onClick = action.onClick;
  if (onClick) return h('button', { type: 'button', class: 'label-chip', 'data-label': text, title, onclick: () => onClick(key, value) }, content);
  if (action.href) return h('a', { class: 'label-chip', 'data-label': text, title, href: action.href(key, value) }, content);
  return h('span', { class: 'label-chip', 'data-label': text }, content);
}

/** An API's labels as a row of chips, or nothing when it has none. */
export function labelChips(labels: Labels, action: ChipAction = {}): HTMLElement | null {
  const entries = Object.entries(labels);
  if (!entries.length) return null;
  return h(
    'ul',
    { class: 'labels', 'aria-label': 'Labels' },
    entries.map(([key, value]) => h('li', {}, labelChip(key, value, action))),
  );
}

/**
 * A label filter: a box taking `key=value` (several: comma-separated) and the labels chosen so
 * far as chips, each a button that removes it. `read()` is the labels to filter by, with what is
 * typed in the box, or undefined (and the reason shown beside the box) when that is not a label.
 */
export function labelFilter(options: { id: string; chosen: Labels; onRemove: (labels: Labels) => void }): {
  element: HTMLElement;
  read: () => Labels | undefined;
} {
  const message = h('span', { id: `${options.id}-error`, class: 'error-text label-filter-error', role: 'alert' });
  const input = h('input', {
    id: options.id,
    name: 'label',
    autocomplete: 'off',
    placeholder: 'key=value',
    'aria-label': 'Labels (key=value, comma-separated)',
    'aria-describedby': message.id,
    oninput: () => {
      message.textContent = '';
      input.removeAttribute('aria-invalid');
    },
  });
  const chosen = Object.entries(options.chosen);
  const chips = chosen.length
    ? h(
        'ul',
        { class: 'labels label-filters', 'aria-label': 'Label filters' },
        chosen.map(([key, value]) =>
          h(
            'li',
            {},
            h(
              'button',
              {
                type: 'button',
                class: 'label-chip removable',
                'data-label': labelText(key, value),
                title: 'Remove this filter',
                'aria-label': `Remove the label filter ${labelText(key, value)}`,
                onclick: () => {
                  const rest = { ...options.chosen };
                  delete rest[key];
                  options.onRemove(rest);
                },
              },
              h('span', { class: 'label-key' }, key),
              '=',
              h('span', { class: 'label-value' }, value),
              h('span', { class: 'remove', 'aria-hidden': 'true' }, ' ×'),
            ),
          ),
        ),
      )
    : null;
  const read = (): Labels | undefined => {
    const parsed = parseLabelFilter(input.value);
    if ('error' in parsed) {
      message.textContent = parsed.error;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return undefined;
    }
    const labels = { ...options.chosen, ...parsed.labels };
    if (Object.keys(labels).length > LABEL_LIMITS.maxLabels) {
      message.textContent = `At most ${LABEL_LIMITS.maxLabels} label filters.`;
      return undefined;
    }
    return labels;
  };
  const element = h('div', { class: 'label-filter' }, h('label', {}, 'Labels ', input), chips, message);
  return { element, read };
}
