import { BadRequestException, Body, Controller, ForbiddenException, HttpCode, Param, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AI_ROUTES, encodeOrgList, GATEWAY_ROUTES, type InternalFacetsRequest, InternalHeader, type InternalReindexRequest } from '#contracts';
import { Route, requestIdOf, ServiceBusyException } from '#http';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { RequireRole } from '../auth/auth.decorators.js';
import { assertOrgMember } from '../auth/org-access.js';
import { RegistryService } from '../registry/registry.service.js';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import {
  EmbeddingModelsStatusDoc,
  IndexingStatusDoc,
  ReindexAcceptedDoc,
  ReindexProgressDoc,
  SearchFacetsDoc,
  SearchRequestDoc,
  SearchResponseDoc,
} from '../docs/openapi-models.js';
import { AiClient, send } from '../ai-client/ai-client.js';
import { FacetsQueryDto } from './facets.dto.js';
import { ReindexRequestDto } from './reindex.dto.js';

/**
 * After the AI app refused a search for being at its limit, searches are refused here for this
 * long: a flood of callers that ignore Retry-After (340 searches/s measured) then costs the AI app
 * a few refusals a second instead of all of them, and its own requests their CPU. Shorter than the
 * time its waiting searches take to drain, so no answer is lost to it.
 */
const BUSY_HOLD_MS = 100;

/**
 * `/api-management/ai/**`: authorises the caller for the org (or API) named, then forwards to the
 * AI app unchanged and returns its answer unchanged. The AI app validates and does the work.
 */
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS, 503)
@Controller()
export class AiProxyController {
  /** Until when searches are refused here without asking the AI app, which said it is at its limit. */
  private searchesRefusedUntil = 0;

  constructor(
    private readonly ai: AiClient,
    private readonly registry: RegistryService,
  ) {}

  @Route(GATEWAY_ROUTES.search)
  @HttpCode(200)
  @ApiTags('Search')
  @ApiOperation({ summary: 'Find APIs by describing what you need: one ranked card per API, with its best endpoints' })
  @ApiBody({ type: SearchRequestDoc })
  @ApiOkResponse({ type: SearchResponseDoc })
  @ApiProblems(400)
  async search(@CurrentCaller() caller: Caller, @Body('orgId') orgId: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    // The only field the gateway needs, to authorise; the AI app validates the rest.
    // A list of messages, as validation gives (the problem's `errors`).
    if (typeof orgId !== 'string' || !orgId) throw new BadRequestException([orgId === undefined ? 'orgId is required' : 'orgId must be a non-empty string']);
    assertOrgMember(caller, orgId);
    // Callers that ignore Retry-After: the AI app's limit reached a moment ago is answered here.
    if (Date.now() < this.searchesRefusedUntil)
      throw new ServiceBusyException('The search service is at its limit (SEARCH_CONCURRENCY, SEARCH_QUEUE); try again in a second');
    const answer = await this.ai.request(AI_ROUTES.search, { body: request.body, requestId: requestIdOf(request) });
    if (answer.status === 503 && answer.retryAfter) this.searchesRefusedUntil = Date.now() + BUSY_HOLD_MS;
    send(response, answer);
  }

  @Route(GATEWAY_ROUTES.facets)
  @ApiTags('Search')
  @ApiOperation({ summary: "Teams and operation tags of the org's indexed APIs, with how many APIs carry each: suggestions for the search filters" })
  @ApiOkResponse({ type: SearchFacetsDoc })
  @ApiProblems(400)
  async facets(@CurrentCaller() caller: Caller, @Query() query: FacetsQueryDto, @Req() request: Request, @Res() response: Response): Promise<void> {
    assertOrgMember(caller, query.orgId);
    const internal: InternalFacetsRequest = { orgIds: [query.orgId] };
    send(response, await this.ai.request(AI_ROUTES.facets, { body: internal, requestId: requestIdOf(request) }));
  }

  @Route(GATEWAY_ROUTES.indexingStatus)
  @ApiTags('Search')
  @ApiOperation({ summary: 'Indexing status of an API: PENDING → IN_PROGRESS → COMPLETED or FAILED (with the reason)' })
  @ApiOkResponse({ type: IndexingStatusDoc })
  @ApiProblems(404)
  async indexingStatus(@CurrentCaller() caller: Caller, @Param('apiId') apiId: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const api = await this.registry.findVisible(caller, apiId);
    const answer = await this.ai.request(AI_ROUTES.indexingStatus, {
      params: { apiId: api.id },
      requestId: requestIdOf(request),
      headers: { [InternalHeader.ApiOrg]: api.orgId, [InternalHeader.ApiRevision]: String(api.revision) },
    });
    send(response, answer);
  }

  @Route(GATEWAY_ROUTES.startReindex)
  @RequireRole('admin')
  @ApiTags('Admin')
  @ApiOperation({ summary: 'Re-index APIs from their kept specs (admin): some APIs, one org, or every org of the caller' })
  @ApiAcceptedResponse({ type: ReindexAcceptedDoc })
  @ApiProblems(400, 404)
  async startReindex(@CurrentCaller() caller: Caller, @Body() body: ReindexRequestDto, @Req() request: Request, @Res() response: Response): Promise<void> {
    if (body.orgId) assertOrgMember(caller, body.orgId);
    const orgIds = body.orgId ? [body.orgId] : caller.orgs;
    if (orgIds.length === 0) throw new ForbiddenException('Your token lists no orgs to re-index');
    if (body.apiIds) {
      const apis = await this.registry.findAllVisible(caller, body.apiIds);
      const outside = apis.find((api) => !orgIds.includes(api.orgId));
      if (outside) throw new BadRequestException(`API "${outside.id}" is not in org "${body.orgId}"`);
    }
    const internal: InternalReindexRequest = { orgIds, apiIds: body.apiIds, requestedBy: caller.sub };
    send(response, await this.ai.request(AI_ROUTES.startReindex, { body: internal, requestId: requestIdOf(request) }));
  }

  @Route(GATEWAY_ROUTES.reindexProgress)
  @RequireRole('admin')
  @ApiTags('Admin')
  @ApiOperation({ summary: 'Progress of a re-index run (admin)' })
  @ApiOkResponse({ type: ReindexProgressDoc })
  @ApiProblems(404)
  async reindexProgress(
    @CurrentCaller() caller: Caller,
    @Param('reindexId') reindexId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const answer = await this.ai.request(AI_ROUTES.reindexProgress, {
      params: { reindexId },
      requestId: requestIdOf(request),
      headers: { [InternalHeader.CallerOrgs]: encodeOrgList(caller.orgs) },
    });
    send(response, answer);
  }

  @Route(GATEWAY_ROUTES.embeddingModels)
  @RequireRole('admin')
  @ApiTags('Admin')
  @ApiOperation({
    summary: 'Embedding models (admin): the one search uses and, after a restart with another model configured, the background re-embedding into it',
  })
  @ApiOkResponse({ type: EmbeddingModelsStatusDoc })
  async embeddingModels(@CurrentCaller() caller: Caller, @Req() request: Request, @Res() response: Response): Promise<void> {
    const answer = await this.ai.request(AI_ROUTES.embeddingModels, {
      requestId: requestIdOf(request),
      headers: { [InternalHeader.CallerOrgs]: encodeOrgList(caller.orgs) },
    });
    send(response, answer);
  }
}
