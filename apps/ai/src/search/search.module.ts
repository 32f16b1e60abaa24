import { Module } from '@nestjs/common';
import { SearchAdmission } from './search-admission.js';
import { SearchController } from './search.controller.js';
import { SearchService } from './search.service.js';

@Module({ controllers: [SearchController], providers: [SearchService, SearchAdmission] })
export class SearchModule {}
