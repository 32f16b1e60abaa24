import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { encodeOrgList, InternalHeader } from '#contracts';
import { requestIdOf } from '#http';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { ApiOperationDetailDoc, ApiOperationsDoc } from '../docs/openapi-models.js';
import { RegistryService } from '../registry/registry.service.js';
import { AiClient, send } from './ai-client.js';

/**
 * `/api-management/apis/:apiId/operations/**`: what an API's live indexed spec says about its
 * operations, answered by the AI app from its own copy of that spec. The caller must see the
 * API in the registry; the AI app scopes by the caller's orgs again and validates the query.
 */
@ApiTags('Registry')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS, 404, 503)
@Controller('api-management/apis/:apiId/operations')
export class ApiOperationsController {
  constructor(
    private readonly ai: AiClient,
    private readonly registry: RegistryService,
  ) {}

  @Get()
  @ApiOperation({ summary: "An API's description, servers, security schemes and operations (no schemas), from its indexed spec" })
  @ApiQuery({ name: 'operations', required: false, type: Boolean, description: '`false` leaves out the list of operations (default `true`)' })
  @ApiOkResponse({ type: ApiOperationsDoc })
  async overview(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.forward(caller, apiId, '', request, response);
  }

  @Get('detail')
  @ApiOperation({
    summary: 'One operation in full: parameters, request body, responses and security, schemas dereferenced',
    description:
      'Name the operation by `operationId`, or by `method` and `path` (as the spec writes it). A schema that contains itself is cut with `{"$circular": "#/components/schemas/…"}`; ' +
      'schemas past OPERATION_DETAIL_MAX_CHARS end in `"$truncated"` with the reason, and `truncated` is true.',
  })
  @ApiQuery({ name: 'operationId', required: false, example: 'getPetById' })
  @ApiQuery({ name: 'method', required: false, example: 'GET', description: 'With `path`' })
  @ApiQuery({ name: 'path', required: false, example: '/pet/{petId}', description: 'With `method`' })
  @ApiOkResponse({ type: ApiOperationDetailDoc })
  @ApiProblems(400)
  async detail(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.forward(caller, apiId, '/detail', request, response);
  }

  /** The query goes on as it came: the AI app validates it. */
  private async forward(caller: Caller, apiId: string, route: string, request: Request, response: Response): Promise<void> {
    const api = await this.registry.findVisible(caller, apiId);
    const query = new URL(request.originalUrl, 'http://gateway').search;
    const answer = await this.ai.call('GET', `/apis/${api.id}/operations${route}${query}`, {
      requestId: requestIdOf(request),
      headers: { [InternalHeader.CallerOrgs]: encodeOrgList(caller.orgs) },
    });
    send(response, answer);
  }
}
