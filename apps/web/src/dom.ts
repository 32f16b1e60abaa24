/*
 * The only way this UI builds DOM: elements with properties and text nodes. Nothing from the
 * server (spec text above all) is ever parsed as HTML.
 */
type Child = Node | string | number | false | null | undefined;
type Props = Record<string, string | number | boolean | EventListener | undefined> & { dataset?: never };

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(key.replace(/^on/, '').toLowerCase(), value);
    else if (key === 'class') element.className = String(value);
    // Attributes without a writable property of the same name (an input's `list` is read-only).
    else if (key.startsWith('data-') || key.startsWith('aria-') || key === 'role' || key === 'for' || key === 'tabindex' || key === 'list')
      element.setAttribute(key, String(value));
    else (element as unknown as Record<string, unknown>)[key] = value;
  }
  append(element, ...children);
  return element;
}

/** An async event handler as a listener: its failure is logged, since no caller awaits it. */
export function handler(run: (event: Event) => Promise<void>): EventListener {
  return (event) => void run(event).catch((error: unknown) => console.error(error));
}

export function append(parent: Node, ...children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

export function replace(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

const STOP_WORDS = new Set([
  'and',
  'are',
  'can',
  'for',
  'from',
  'how',
  'into',
  'its',
  'me',
  'my',
  'not',
  'of',
  'one',
  'or',
  'our',
  'some',
  'that',
  'the',
  'their',
  'them',
  'this',
  'to',
  'want',
  'what',
  'when',
  'which',
  'with',
  'you',
  'your',
]);

/** The words of a query worth highlighting: three letters or more, not the glue of a sentence. */
export function queryTerms(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])].filter((term) => !STOP_WORDS.has(term));
}

/** `text` with each word that starts with a term (so "orders" for "order") in a `<mark>`; text nodes only. */
export function highlight(text: string, terms: string[]): Node[] {
  if (terms.length === 0) return [document.createTextNode(text)];
  const alternatives = terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])((?:${alternatives})[\\p{L}\\p{N}]*)`, 'giu');
  // With a capturing pattern, split puts the matches at the odd indexes.
  return text
    .split(pattern)
    .map((part, index) => (index % 2 === 1 ? h('mark', {}, part) : document.createTextNode(part)))
    .filter((node) => node.textContent);
}

export function formatDate(iso?: string): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}
