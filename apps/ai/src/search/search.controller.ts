import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import type { SearchResponse } from '#contracts';
import { SearchRequestDto } from './search.dto.js';
import { SearchService } from './search.service.js';

@Controller()
export class SearchController {
  constructor(private readonly searchService: SearchService) {}

  @Post('search')
  @HttpCode(200)
  search(@Body() request: SearchRequestDto): Promise<SearchResponse> {
    return this.searchService.search(request);
  }
}
