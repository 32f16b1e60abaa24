import { BadRequestException, Body, Controller, Headers, HttpCode, Param, ParseUUIDPipe } from '@nestjs/common';
import { AI_ROUTES, type IndexingStatus, type IndexState, InternalHeader } from '#contracts';
import { Route } from '#http';
import { IndexingStatusesRequestDto } from './status.dto.js';
import { StatusService } from './status.service.js';

/** The gateway has already checked the caller may see the API, and says which revision it expects. */
@Controller()
export class StatusController {
  constructor(private readonly status: StatusService) {}

  @Route(AI_ROUTES.indexingStatus)
  async one(
    @Param('apiId', ParseUUIDPipe) apiId: string,
    @Headers(InternalHeader.ApiOrg) orgId: string | undefined,
    @Headers(InternalHeader.ApiRevision) revision: string | undefined,
  ): Promise<IndexingStatus> {
    if (!orgId || !revision || !/^\d+$/.test(revision)) {
      throw new BadRequestException(`${InternalHeader.ApiOrg} and ${InternalHeader.ApiRevision} headers are required`);
    }
    const [status] = await this.status.statusesOf([{ apiId, orgId, revision: Number(revision) }]);
    return status;
  }

  @Route(AI_ROUTES.indexingStatuses)
  @HttpCode(200)
  many(@Body() body: IndexingStatusesRequestDto): Promise<IndexingStatus[]> {
    return this.status.statusesOf(body.apis);
  }

  /** For the gateway's reconciliation (see `IndexState`). */
  @Route(AI_ROUTES.indexStates)
  @HttpCode(200)
  indexStates(@Body() body: IndexingStatusesRequestDto): Promise<IndexState[]> {
    return this.status.indexStates(body.apis);
  }
}
