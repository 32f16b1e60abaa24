import { Module } from '@nestjs/common';
import { SearchAdmission } from './search-admission.js';
import { SearchController } from './search.controller.js';
import { SearchRepository } from './search.repository.js';
import { SearchService } from './search.service.js';

@Module({ controllers: [SearchController], providers: [SearchService, SearchAdmission, SearchRepository] })
export class SearchModule {}
