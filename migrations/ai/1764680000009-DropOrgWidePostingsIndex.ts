import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every read of the keyword postings now names its APIs (the cards of a search) and goes through
 * `chunk_terms_api_idx`; the org-wide (org, model, word) index is read by nothing and only made
 * each posting write maintain one more B-tree (3.1M rows at 116k chunks).
 */
export class DropOrgWidePostingsIndex1764680000009 implements MigrationInterface {
  name = 'DropOrgWidePostingsIndex1764680000009';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_ai.chunk_terms_lookup_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX chunk_terms_lookup_idx ON platform_ai.chunk_terms (org_id, model, lexeme)`);
  }
}
