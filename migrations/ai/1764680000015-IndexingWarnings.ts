import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the index limits left out of an API's live revision (INDEX_MAX_CHUNKS and the like), shown with its status. */
export class IndexingWarnings1764680000015 implements MigrationInterface {
  name = 'IndexingWarnings1764680000015';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status ADD COLUMN warnings text[]`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status DROP COLUMN warnings`);
  }
}
