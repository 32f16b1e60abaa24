import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EMBEDDING_PROVIDER, type EmbeddingProvider } from '#embeddings';

/**
 * Each embedding model gets its own partial HNSW index over its own dimensions, so vectors of
 * an old and a new model can live side by side while everything is reindexed. The migration
 * creates the default model's index; this creates the index of any other configured model.
 */
@Injectable()
export class VectorIndexService implements OnApplicationBootstrap {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(EMBEDDING_PROVIDER) private readonly embeddings: EmbeddingProvider,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { modelId, dimensions } = this.embeddings;
    const indexName = `api_chunks_embedding_${modelId.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_idx`.slice(0, 63);
    await this.dataSource.query(
      `CREATE INDEX IF NOT EXISTS ${indexName} ON platform_ai.api_chunks
       USING hnsw ((embedding::vector(${Number(dimensions)})) vector_cosine_ops) WITH (m = 16, ef_construction = 64)
       WHERE model = '${modelId.replace(/'/g, "''")}'`,
    );
  }
}
