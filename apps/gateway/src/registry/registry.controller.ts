import { Body, Controller, HttpCode, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { type ApiEndpointsResponse, type ApiListResponse, type ApiRecord, GATEWAY_ROUTES } from '#contracts';
import { Route } from '#http';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { ApiEndpointsResponseDoc, ApiListResponseDoc, ApiRecordDoc } from '../docs/openapi-models.js';
import { RequireRole } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { ApiBodyDto, ApiDetailsPatchDto, ForceBodyDto, ForceQueryDto, ListApisQueryDto, SpecQueryDto, VersionQueryDto } from './api.dto.js';
import { ApiVersionsService } from './api-versions.service.js';
import { RegistryService } from './registry.service.js';

@ApiTags('Registry')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS)
@Controller()
export class RegistryController {
  constructor(
    private readonly registry: RegistryService,
    private readonly versions: ApiVersionsService,
  ) {}

  @Route(GATEWAY_ROUTES.registerApi)
  @RequireRole('publisher')
  @ApiOperation({
    summary: 'Register an API and its first version (publisher); it is indexed in the background',
    description: 'An org has one API of a name: a new version of it is added with `POST …/apis/{apiId}/versions` (a 409 here says which API)',
  })
  @ApiCreatedResponse({ type: ApiRecordDoc, description: 'Registered; `indexing.status` is PENDING' })
  @ApiProblems(400, 409, 413, 422)
  create(@CurrentCaller() caller: Caller, @Body() body: ApiBodyDto): Promise<ApiRecord> {
    return this.registry.create(caller, body);
  }

  @Route(GATEWAY_ROUTES.listApis)
  @ApiOperation({ summary: "List the APIs of the caller's orgs, with their indexing status" })
  @ApiOkResponse({ type: ApiListResponseDoc })
  @ApiProblems(400)
  list(@CurrentCaller() caller: Caller, @Query() query: ListApisQueryDto): Promise<ApiListResponse> {
    return this.registry.list(caller, query);
  }

  @Route(GATEWAY_ROUTES.getApi)
  @ApiOperation({ summary: 'Read an API, with its indexing status' })
  @ApiOkResponse({ type: ApiRecordDoc })
  @ApiProblems(404)
  get(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string): Promise<ApiRecord> {
    return this.registry.get(caller, apiId);
  }

  @Route(GATEWAY_ROUTES.endpoints)
  @ApiOperation({ summary: "Every operation of a version's registered spec (the recommended version's unless `?version=`): method, path, summary, tags" })
  @ApiOkResponse({ type: ApiEndpointsResponseDoc })
  @ApiProblems(400, 404)
  endpoints(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Query() query: VersionQueryDto): Promise<ApiEndpointsResponse> {
    return this.registry.endpoints(caller, apiId, query.version);
  }

  @Route(GATEWAY_ROUTES.spec)
  @ApiOperation({
    summary:
      "A version's spec as it was registered (the recommended version's unless `?version=`): its JSON (application/json), YAML (application/yaml), GraphQL SDL or .proto (text/plain) text",
  })
  @ApiProduces('application/json', 'application/yaml', 'text/plain')
  @ApiOkResponse({
    description: 'The registered text, unchanged',
    content: {
      'application/json': { schema: { type: 'object' } },
      'application/yaml': { schema: { type: 'string' } },
      'text/plain': { schema: { type: 'string' } },
    },
    headers: {
      'Content-Disposition': {
        description: 'With download=true: attachment; filename="<name>-<version>.<json|yaml|graphql|proto>"',
        schema: { type: 'string' },
      },
    },
  })
  @ApiProblems(400, 404)
  async spec(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Query() query: SpecQueryDto, @Res() response: Response): Promise<void> {
    const spec = await this.registry.spec(caller, apiId, query.version);
    if (query.download === 'true') response.setHeader('Content-Disposition', `attachment; filename="${spec.fileName}"`);
    response.type(spec.type.mediaType).send(spec.text);
  }

  @Route(GATEWAY_ROUTES.updateApi)
  @RequireRole('publisher')
  @ApiOperation({
    summary: "Replace an API's details, and the spec of a version (publisher): a new revision of the recommended version, or of `?version=`",
    description:
      "A `version` in the body other than the version's name renames it. A spec that breaks a version in production without a new major version " +
      'is registered with a warning (`warnings`), or refused with a 409 in an org listed in BREAKING_CHANGES_REFUSED_ORGS',
  })
  @ApiOkResponse({ type: ApiRecordDoc })
  @ApiProblems(400, 404, 409, 413, 422)
  update(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Body() body: ApiBodyDto, @Query() query: VersionQueryDto): Promise<ApiRecord> {
    return this.versions.update(caller, apiId, body, query.version);
  }

  @Route(GATEWAY_ROUTES.patchApi)
  @RequireRole('publisher')
  @ApiOperation({
    summary: "Change an API's name, team, description, labels or recommended version's stage, without its spec (publisher)",
    description:
      'What is left out stays; `null` clears the team or description, `{}` or `null` the labels. No version gets a new revision. ' +
      'When something search holds changed, the API is indexed again (`indexing.status` PENDING), re-embedding only the chunks whose text changed. ' +
      'A name another API of the org has is a 409; a `spec` is refused (a new spec is a PUT)',
  })
  @ApiOkResponse({ type: ApiRecordDoc })
  @ApiProblems(400, 404, 409)
  patch(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Body() body: ApiDetailsPatchDto): Promise<ApiRecord> {
    return this.registry.patch(caller, apiId, body);
  }

  @Route(GATEWAY_ROUTES.deleteApi)
  @HttpCode(204)
  @RequireRole('publisher')
  @ApiOperation({
    summary: 'Delete an API (publisher); it leaves search results',
    description: 'An API that consumers use is deleted only with `?force=true` (a 409 names them); they are sent `api.deleted`',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(404)
  remove(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Query() query: ForceQueryDto, @Body() body: ForceBodyDto): Promise<void> {
    return this.registry.remove(caller, apiId, query.force === 'true' || body?.force === true);
  }
}
