import type { EntityManager } from 'typeorm';
import { LIVE_CHUNK_COUNT } from '../scope/live.js';

/**
 * The lexicon words a typo may be corrected to, as the partial index `lexicon_correction_idx`
 * (migration 1764680000010) holds them: no punctuation, no digits. Paths, ids and versions are
 * a third of a lexicon, and never what a user mistyped. (Leaving out words of a single chunk too
 * was 3× cheaper, but lost corrections to rare words the eval's queries need.)
 */
const CORRECTABLE_WORD = `word !~ '[[:punct:][:digit:]]'`;

/** One of the org's words found for a word the user typed. */
export interface LexiconMatch {
  typed: string;
  word: string;
  chunkCount: number;
  similarity: number;
}

/** A query's tokens as the index stems them, with how many of the org's chunks hold each lexeme. */
export interface StemmedQuery {
  /** Each token's lexemes, stemmed and without stop words like the index ("english"), in the query's order. */
  tokens: { token: string; lexemes: string[] }[];
  /** How many chunks hold each lexeme the org uses (a lexeme missing here, the org never uses). */
  counts: Map<string, number>;
  /** How many chunks the org's live index has. */
  chunks: number;
}

/** What else the keyword step needs of the lexicon, once it knows which typed words the org uses. */
export interface LexiconLookUp<Label extends string> {
  /** Words (the typed words' families, equivalent phrases' words) to count. */
  words: string[];
  /** Variants of unknown words, each with one common typo undone, to find exactly (see `undoneTypos`). */
  variants: { typed: string; variant: string; undone: Label }[];
  /** Unknown words whose `limit` nearest words by trigrams are looked up unless a variant found them a letters-only word. */
  nearest: { words: string[]; limit: number };
  /**
   * Words spelt right whose correctable words starting with the prefix (a `LIKE` pattern) are
   * looked up: 1–2 ms a word through the trigram index, where the nearest words take 17–25.
   */
  startingWith: { typed: string; prefix: string }[];
}

export interface LexiconFound<Label extends string> {
  counts: Map<string, number>;
  undone: (LexiconMatch & { undone: Label })[];
  nearest: LexiconMatch[];
  startingWith: LexiconMatch[];
}

/**
 * The SQL of the keyword step (`buildKeywordQuery`): the words of a query as the index stems
 * them, and the org's lexicon (its words with how many chunks hold each), read in `manager` in two
 * round trips: which words of the query the org uses (`stem`), then all the rest (`lookUp`).
 */
export class LexiconRepository {
  constructor(private readonly manager: EntityManager) {}

  /** The tokens' lexemes, how many of the org's chunks hold each, and how many its live index has: one round trip. */
  async stem(orgId: string, tokens: string[]): Promise<StemmedQuery> {
    const rows: { position: string | null; token: string | null; lexemes: string[] | null; word: string | null; chunkCount: string | null }[] =
      await this.manager.query(
        `WITH parsed AS (
           SELECT t.position, t.token, tsvector_to_array(to_tsvector('english', t.token)) AS lexemes
           FROM unnest($2::text[]) WITH ORDINALITY AS t(token, position)
         )
         SELECT position, token, lexemes, NULL AS word, NULL AS "chunkCount" FROM parsed
         UNION ALL
         SELECT NULL, NULL, NULL, l.word, l.chunk_count FROM platform_ai.lexicon l
         WHERE l.org_id = $1 AND l.word IN (SELECT unnest(lexemes) FROM parsed)
         UNION ALL
         SELECT NULL, NULL, NULL, NULL, total FROM (${LIVE_CHUNK_COUNT}) live`,
        [orgId, tokens],
      );
    const parsed = rows.filter((row) => row.position !== null).sort((a, b) => Number(a.position) - Number(b.position));
    const total = rows.find((row) => row.position === null && row.word === null);
    return {
      tokens: parsed.map((row) => ({ token: row.token!, lexemes: row.lexemes! })),
      counts: new Map(rows.filter((row) => row.word !== null).map((row) => [row.word!, Number(row.chunkCount)])),
      chunks: Number(total?.chunkCount ?? 0),
    };
  }

  /**
   * How many chunks hold each of `words` (those the org uses), and the org's words an unknown one
   * may be a typo of: one round trip, or none when there is nothing to look up. A word a variant
   * finds exactly beats any trigram neighbour (see `chooseCorrections`), so those (17–25 ms a word)
   * are looked up only for the rest; "letters only" is tested on ASCII here, so a word it misses
   * costs a look-up, never a correction.
   */
  async lookUp<Label extends string>(orgId: string, wanted: LexiconLookUp<Label>): Promise<LexiconFound<Label>> {
    const { words, variants, nearest, startingWith } = wanted;
    const found: LexiconFound<Label> = { counts: new Map(), undone: [], nearest: [], startingWith: [] };
    if (!words.length && !variants.length && !nearest.words.length && !startingWith.length) return found;
    const rows: (LexiconMatch & { source: 'count' | 'undone' | 'nearest' | 'startingWith'; undone: Label | null })[] = await this.manager.query(
      `WITH undone AS (
         SELECT DISTINCT q.typed, q.undone, l.word, l.chunk_count, similarity(l.word, q.typed) AS similarity
         FROM unnest($3::text[], $4::text[], $5::text[]) AS q(typed, variant, undone)
         CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('english', q.variant))) AS v(lexeme)
         JOIN platform_ai.lexicon l ON l.org_id = $1 AND l.word = v.lexeme
       ), unfixed AS MATERIALIZED (
         SELECT q.typed FROM unnest($6::text[]) AS q(typed)
         WHERE NOT EXISTS (SELECT 1 FROM undone u WHERE u.typed = q.typed AND u.word ~ '^[a-z]+$')
       )
       SELECT 'count' AS source, NULL AS typed, word, chunk_count AS "chunkCount", NULL::real AS similarity, NULL AS undone
       FROM platform_ai.lexicon WHERE org_id = $1 AND word = ANY($2)
       UNION ALL
       SELECT 'undone', typed, word, chunk_count, similarity, undone FROM undone
       UNION ALL
       SELECT 'nearest', q.typed, c.word, c.chunk_count, c.similarity, NULL
       FROM unfixed q
       CROSS JOIN LATERAL (
         SELECT word, chunk_count, similarity(word, q.typed) AS similarity FROM platform_ai.lexicon
         WHERE org_id = $1 AND ${CORRECTABLE_WORD} ORDER BY word <-> q.typed LIMIT $7
       ) c
       UNION ALL
       SELECT 'startingWith', q.typed, c.word, c.chunk_count, similarity(c.word, q.typed), NULL
       FROM unnest($8::text[], $9::text[]) AS q(typed, prefix)
       CROSS JOIN LATERAL (
         SELECT word, chunk_count FROM platform_ai.lexicon WHERE org_id = $1 AND ${CORRECTABLE_WORD} AND word LIKE q.prefix
       ) c`,
      [
        orgId,
        words,
        variants.map((v) => v.typed),
        variants.map((v) => v.variant),
        variants.map((v) => v.undone),
        nearest.words,
        nearest.limit,
        startingWith.map((w) => w.typed),
        startingWith.map((w) => w.prefix),
      ],
    );
    for (const { source, typed, word, chunkCount, similarity, undone } of rows) {
      if (source === 'count') found.counts.set(word, Number(chunkCount));
      else if (source === 'undone') found.undone.push({ typed, word, chunkCount, similarity, undone: undone! });
      else found[source].push({ typed, word, chunkCount, similarity });
    }
    return found;
  }
}
