import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIndex1764680000001 implements MigrationInterface {
  name = 'CreateIndex1764680000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS vector`);
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS platform_ai`);
    // The AI app's own copy of each spec revision it received, so it can reindex on its own.
    await queryRunner.query(`
      CREATE TABLE platform_ai.api_specs (
        api_id uuid NOT NULL,
        revision integer NOT NULL,
        org_id text NOT NULL,
        name text NOT NULL,
        version text NOT NULL,
        team_name text,
        description text,
        spec text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (api_id, revision)
      )`);
    await queryRunner.query(`
      CREATE TABLE platform_ai.api_indexing_status (
        api_id uuid PRIMARY KEY,
        org_id text NOT NULL,
        revision integer NOT NULL,
        indexed_revision integer,
        status text NOT NULL CHECK (status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED')),
        error text,
        chunk_count integer,
        indexed_at timestamptz,
        deleted boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX api_indexing_status_org_idx ON platform_ai.api_indexing_status (org_id)`);
    await queryRunner.query(`
      CREATE TABLE platform_ai.api_chunks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        api_id uuid NOT NULL,
        org_id text NOT NULL,
        revision integer NOT NULL,
        level text NOT NULL CHECK (level IN ('L1', 'L2', 'L3')),
        chunk_key text NOT NULL,
        title text NOT NULL,
        content text NOT NULL,
        method text,
        path text,
        operation_id text,
        summary text,
        tags text[] NOT NULL DEFAULT '{}',
        model text NOT NULL,
        content_hash text NOT NULL,
        embedding vector NOT NULL,
        search_vector tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')
        ) STORED,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (api_id, chunk_key)
      )`);
    await queryRunner.query(`CREATE INDEX api_chunks_org_idx ON platform_ai.api_chunks (org_id)`);
    await queryRunner.query(`CREATE INDEX api_chunks_hash_idx ON platform_ai.api_chunks (model, content_hash)`);
    await queryRunner.query(`CREATE INDEX api_chunks_search_idx ON platform_ai.api_chunks USING gin (search_vector)`);
    // One partial HNSW index per embedding model; other models get theirs when first used.
    await queryRunner.query(`
      CREATE INDEX api_chunks_embedding_use_lite_512_idx ON platform_ai.api_chunks
      USING hnsw ((embedding::vector(512)) vector_cosine_ops) WITH (m = 16, ef_construction = 64)
      WHERE model = 'use-lite-512'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_ai.api_chunks`);
    await queryRunner.query(`DROP TABLE platform_ai.api_indexing_status`);
    await queryRunner.query(`DROP TABLE platform_ai.api_specs`);
    await queryRunner.query(`DROP SCHEMA platform_ai`);
  }
}
