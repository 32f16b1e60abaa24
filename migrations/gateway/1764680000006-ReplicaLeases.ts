import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The leases of the gateway's periodic jobs (reconciliation, outbox sweeps, import refreshes):
 * which replica leads each, until when (`ReplicaLeases`).
 */
export class ReplicaLeases1764680000006 implements MigrationInterface {
  name = 'ReplicaLeases1764680000006';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE platform_backend.leases (job text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_backend.leases`);
  }
}
