import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API kinds (OpenAPI, AsyncAPI, GraphQL, gRPC): the kind of each API's indexed spec, for cards
 * and search's `kinds` filter, and the format its spec copy was registered as (NULL: detected
 * when read). Every API indexed before is OpenAPI: nothing is re-embedded.
 */
export class ApiKinds1764680000017 implements MigrationInterface {
  name = 'ApiKinds1764680000017';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status ADD COLUMN kind text NOT NULL DEFAULT 'openapi'`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_specs ADD COLUMN format text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.api_specs DROP COLUMN format`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status DROP COLUMN kind`);
  }
}
