const MAX_INPUT_CHARS = 100_000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * Plain text from a spec's HTML/Markdown description: tags, link targets, images, emphasis
 * and code fences dropped, entities decoded, whitespace collapsed.
 */
export function cleanText(input: unknown): string {
  if (typeof input !== 'string') return '';
  // No chunk shows more than a few thousand characters of one text: don't scan megabytes for them.
  return (
    input
      .slice(0, MAX_INPUT_CHARS)
      .replace(/```[\s\S]*?```/g, ' ')
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<\/?(a|b|i|u|em|strong|code|span|small|sub|sup|mark)\b[^>]{0,2000}>/gi, '')
      .replace(/<[^>]{0,2000}>/g, ' ')
      // A link's text holds no brackets, and its target parentheses one level deep at most
      // (`wiki/Foo_(bar)`), so that a text of unclosed ones is read once, not once per bracket
      // (100,000 `[` took 5 s).
      .replace(/!\[[^[\]]*\]\((?:[^()]|\([^()]*\))*\)/g, ' ')
      .replace(/\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
      // Reference links, as Google's protos cross-reference their types: `[Secret][google.cloud.secretmanager.v1.Secret]`.
      .replace(/\[([^[\]]*)\]\[[^[\]]*\]/g, '$1')
      .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name])
      .replace(/[*_`#>|]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Cuts at a word boundary and marks the cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.5 ? cut.slice(0, space) : cut}…`;
}

/** Splits long text into parts of at most `max` characters, preferring sentence ends. */
export function splitText(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const sentenceEnd = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '));
    const cut = sentenceEnd > max * 0.5 ? sentenceEnd + 1 : window.lastIndexOf(' ') > max * 0.5 ? window.lastIndexOf(' ') : max;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}
