import { cleanText, splitText, truncate } from './clean-text.js';

describe(cleanText.name, () => {
  it('should strip HTML, markdown links, images, code fences and entities', () => {
    const input = '<p>Send <b>SMS</b> &amp; calls. See [the docs](https://x.io).</p>\n```js\ncode()\n```\n![logo](a.png) **Fast**';
    expect(cleanText(input)).toBe('Send SMS & calls. See the docs. Fast');
  });

  it('should keep the text of reference links, as protos cross-reference their types', () => {
    const input = 'Creates a new [SecretVersion][google.cloud.secretmanager.v1.SecretVersion] of a [Secret][] (see [1]).';
    expect(cleanText(input)).toBe('Creates a new SecretVersion of a Secret (see [1]).');
    expect(cleanText('See [Foo](https://en.wikipedia.org/wiki/Foo_(bar)).')).toBe('See Foo.');
  });

  it('should read a text of unclosed brackets in one pass, not once per bracket', () => {
    // Each of these took seconds when a link's text could hold brackets (100,000 `[`: 5 s).
    for (const hostile of [
      '['.repeat(100_000),
      '[a]('.repeat(25_000),
      '[a]['.repeat(25_000),
      '![a]('.repeat(20_000),
      '[a](('.repeat(20_000),
      `[a](${'('.repeat(100_000)}`,
    ]) {
      const started = performance.now();
      cleanText(hostile);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it('should drop script and style content entirely', () => {
    expect(cleanText('a<script>alert(1)</script>b<style>p{}</style>c')).toBe('a b c');
  });

  it('should give an empty string for non-text', () => {
    expect(cleanText(undefined)).toBe('');
    expect(cleanText(42)).toBe('');
  });
});

describe(truncate.name, () => {
  it('should cut at a word boundary and mark the cut', () => {
    expect(truncate('one two three four', 12)).toBe('one two…');
    expect(truncate('alpha beta gamma delta', 14)).toBe('alpha beta…');
    expect(truncate('short', 12)).toBe('short');
  });
});

describe(splitText.name, () => {
  it('should split at sentence ends and keep every word', () => {
    const text = 'First sentence here. Second sentence here. Third sentence here.';
    const parts = splitText(text, 45);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((part) => part.length <= 45)).toBe(true);
    expect(parts.join(' ')).toBe(text);
  });
});
