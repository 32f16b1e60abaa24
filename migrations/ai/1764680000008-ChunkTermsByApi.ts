import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keyword postings by API. Once the top APIs of a search are known, their chunks' keyword scores
 * (matched chunks, endpoint order) need only these APIs' postings of the query's words; through
 * the (org, model, word) index that meant reading every posting of a common word in the org.
 * Measured on PostgreSQL 15 at 27k chunks: 31 → 2 ms for the cards' chunks.
 */
export class ChunkTermsByApi1764680000008 implements MigrationInterface {
  name = 'ChunkTermsByApi1764680000008';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX chunk_terms_api_idx ON platform_ai.chunk_terms (api_id, lexeme)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_ai.chunk_terms_api_idx`);
  }
}
