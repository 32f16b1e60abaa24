import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What search needs of an API's versions (see the registry's ApiVersions): each revision's facts
 * carry the stage of the version indexed (the API's recommended one), its sunset date and the
 * versions a card lists; the live revision's stage sits beside its kind in the status, where search
 * finds the org's few deprecated and retired APIs through a small partial index. Revisions indexed
 * before were of APIs with one version, in production.
 */
export class ApiLifecycle1764680000019 implements MigrationInterface {
  name = 'ApiLifecycle1764680000019';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE platform_ai.api_specs ADD COLUMN lifecycle text NOT NULL DEFAULT 'production', ADD COLUMN sunset_date text, ADD COLUMN versions jsonb NOT NULL DEFAULT '[]'`,
    );
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status ADD COLUMN lifecycle text NOT NULL DEFAULT 'production'`);
    await queryRunner.query(
      `CREATE INDEX api_indexing_status_lifecycle_idx ON platform_ai.api_indexing_status (org_id) WHERE lifecycle IN ('deprecated', 'retired') AND NOT deleted`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_ai.api_indexing_status_lifecycle_idx`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status DROP COLUMN lifecycle`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_specs DROP COLUMN lifecycle, DROP COLUMN sunset_date, DROP COLUMN versions`);
  }
}
