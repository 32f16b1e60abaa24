import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An API's labels (`{key: value}`, `LABEL_LIMITS`) with each revision's facts, as registered
 * (values trimmed), for cards and search's `filters.labels`. The filter compares values in any
 * case, as `teamNames`: it asks for `lower_labels(labels) @> '{"key": "value"}'` with the values
 * lower-cased, which the GIN index below answers (an index on `labels` itself could not, as it
 * keeps the values' case). Revisions indexed before have none.
 */
export class ApiLabels1764680000018 implements MigrationInterface {
  name = 'ApiLabels1764680000018';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.api_specs ADD COLUMN labels jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(
      `CREATE FUNCTION platform_ai.lower_labels(labels jsonb) RETURNS jsonb
       LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT coalesce(jsonb_object_agg(key, lower(value)), '{}'::jsonb) FROM jsonb_each_text(labels) $$`,
    );
    await queryRunner.query(`CREATE INDEX api_specs_labels_idx ON platform_ai.api_specs USING gin (platform_ai.lower_labels(labels) jsonb_path_ops)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_ai.api_specs_labels_idx`);
    await queryRunner.query(`DROP FUNCTION platform_ai.lower_labels(jsonb)`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_specs DROP COLUMN labels`);
  }
}
