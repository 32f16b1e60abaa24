import { BadRequestException, Controller, Param, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AI_ROUTES, encodeOrgList, GATEWAY_ROUTES, InternalHeader } from '#contracts';
import { OperationSelectorDto, RequestValidationPipe, Route, requestIdOf, selectorProblem } from '#http';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { ApiOperationDetailDoc, ApiOperationsDoc } from '../docs/openapi-models.js';
import type { ApiEntity } from '../registry/api.entity.js';
import { RegistryService } from '../registry/registry.service.js';
import { VersionOperations } from '../registry/version-operations.service.js';
import { AiClient, send } from '../ai-client/ai-client.js';

/** The AI app's route a request goes on to: the API's overview or one operation. */
type OperationsRoute = typeof AI_ROUTES.apiOperations | typeof AI_ROUTES.operationDetail;

const VERSION_QUERY = { name: 'version', required: false, description: 'A version of the API (default: the recommended one, which search holds)' } as const;

/**
 * `/api-management/apis/:apiId/operations/**`: what an API's live indexed spec says about its
 * operations, answered by the AI app from its own copy of that spec. The caller must see the
 * API in the registry; the AI app scopes by the caller's orgs again and validates the query.
 */
@ApiTags('Registry')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS, 404, 503)
@Controller()
export class ApiOperationsController {
  constructor(
    private readonly ai: AiClient,
    private readonly registry: RegistryService,
    private readonly versionOperations: VersionOperations,
  ) {}

  @Route(GATEWAY_ROUTES.operations)
  @ApiOperation({ summary: "An API's description, servers, security schemes and operations (no schemas), from its indexed spec" })
  @ApiQuery({ name: 'operations', required: false, type: Boolean, description: '`false` leaves out the list of operations (default `true`)' })
  @ApiQuery(VERSION_QUERY)
  @ApiOkResponse({ type: ApiOperationsDoc })
  async overview(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.forward(caller, apiId, AI_ROUTES.apiOperations, request, response);
  }

  @Route(GATEWAY_ROUTES.operationDetail)
  @ApiOperation({
    summary: 'One operation in full: parameters, request body, responses and security, schemas dereferenced',
    description:
      'Name the operation by `operationId`, or by `method` and `path` (as the spec writes it). A schema that contains itself is cut with `{"$circular": "#/components/schemas/…"}`; ' +
      'schemas past OPERATION_DETAIL_MAX_CHARS end in `"$truncated"` with the reason, and `truncated` is true.',
  })
  @ApiQuery({ name: 'operationId', required: false, example: 'getPetById' })
  @ApiQuery({ name: 'method', required: false, example: 'GET', description: 'With `path`' })
  @ApiQuery({ name: 'path', required: false, example: '/pet/{petId}', description: 'With `method`' })
  @ApiQuery(VERSION_QUERY)
  @ApiOkResponse({ type: ApiOperationDetailDoc })
  @ApiProblems(400)
  async detail(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.forward(caller, apiId, AI_ROUTES.operationDetail, request, response);
  }

  /**
   * The indexed version's details come from the AI app, the query going on as it came (the AI app
   * validates it); another version's (`?version=`) from the registry's copy of its spec.
   */
  private async forward(caller: Caller, apiId: string, route: OperationsRoute, request: Request, response: Response): Promise<void> {
    const api = await this.registry.findVisible(caller, apiId);
    const url = new URL(request.originalUrl, 'http://gateway');
    const version = url.searchParams.get('version');
    url.searchParams.delete('version');
    if (version !== null && version !== api.version) {
      response.json(await this.versionAnswer(api, version, route, Object.fromEntries(url.searchParams)));
      return;
    }
    const answer = await this.ai.request(route, {
      params: { apiId: api.id },
      query: url.searchParams,
      requestId: requestIdOf(request),
      headers: { [InternalHeader.CallerOrgs]: encodeOrgList(caller.orgs) },
    });
    send(response, answer);
  }

  private async versionAnswer(api: ApiEntity, version: string, route: OperationsRoute, query: Record<string, string>) {
    if (!version.trim() || version.length > 100) throw new BadRequestException(['version must be a version of the API (1-100 characters)']);
    if (route === AI_ROUTES.apiOperations) {
      const { operations, ...rest } = query;
      if (Object.keys(rest).length) throw new BadRequestException([`property ${Object.keys(rest)[0]} should not exist`]);
      if (operations !== undefined && operations !== 'true' && operations !== 'false') throw new BadRequestException(['operations must be true or false']);
      return this.versionOperations.overview(api, version, operations !== 'false');
    }
    const selector = (await SELECTOR_PIPE.transform(query, { type: 'query', metatype: OperationSelectorDto })) as OperationSelectorDto;
    const problem = selectorProblem(selector);
    if (problem) throw new BadRequestException([problem]);
    return this.versionOperations.detail(api, version, selector);
  }
}

const SELECTOR_PIPE = new RequestValidationPipe();
