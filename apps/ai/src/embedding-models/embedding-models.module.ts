import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { AiRole } from '#config';
import { EmbeddingModelsController } from './embedding-models.controller.js';
import { EmbeddingModelsRepository } from './embedding-models.repository.js';
import { EmbeddingModelsService } from './embedding-models.service.js';
import { QueryVectors } from './query-vectors.js';

/**
 * Which embedding models the index holds: read by search, indexing and the model switch
 * (`ModelSwitchModule`), and listed by the admin API in the `api` and `all` roles.
 */
@Global()
@Module({})
export class EmbeddingModelsModule {
  static forRoot(role: AiRole): DynamicModule {
    return {
      module: EmbeddingModelsModule,
      controllers: role === 'worker' ? [] : [EmbeddingModelsController],
      providers: [EmbeddingModelsService, EmbeddingModelsRepository, QueryVectors],
      exports: [EmbeddingModelsService, EmbeddingModelsRepository, QueryVectors],
    };
  }
}
