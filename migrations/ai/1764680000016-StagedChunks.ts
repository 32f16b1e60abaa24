import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An API's new chunks are written in short transactions beside its live ones, as a generation of
 * their own that search does not see (`api_indexing_status.staging_generation`), then swapped in
 * by one short transaction. Writing a chunk costs an HNSW insert (5–17 ms on PGlite): in one
 * transaction, 2000 chunks held PGlite's only session for half a minute, and every search and
 * status call in every org waited. Rows from before this migration have no generation: live.
 */
export class StagedChunks1764680000016 implements MigrationInterface {
  name = 'StagedChunks1764680000016';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE platform_ai.chunk_generations`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_chunks ADD COLUMN generation bigint`);
    await queryRunner.query(`ALTER TABLE platform_ai.chunk_terms ADD COLUMN generation bigint`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status ADD COLUMN staging_generation bigint`);
    // Staged chunks repeat the live ones' keys until the swap.
    await queryRunner.query(`ALTER TABLE platform_ai.api_chunks DROP CONSTRAINT api_chunks_api_model_key`);
    await queryRunner.query(
      `ALTER TABLE platform_ai.api_chunks ADD CONSTRAINT api_chunks_api_model_key UNIQUE NULLS NOT DISTINCT (api_id, model, chunk_key, generation)`,
    );
    // Each search looks up its org's staging generations: almost always none.
    await queryRunner.query(`CREATE INDEX api_indexing_status_staging_idx ON platform_ai.api_indexing_status (org_id) WHERE staging_generation IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_ai.api_indexing_status_staging_idx`);
    await queryRunner.query(
      `DELETE FROM platform_ai.api_chunks c USING platform_ai.api_indexing_status s WHERE s.api_id = c.api_id AND c.generation = s.staging_generation`,
    );
    await queryRunner.query(`ALTER TABLE platform_ai.api_chunks DROP CONSTRAINT api_chunks_api_model_key`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_chunks ADD CONSTRAINT api_chunks_api_model_key UNIQUE (api_id, model, chunk_key)`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_indexing_status DROP COLUMN staging_generation`);
    await queryRunner.query(`ALTER TABLE platform_ai.chunk_terms DROP COLUMN generation`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_chunks DROP COLUMN generation`);
    await queryRunner.query(`DROP SEQUENCE platform_ai.chunk_generations`);
  }
}
