import { BadRequestException, Body, Controller, HttpCode, Inject } from '@nestjs/common';
import { AI_ROUTES, ANSWER_MAX_CHARS, type SearchResponse } from '#contracts';
import { fitJson, Route } from '#http';
import { SPEC_FORMATS, type SpecFormats } from '#api-specs';
import { SearchRequestDto } from '#dtos';
import { SearchService } from './search.service.js';

@Controller()
export class SearchController {
  constructor(
    private readonly searchService: SearchService,
    @Inject(SPEC_FORMATS) private readonly formats: SpecFormats,
  ) {}

  @Route(AI_ROUTES.search)
  @HttpCode(200)
  async search(@Body() request: SearchRequestDto): Promise<SearchResponse> {
    const unknown = request.filters?.kinds?.filter((kind) => !this.formats.byKind(kind));
    if (unknown?.length) {
      throw new BadRequestException([`filters.kinds has unknown kinds (${unknown.join(', ')}): the known kinds are ${this.formats.kinds.join(', ')}`]);
    }
    const { value, cuts } = fitJson(await this.searchService.search(request), ANSWER_MAX_CHARS.search);
    if (cuts.length === 0) return value;
    const cut = `The answer was cut to fit ${ANSWER_MAX_CHARS.search.toLocaleString('en-US')} characters (fewer endpoints per card, or filters, give all of it): ${cuts.join('; ')}`;
    return { ...value, warnings: [...(value.warnings ?? []), cut] };
  }
}
