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

/**
 * The SQL of the keyword step (`buildKeywordQuery`): the words of a query as the index stems
 * them, and the org's lexicon (its words with how many chunks hold each), read in `manager`.
 */
export class LexiconRepository {
  constructor(private readonly manager: EntityManager) {}

  /** Each token's lexemes, stemmed and without stop words like the index ("english"). */
  lexemesOf(tokens: string[]): Promise<{ token: string; lexemes: string[] }[]> {
    return this.manager.query(
      `SELECT t.token, tsvector_to_array(to_tsvector('english', t.token)) AS lexemes FROM unnest($1::text[]) AS t(token)`,
      [tokens],
    );
  }

  /**
   * How many of the org's chunks hold each of these words (those it holds), and how many chunks
   * its live index has (`chunks`): one round trip.
   */
  async chunkCounts(orgId: string, words: string[]): Promise<{ chunks: number; counts: Map<string, number> }> {
    const rows: { word: string | null; chunk_count: string | null }[] = await this.manager.query(
      `SELECT word, chunk_count FROM platform_ai.lexicon WHERE org_id = $1 AND word = ANY($2)
       UNION ALL
       SELECT NULL, total FROM (${LIVE_CHUNK_COUNT}) live`,
      [orgId, words],
    );
    const total = rows.find((row) => row.word === null);
    return {
      chunks: Number(total?.chunk_count ?? 0),
      counts: new Map(rows.filter((row) => row.word !== null).map((row) => [row.word!, Number(row.chunk_count)])),
    };
  }

  /** Each word's `limit` nearest correctable words of the org, by trigrams. */
  nearestWords(orgId: string, words: string[], limit: number): Promise<LexiconMatch[]> {
    if (words.length === 0) return Promise.resolve([]);
    return this.manager.query(
      `SELECT q.typed, c.word, c.chunk_count AS "chunkCount", c.similarity
       FROM unnest($2::text[]) AS q(typed)
       CROSS JOIN LATERAL (
         SELECT word, chunk_count, similarity(word, q.typed) AS similarity FROM platform_ai.lexicon
         WHERE org_id = $1 AND ${CORRECTABLE_WORD} ORDER BY word <-> q.typed LIMIT $3
       ) c`,
      [orgId, words, limit],
    );
  }

  /**
   * The org's words that variants of typed words stem to exactly (through the primary key), each
   * with its variant's `undone` label and its similarity to the typed word.
   */
  variantWords<Label extends string>(orgId: string, variants: { typed: string; variant: string; undone: Label }[]): Promise<(LexiconMatch & { undone: Label })[]> {
    if (variants.length === 0) return Promise.resolve([]);
    return this.manager.query(
      `SELECT DISTINCT q.typed, q.undone, l.word, l.chunk_count AS "chunkCount", similarity(l.word, q.typed) AS similarity
       FROM unnest($2::text[], $3::text[], $4::text[]) AS q(typed, variant, undone)
       CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('english', q.variant))) AS v(lexeme)
       JOIN platform_ai.lexicon l ON l.org_id = $1 AND l.word = v.lexeme`,
      [orgId, variants.map((v) => v.typed), variants.map((v) => v.variant), variants.map((v) => v.undone)],
    );
  }

  /** The org's correctable words that start with each word's prefix (a `LIKE` pattern), through the trigram index. */
  wordsStartingWith(orgId: string, words: { typed: string; prefix: string }[]): Promise<LexiconMatch[]> {
    if (words.length === 0) return Promise.resolve([]);
    return this.manager.query(
      `SELECT q.typed, c.word, c.chunk_count AS "chunkCount", similarity(c.word, q.typed) AS similarity
       FROM unnest($2::text[], $3::text[]) AS q(typed, prefix)
       CROSS JOIN LATERAL (
         SELECT word, chunk_count FROM platform_ai.lexicon WHERE org_id = $1 AND ${CORRECTABLE_WORD} AND word LIKE q.prefix
       ) c`,
      [orgId, words.map((w) => w.typed), words.map((w) => w.prefix)],
    );
  }
}
