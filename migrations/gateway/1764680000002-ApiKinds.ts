import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The kind of API each spec is (the `SpecFormat` that read it): OpenAPI for every API registered
 * before other kinds existed. The worker is told it with each job, so it never guesses again.
 */
export class ApiKinds1764680000002 implements MigrationInterface {
  name = 'ApiKinds1764680000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_backend.apis ADD COLUMN kind text NOT NULL DEFAULT 'openapi'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_backend.apis DROP COLUMN kind`);
  }
}
