import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The embedding models whose vectors the index holds: the one search uses (`active`) and, while
 * a switch is under way, the one being filled in the background (`building`). A chunk may now
 * exist once per model.
 */
export class AddEmbeddingModels1764680000004 implements MigrationInterface {
  name = 'AddEmbeddingModels1764680000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform_ai.embedding_models (
        model text PRIMARY KEY,
        spec jsonb NOT NULL,
        dimensions integer NOT NULL,
        state text NOT NULL CHECK (state IN ('active', 'building', 'retired')),
        -- While building: why an API could not be re-embedded (api id → reason).
        failures jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        activated_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX embedding_models_one_active ON platform_ai.embedding_models (state) WHERE state = 'active'`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_chunks DROP CONSTRAINT api_chunks_api_id_chunk_key_key`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_chunks ADD CONSTRAINT api_chunks_api_model_key UNIQUE (api_id, model, chunk_key)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.api_chunks DROP CONSTRAINT api_chunks_api_model_key`);
    await queryRunner.query(`ALTER TABLE platform_ai.api_chunks ADD CONSTRAINT api_chunks_api_id_chunk_key_key UNIQUE (api_id, chunk_key)`);
    await queryRunner.query(`DROP TABLE platform_ai.embedding_models`);
  }
}
