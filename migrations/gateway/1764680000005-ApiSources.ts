import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where an imported API's spec comes from (`ApiSource`, issue #31): the URL it is fetched from,
 * or the tree and path of a folder import's file. The index serves a folder import's listing of
 * its tree (`GET /api-management/apis?sourceTree=`) and its prune; the periodic refresh reads the
 * few URL sources in `fetchedAt` order without one.
 */
export class ApiSources1764680000005 implements MigrationInterface {
  name = 'ApiSources1764680000005';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_backend.apis ADD COLUMN source jsonb`);
    await queryRunner.query(
      `CREATE INDEX apis_org_source_tree_idx ON platform_backend.apis (org_id, (source ->> 'tree')) WHERE deleted_at IS NULL AND source ? 'tree'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_backend.apis_org_source_tree_idx`);
    await queryRunner.query(`ALTER TABLE platform_backend.apis DROP COLUMN source`);
  }
}
