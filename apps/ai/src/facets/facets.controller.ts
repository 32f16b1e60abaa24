import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import type { SearchFacets } from '#contracts';
import { FacetsRequestDto } from './facets.dto.js';
import { FacetsRepository } from './facets.repository.js';

/** The gateway has checked the caller belongs to these orgs. */
@Controller('facets')
export class FacetsController {
  constructor(private readonly facets: FacetsRepository) {}

  @Post()
  @HttpCode(200)
  list(@Body() body: FacetsRequestDto): Promise<SearchFacets> {
    return this.facets.facetsOf(body.orgIds);
  }
}
