import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An API holds versions side by side, each with its lifecycle stage, kind and revisions (the
 * spec of each, kept for change reports, with its lint findings once linted). The `apis` row
 * keeps the API's own details and what search holds of it: its recommended version's name,
 * kind and stage, and `revision`, which counts every change the index must see.
 *
 * Every existing API becomes one `production` version holding its spec as the revision the
 * registry knew it by, so nothing is re-indexed (the index's revision numbers stay the same).
 * An API is now found by its name within its org (a new version is added to it, not registered
 * beside it); APIs registered before under the same name stay as they are, apart.
 */
export class ApiVersions1764680000004 implements MigrationInterface {
  name = 'ApiVersions1764680000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform_backend.api_versions (
        api_id uuid NOT NULL REFERENCES platform_backend.apis (id) ON DELETE CASCADE,
        version text NOT NULL,
        lifecycle text NOT NULL DEFAULT 'production'
          CHECK (lifecycle IN ('design', 'development', 'testing', 'preview', 'production', 'deprecated', 'retired')),
        sunset_date date,
        kind text NOT NULL,
        revision integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (api_id, version)
      )`);
    await queryRunner.query(`
      CREATE TABLE platform_backend.api_version_revisions (
        api_id uuid NOT NULL,
        version text NOT NULL,
        revision integer NOT NULL,
        kind text NOT NULL,
        spec text NOT NULL,
        lint jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (api_id, version, revision),
        FOREIGN KEY (api_id, version) REFERENCES platform_backend.api_versions (api_id, version) ON DELETE CASCADE ON UPDATE CASCADE
      )`);
    await queryRunner.query(
      `INSERT INTO platform_backend.api_versions (api_id, version, kind, revision, created_at, updated_at)
       SELECT id, version, kind, revision, created_at, updated_at FROM platform_backend.apis WHERE deleted_at IS NULL`,
    );
    await queryRunner.query(
      `INSERT INTO platform_backend.api_version_revisions (api_id, version, revision, kind, spec, created_at)
       SELECT id, version, revision, kind, spec, updated_at FROM platform_backend.apis WHERE deleted_at IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE platform_backend.apis DROP COLUMN spec,
         ADD COLUMN lifecycle text NOT NULL DEFAULT 'production', ADD COLUMN sunset_date date`,
    );
    // Versions share the API's name now: the name alone finds the API in its org.
    await queryRunner.query(`DROP INDEX platform_backend.apis_org_name_version_uq`);
    await queryRunner.query(`CREATE INDEX apis_org_name_idx ON platform_backend.apis (org_id, lower(name)) WHERE deleted_at IS NULL`);
    await queryRunner.query(`CREATE INDEX apis_org_lifecycle_idx ON platform_backend.apis (org_id, lifecycle) WHERE deleted_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_backend.apis_org_lifecycle_idx`);
    await queryRunner.query(`DROP INDEX platform_backend.apis_org_name_idx`);
    await queryRunner.query(`ALTER TABLE platform_backend.apis ADD COLUMN spec text NOT NULL DEFAULT ''`);
    // Back to one spec per API: its recommended version's current one.
    await queryRunner.query(
      `UPDATE platform_backend.apis a SET spec = r.spec
       FROM platform_backend.api_versions v JOIN platform_backend.api_version_revisions r ON r.api_id = v.api_id AND r.version = v.version AND r.revision = v.revision
       WHERE v.api_id = a.id AND v.version = a.version`,
    );
    await queryRunner.query(`ALTER TABLE platform_backend.apis ALTER COLUMN spec DROP DEFAULT, DROP COLUMN lifecycle, DROP COLUMN sunset_date`);
    await queryRunner.query(`DROP TABLE platform_backend.api_version_revisions`);
    await queryRunner.query(`DROP TABLE platform_backend.api_versions`);
    await queryRunner.query(`CREATE UNIQUE INDEX apis_org_name_version_uq ON platform_backend.apis (org_id, lower(name), version) WHERE deleted_at IS NULL`);
  }
}
