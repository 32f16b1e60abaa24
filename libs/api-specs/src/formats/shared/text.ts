import { cleanText, truncate } from '../../clean-text.js';

/** An operation's summary when its document has none: its description's first sentence, at most 200 characters. */
const SUMMARY_CHARS = 200;

export function firstSentence(text: string | undefined): string {
  if (!text) return '';
  const end = text.search(/[.!?](\s|$)/);
  return truncate(end > 0 ? text.slice(0, end + 1) : text, SUMMARY_CHARS);
}

/** `{ description }` when the text has any once cleaned (plain text, no markup), else nothing. */
export function described(text: unknown): { description?: string } {
  const description = cleanText(text);
  return description ? { description } : {};
}
