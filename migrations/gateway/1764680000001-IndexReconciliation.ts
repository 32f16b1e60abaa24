import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the reconciliation needs: when each revision was queued, and the newest revision the index
 * is known to have reached (indexed, failed for good, or deleted). A queued revision the index has
 * not reached after a while is looked for in Redis and queued again if Redis lost it. Delete
 * tombstones now stay until the index confirms the deletion.
 */
export class IndexReconciliation1764680000001 implements MigrationInterface {
  name = 'IndexReconciliation1764680000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_backend.apis ADD COLUMN queued_at timestamptz, ADD COLUMN settled_revision integer NOT NULL DEFAULT 0`);
    // Revisions queued before this migration are checked once, like any other.
    await queryRunner.query(`UPDATE platform_backend.apis SET queued_at = updated_at WHERE queued_revision > 0`);
    await queryRunner.query(`CREATE INDEX apis_unsettled_idx ON platform_backend.apis (queued_at) WHERE settled_revision < revision`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_backend.apis_unsettled_idx`);
    await queryRunner.query(`DELETE FROM platform_backend.apis WHERE deleted_at IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE platform_backend.apis DROP COLUMN queued_at, DROP COLUMN settled_revision`);
  }
}
