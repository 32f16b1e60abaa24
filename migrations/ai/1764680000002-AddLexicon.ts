import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-org vocabulary of the full-text index: how many chunks hold each lexeme. It gives keyword
 * search its term weights (rare words count more, as in BM25) and a dictionary to correct typos
 * against (trigram similarity).
 */
export class AddLexicon1764680000002 implements MigrationInterface {
  name = 'AddLexicon1764680000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`
      CREATE TABLE platform_ai.lexicon (
        org_id text NOT NULL,
        word text NOT NULL,
        chunk_count integer NOT NULL,
        PRIMARY KEY (org_id, word)
      )`);
    await queryRunner.query(`CREATE INDEX lexicon_word_trgm_idx ON platform_ai.lexicon USING gin (word gin_trgm_ops)`);
    await queryRunner.query(`
      INSERT INTO platform_ai.lexicon (org_id, word, chunk_count)
      SELECT c.org_id, w.lexeme, count(*) FROM platform_ai.api_chunks c, unnest(c.search_vector) w GROUP BY 1, 2`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_ai.lexicon`);
  }
}
