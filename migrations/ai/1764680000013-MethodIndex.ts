import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which APIs have an operation of a search's methods, from an index: the filter scanned every
 * chunk of every org (40 ms for DELETE at 27k chunks; 5.7 ms with this, 16.6 → 3.6 ms for TRACE).
 */
export class MethodIndex1764680000013 implements MigrationInterface {
  name = 'MethodIndex1764680000013';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX api_chunks_method_idx ON platform_ai.api_chunks (org_id, method, api_id) WHERE level = 'L2'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_ai.api_chunks_method_idx`);
  }
}
