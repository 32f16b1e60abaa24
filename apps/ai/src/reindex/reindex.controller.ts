import { Body, Controller, Get, Headers, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { decodeOrgList, InternalHeader, type ReindexAccepted, type ReindexProgress } from '#contracts';
import { ReindexRequestDto } from './reindex.dto.js';
import { ReindexService } from './reindex.service.js';

/** The gateway has checked the caller is an admin of these orgs (and owns these APIs). */
@Controller('admin/reindex')
export class ReindexController {
  constructor(private readonly reindex: ReindexService) {}

  @Post()
  @HttpCode(202)
  start(@Body() body: ReindexRequestDto): Promise<ReindexAccepted> {
    return this.reindex.start(body);
  }

  @Get(':reindexId')
  progress(
    @Param('reindexId', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such re-index run') })) reindexId: string,
    @Headers(InternalHeader.CallerOrgs) callerOrgs: string | undefined,
  ): Promise<ReindexProgress> {
    return this.reindex.progress(reindexId, decodeOrgList(callerOrgs));
  }
}
