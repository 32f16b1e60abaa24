import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An org's labels on its APIs (`{key: value}`, `LABEL_LIMITS`), stored as given (values trimmed).
 * The catalogue's `?label=key:value` compares values in any case, as `teamName`: it asks for
 * `lower_labels(labels) @> '{"key": "value"}'` with the value lower-cased, which the GIN index
 * below answers (an index on `labels` itself could not, as it keeps the values' case).
 */
export class ApiLabels1764680000003 implements MigrationInterface {
  name = 'ApiLabels1764680000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_backend.apis ADD COLUMN labels jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(
      `CREATE FUNCTION platform_backend.lower_labels(labels jsonb) RETURNS jsonb
       LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT coalesce(jsonb_object_agg(key, lower(value)), '{}'::jsonb) FROM jsonb_each_text(labels) $$`,
    );
    await queryRunner.query(`CREATE INDEX apis_labels_idx ON platform_backend.apis USING gin (platform_backend.lower_labels(labels) jsonb_path_ops)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_backend.apis_labels_idx`);
    await queryRunner.query(`DROP FUNCTION platform_backend.lower_labels(jsonb)`);
    await queryRunner.query(`ALTER TABLE platform_backend.apis DROP COLUMN labels`);
  }
}
