import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Versions as code (#42): each version remembers the file of the tree it is read from
 * (`api_versions.source`: tree, path, SHA-256), so that two files of one API are two versions; the
 * API keeps its tree and its identity in it (`apis.source`: tree, key). A Backstage entity's place
 * in the catalogue is kept on its API (`apis.catalog`: entity ref, owner ref, system, tags), and
 * each tree's components, the files its descriptors named, and a generation that keeps two
 * imports of one tree from interleaving (`import_trees`).
 *
 * The single file an API was imported from before becomes its version's source; its key is left
 * out (the next import finds the API by that file and records the key).
 */
export class TreeImports1764680000007 implements MigrationInterface {
  name = 'TreeImports1764680000007';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_backend.api_versions ADD COLUMN source jsonb`);
    await queryRunner.query(`ALTER TABLE platform_backend.apis ADD COLUMN catalog jsonb`);
    await queryRunner.query(
      `UPDATE platform_backend.api_versions v
          SET source = jsonb_build_object('tree', a.source ->> 'tree', 'path', a.source ->> 'path', 'sha256', a.source ->> 'sha256')
         FROM platform_backend.apis a
        WHERE a.id = v.api_id AND a.source ? 'tree' AND a.source ? 'path' AND v.version = a.source ->> 'version'`,
    );
    await queryRunner.query(`UPDATE platform_backend.apis SET source = jsonb_build_object('tree', source ->> 'tree') WHERE source ? 'tree'`);
    await queryRunner.query(`CREATE INDEX apis_catalog_idx ON platform_backend.apis USING gin (catalog jsonb_path_ops) WHERE deleted_at IS NULL`);
    await queryRunner.query(
      `CREATE TABLE platform_backend.import_trees (
         org_id text NOT NULL,
         tree text NOT NULL,
         components jsonb NOT NULL DEFAULT '[]',
         described_paths jsonb NOT NULL DEFAULT '[]',
         generation integer NOT NULL DEFAULT 0,
         updated_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (org_id, tree)
       )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_backend.import_trees`);
    // The recommended version's file becomes the API's single file again, as before.
    await queryRunner.query(
      `UPDATE platform_backend.apis a
          SET source = jsonb_build_object('tree', v.source ->> 'tree', 'path', v.source ->> 'path', 'version', v.version, 'sha256', v.source ->> 'sha256')
         FROM platform_backend.api_versions v
        WHERE v.api_id = a.id AND v.version = a.version AND v.source IS NOT NULL AND a.source ? 'tree'`,
    );
    await queryRunner.query(`DROP INDEX platform_backend.apis_catalog_idx`);
    await queryRunner.query(`ALTER TABLE platform_backend.apis DROP COLUMN catalog`);
    await queryRunner.query(`ALTER TABLE platform_backend.api_versions DROP COLUMN source`);
  }
}
