import { Module } from '@nestjs/common';
import { FacetsController } from './facets.controller.js';
import { FacetsRepository } from './facets.repository.js';

@Module({ controllers: [FacetsController], providers: [FacetsRepository] })
export class FacetsModule {}
