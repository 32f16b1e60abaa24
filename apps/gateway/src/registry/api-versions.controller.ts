import { Body, Controller, HttpCode, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ApiVersionList, type ApiVersionRecord, type ChangeReportResponse, GATEWAY_ROUTES, type LintResponse } from '#contracts';
import { Route } from '#http';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { ApiVersionListDoc, ApiVersionRecordDoc, ChangeReportDoc, LintResponseDoc } from '../docs/openapi-models.js';
import { RequireRole } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { ChangesQueryDto, ForceBodyDto, ForceQueryDto, LintQueryDto, VersionBodyDto, VersionPatchDto, VersionSpecDto } from './api.dto.js';
import { ApiVersionsService } from './api-versions.service.js';

@ApiTags('Versions')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS)
@Controller()
export class ApiVersionsController {
  constructor(private readonly versions: ApiVersionsService) {}

  @Route(GATEWAY_ROUTES.listVersions)
  @ApiOperation({ summary: "An API's versions, newest release first: stage, kind, revision, lint summary; the recommended one with its indexing status" })
  @ApiOkResponse({ type: ApiVersionListDoc })
  @ApiProblems(404)
  list(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string): Promise<ApiVersionList> {
    return this.versions.list(caller, apiId);
  }

  @Route(GATEWAY_ROUTES.addVersion)
  @RequireRole('publisher')
  @ApiOperation({
    summary: 'Add a version beside the others (publisher)',
    description: 'Compared with the version in production: breaking changes without a new major version get a warning (or a 409 where the org refuses them)',
  })
  @ApiCreatedResponse({ type: ApiVersionRecordDoc })
  @ApiProblems(400, 404, 409, 413, 422)
  add(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Body() body: VersionBodyDto): Promise<ApiVersionRecord> {
    return this.versions.add(caller, apiId, body);
  }

  @Route(GATEWAY_ROUTES.reviseVersion)
  @RequireRole('publisher')
  @ApiOperation({ summary: 'A new spec for a version: its next revision (publisher), compared with the one before' })
  @ApiOkResponse({ type: ApiVersionRecordDoc })
  @ApiProblems(400, 404, 409, 413, 422)
  revise(
    @CurrentCaller() caller: Caller,
    @Param('apiId') apiId: string,
    @Param('version') version: string,
    @Body() body: VersionSpecDto,
  ): Promise<ApiVersionRecord> {
    return this.versions.revise(caller, apiId, version, body);
  }

  @Route(GATEWAY_ROUTES.patchVersion)
  @RequireRole('publisher')
  @ApiOperation({
    summary: "A version's lifecycle stage and sunset date (publisher)",
    description:
      'Retiring a version that consumers use needs `force: true` (a 409 names them); deprecating or retiring answers with `consumersToTell`, who are sent `api.lifecycle.changed`',
  })
  @ApiOkResponse({ type: ApiVersionRecordDoc })
  @ApiProblems(400, 404, 409)
  patch(
    @CurrentCaller() caller: Caller,
    @Param('apiId') apiId: string,
    @Param('version') version: string,
    @Body() body: VersionPatchDto,
  ): Promise<ApiVersionRecord> {
    return this.versions.patch(caller, apiId, version, body);
  }

  @Route(GATEWAY_ROUTES.deleteVersion)
  @HttpCode(204)
  @RequireRole('publisher')
  @ApiOperation({
    summary: 'Delete a version (publisher); not the only one: delete the API for that',
    description: 'A version that consumers use is deleted only with `?force=true` (a 409 names them); they are sent `api.version.deleted`',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(404, 409)
  remove(
    @CurrentCaller() caller: Caller,
    @Param('apiId') apiId: string,
    @Param('version') version: string,
    @Query() query: ForceQueryDto,
    @Body() body: ForceBodyDto,
  ): Promise<void> {
    return this.versions.remove(caller, apiId, version, query.force === 'true' || body?.force === true);
  }

  @Route(GATEWAY_ROUTES.lint)
  @ApiOperation({ summary: "A version's lint findings: Spectral's OpenAPI or AsyncAPI rules, or its kind's own (linted when first asked for if not yet)" })
  @ApiOkResponse({ type: LintResponseDoc })
  @ApiProblems(400, 404, 422, 503)
  lint(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Param('version') version: string, @Query() query: LintQueryDto): Promise<LintResponse> {
    return this.versions.lintOf(caller, apiId, version, query.revision);
  }

  @Route(GATEWAY_ROUTES.changes)
  @ApiOperation({
    summary: 'What changed between two versions, or two revisions of one (`version@revision`): breaking changes first',
    description: 'Computed on the operations every kind has: removed and added operations, inputs, request body and response fields',
  })
  @ApiOkResponse({ type: ChangeReportDoc })
  @ApiProblems(400, 404, 422, 503)
  changes(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Query() query: ChangesQueryDto): Promise<ChangeReportResponse> {
    return this.versions.changes(caller, apiId, query);
  }
}
