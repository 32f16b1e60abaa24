import { BadRequestException, Controller, Headers, Param, ParseBoolPipe, ParseUUIDPipe, Query } from '@nestjs/common';
import { AI_ROUTES, type ApiOperationDetailResponse, type ApiOperationsResponse, decodeOrgList, InternalHeader } from '#contracts';
import { OperationSelectorDto, Route, selectorProblem } from '#http';
import { OperationsService } from './operations.service.js';

/** The gateway says which orgs the caller belongs to; an API of any other org is not found. */
@Controller()
export class OperationsController {
  constructor(private readonly operations: OperationsService) {}

  @Route(AI_ROUTES.apiOperations)
  overview(
    @Param('apiId', ParseUUIDPipe) apiId: string,
    @Headers(InternalHeader.CallerOrgs) callerOrgs: string | undefined,
    @Query('operations', new ParseBoolPipe({ optional: true })) withOperations?: boolean,
  ): Promise<ApiOperationsResponse> {
    return this.operations.overview(apiId, decodeOrgList(callerOrgs), withOperations);
  }

  @Route(AI_ROUTES.operationDetail)
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
