import { Module } from '@nestjs/common';
import { IndexingQueueModule } from '../index-store/indexing-queue.module.js';
import { IndexStoreModule } from '../index-store/index-store.module.js';
import { ModelSwitchService } from './model-switch.service.js';

/** The worker side of a model switch (the `worker` and `all` roles): re-embedding jobs, activation, retired vectors. */
@Module({ imports: [IndexingQueueModule, IndexStoreModule], providers: [ModelSwitchService] })
export class ModelSwitchModule {}
