import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Admin re-index runs and the progress of each API in them. */
export class AddReindexRuns1764680000003 implements MigrationInterface {
  name = 'AddReindexRuns1764680000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform_ai.reindex_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        org_ids text[] NOT NULL,
        requested_by text NOT NULL,
        requested_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE platform_ai.reindex_items (
        reindex_id uuid NOT NULL REFERENCES platform_ai.reindex_runs (id) ON DELETE CASCADE,
        api_id uuid NOT NULL,
        revision integer NOT NULL,
        status text NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'DONE', 'FAILED')),
        error text,
        finished_at timestamptz,
        PRIMARY KEY (reindex_id, api_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_ai.reindex_items`);
    await queryRunner.query(`DROP TABLE platform_ai.reindex_runs`);
  }
}
