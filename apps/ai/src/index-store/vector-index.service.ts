import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MIGRATION_LOCK_SQL } from '#database';
import { EmbeddingProviders } from '#embeddings';

/**
 * Each embedding model gets its own partial HNSW index over its own dimensions, so vectors of
 * an old and a new model can live side by side while everything is re-embedded. The migration
 * creates the default model's index; this creates the index of any other configured model.
 */
@Injectable()
export class VectorIndexService implements OnApplicationBootstrap {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly providers: EmbeddingProviders,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { modelId, dimensions } = this.providers.configured;
    // Replicas start together, and IF NOT EXISTS is no guard against another replica's CREATE
    // INDEX under way (their catalog rows collide: 23505): they take the migrations' lock in turn.
    await this.dataSource.transaction(async (manager) => {
      await manager.query(MIGRATION_LOCK_SQL);
      await manager.query(
        `CREATE INDEX IF NOT EXISTS ${vectorIndexName(modelId)} ON platform_ai.api_chunks
         USING hnsw ((embedding::vector(${Number(dimensions)})) vector_cosine_ops) WITH (m = 16, ef_construction = 64)
         WHERE model = '${modelId.replace(/'/g, "''")}'`,
      );
    });
  }

  /** Once a retired model's vectors are gone. */
  async drop(modelId: string): Promise<void> {
    await this.dataSource.query(`DROP INDEX IF EXISTS platform_ai.${vectorIndexName(modelId)}`);
  }
}

function vectorIndexName(modelId: string): string {
  return `api_chunks_embedding_${modelId.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_idx`.slice(0, 63);
}
