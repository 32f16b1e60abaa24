import { BadRequestException, Controller, Get, Headers, Param, ParseBoolPipe, ParseUUIDPipe, Query } from '@nestjs/common';
import { type ApiOperationDetailResponse, type ApiOperationsResponse, decodeOrgList, InternalHeader } from '#contracts';
import { OperationSelectorDto, selectorProblem } from '#http';
import { OperationsService } from './operations.service.js';

/** The gateway says which orgs the caller belongs to; an API of any other org is not found. */
@Controller('apis/:apiId/operations')
export class OperationsController {
  constructor(private readonly operations: OperationsService) {}

  @Get()
  overview(
    @Param('apiId', ParseUUIDPipe) apiId: string,
    @Headers(InternalHeader.CallerOrgs) callerOrgs: string | undefined,
    @Query('operations', new ParseBoolPipe({ optional: true })) withOperations?: boolean,
  ): Promise<ApiOperationsResponse> {
    return this.operations.overview(apiId, decodeOrgList(callerOrgs), withOperations);
  }

  @Get('detail')
  detail(
    @Param('apiId', ParseUUIDPipe) apiId: string,
    @Headers(InternalHeader.CallerOrgs) callerOrgs: string | undefined,
    @Query() selector: OperationSelectorDto,
  ): Promise<ApiOperationDetailResponse> {
    const problem = selectorProblem(selector);
    if (problem) throw new BadRequestException([problem]);
    return this.operations.detail(apiId, decodeOrgList(callerOrgs), selector);
  }
}
