import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The leases of the AI app's periodic jobs (re-index re-sends, model switches, feedback purges):
 * which replica leads each, until when (`ReplicaLeases`).
 */
export class ReplicaLeases1764680000021 implements MigrationInterface {
  name = 'ReplicaLeases1764680000021';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE platform_ai.leases (job text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_ai.leases`);
  }
}
