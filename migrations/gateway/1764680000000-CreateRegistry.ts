import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRegistry1764680000000 implements MigrationInterface {
  name = 'CreateRegistry1764680000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS platform_backend`);
    await queryRunner.query(`
      CREATE TABLE platform_backend.apis (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        org_id text NOT NULL,
        name text NOT NULL,
        version text NOT NULL,
        team_name text,
        description text,
        spec text NOT NULL,
        revision integer NOT NULL DEFAULT 1,
        queued_revision integer NOT NULL DEFAULT 0,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One live API per (org, name, version); deleted rows wait only until their delete job is queued.
    await queryRunner.query(`CREATE UNIQUE INDEX apis_org_name_version_uq ON platform_backend.apis (org_id, lower(name), version) WHERE deleted_at IS NULL`);
    await queryRunner.query(`CREATE INDEX apis_org_team_idx ON platform_backend.apis (org_id, team_name)`);
    await queryRunner.query(`CREATE INDEX apis_outbox_idx ON platform_backend.apis (updated_at) WHERE queued_revision < revision`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_backend.apis`);
    await queryRunner.query(`DROP SCHEMA platform_backend`);
  }
}
