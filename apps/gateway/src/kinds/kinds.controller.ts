import { Controller, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ApiKindsResponse, GATEWAY_ROUTES } from '#contracts';
import { Route } from '#http';
import { kindInfo, SPEC_FORMATS, type SpecFormats } from '#api-specs';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { ApiKindsResponseDoc } from '../docs/openapi-models.js';

/** The kinds of API this gateway reads, as its spec format plugins say: what the web UI, docs and tools go by. */
@ApiTags('Registry')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS)
@Controller()
export class KindsController {
  private readonly kinds: ApiKindsResponse;

  constructor(@Inject(SPEC_FORMATS) formats: SpecFormats) {
    this.kinds = { items: formats.all.map(kindInfo) };
  }

  @Route(GATEWAY_ROUTES.kinds)
  @ApiOperation({
    summary:
      "The kinds of API this platform reads, in the order it tries them: each one's name, formats, verbs, what its operations' parts are called, and its files' extensions",
  })
  @ApiOkResponse({ type: ApiKindsResponseDoc })
  list(): ApiKindsResponse {
    return this.kinds;
  }
}
