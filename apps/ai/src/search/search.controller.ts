import { BadRequestException, Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import type { SearchResponse } from '#contracts';
import { SPEC_FORMATS, type SpecFormats } from '#spec';
import { SearchRequestDto } from './search.dto.js';
import { SearchService } from './search.service.js';

@Controller()
export class SearchController {
  constructor(
    private readonly searchService: SearchService,
    @Inject(SPEC_FORMATS) private readonly formats: SpecFormats,
  ) {}

  @Post('search')
  @HttpCode(200)
  search(@Body() request: SearchRequestDto): Promise<SearchResponse> {
    const unknown = request.filters?.kinds?.filter((kind) => !this.formats.byKind(kind));
    if (unknown?.length) {
      throw new BadRequestException([`filters.kinds has unknown kinds (${unknown.join(', ')}): the known kinds are ${this.formats.kinds.join(', ')}`]);
    }
    return this.searchService.search(request);
  }
}
