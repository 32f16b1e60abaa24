import { Global, Module } from '@nestjs/common';
import { EmbeddingModelsService } from './embedding-models.service.js';

/** Which embedding models the index holds: read by search, indexing and the model switch. */
@Global()
@Module({ providers: [EmbeddingModelsService], exports: [EmbeddingModelsService] })
export class EmbeddingModelsModule {}
