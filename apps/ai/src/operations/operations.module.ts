import { Module } from '@nestjs/common';
import { IndexStoreModule } from '../index-store/index-store.module.js';
import { OperationsController } from './operations.controller.js';
import { OperationsService } from './operations.service.js';

/** Operation details of an API's live revision, from its kept spec copy (`ApiSpecsRepository`). */
@Module({ imports: [IndexStoreModule], controllers: [OperationsController], providers: [OperationsService] })
export class OperationsModule {}
