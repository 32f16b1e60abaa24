import { Body, Controller, HttpCode } from '@nestjs/common';
import { AI_ROUTES, type SearchFacets } from '#contracts';
import { Route } from '#http';
import { FacetsRequestDto } from './facets.dto.js';
import { FacetsRepository } from './facets.repository.js';

/** The gateway has checked the caller belongs to these orgs. */
@Controller()
export class FacetsController {
  constructor(private readonly facets: FacetsRepository) {}

  @Route(AI_ROUTES.facets)
  @HttpCode(200)
  list(@Body() body: FacetsRequestDto): Promise<SearchFacets> {
    return this.facets.facetsOf(body.orgIds);
  }
}
