import { Body, Controller, Headers, HttpCode, NotFoundException, Param, ParseUUIDPipe } from '@nestjs/common';
import { AI_ROUTES, decodeOrgList, InternalHeader, type ReindexAccepted, type ReindexProgress } from '#contracts';
import { Route } from '#http';
import { ReindexRequestDto } from './reindex.dto.js';
import { ReindexService } from './reindex.service.js';

/** The gateway has checked the caller is an admin of these orgs (and owns these APIs). */
@Controller()
export class ReindexController {
  constructor(private readonly reindex: ReindexService) {}

  @Route(AI_ROUTES.startReindex)
  @HttpCode(202)
  start(@Body() body: ReindexRequestDto): Promise<ReindexAccepted> {
    return this.reindex.start(body);
  }

  @Route(AI_ROUTES.reindexProgress)
  progress(
    @Param('reindexId', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such re-index run') })) reindexId: string,
    @Headers(InternalHeader.CallerOrgs) callerOrgs: string | undefined,
  ): Promise<ReindexProgress> {
    return this.reindex.progress(reindexId, decodeOrgList(callerOrgs));
  }
}
