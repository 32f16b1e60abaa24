import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each API's words as one document: how often each word occurs across all its chunks, and the
 * API's total. Keyword relevance of an API is BM25 over these (rare words count more, long specs
 * are not favoured for their length), which ranks APIs better than adding up chunk matches.
 */
export class AddApiTerms1764680000006 implements MigrationInterface {
  name = 'AddApiTerms1764680000006';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform_ai.api_terms (
        api_id uuid NOT NULL,
        org_id text NOT NULL,
        lexeme text NOT NULL,
        occurrences integer NOT NULL,
        PRIMARY KEY (api_id, lexeme)
      )`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status ADD COLUMN term_count integer`);
    // As IndexStoreService writes them for each API it indexes.
    await queryRunner.query(`
      INSERT INTO platform_ai.api_terms (api_id, org_id, lexeme, occurrences)
      SELECT c.api_id, c.org_id, w.lexeme, sum(coalesce(array_length(w.positions, 1), 1))
      FROM (SELECT DISTINCT ON (api_id, chunk_key) api_id, org_id, search_vector FROM platform_ai.api_chunks) c, unnest(c.search_vector) w
      WHERE strpos(w.lexeme, E'\\\\') = 0
      GROUP BY c.api_id, c.org_id, w.lexeme`);
    await queryRunner.query(`
      UPDATE platform_ai.api_indexing_status s SET term_count = t.total
      FROM (SELECT api_id, sum(occurrences) AS total FROM platform_ai.api_terms GROUP BY api_id) t
      WHERE t.api_id = s.api_id`);
    await queryRunner.query(`CREATE INDEX api_terms_lookup_idx ON platform_ai.api_terms (org_id, lexeme)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status DROP COLUMN term_count`);
    await queryRunner.query(`DROP TABLE platform_ai.api_terms`);
  }
}
