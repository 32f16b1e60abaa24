import { Controller, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MinLength } from 'class-validator';
import type { Request, Response } from 'express';
import { AI_ROUTES, type FeedbackRequest, GATEWAY_ROUTES, type InternalFeedbackRequest, type Unchecked } from '#contracts';
import { Route, requestIdOf } from '#http';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { RequireRole } from '../auth/auth.decorators.js';
import { assertOrgMember } from '../auth/org-access.js';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { FeedbackErasedDoc, FeedbackReportDoc, FeedbackRequestDoc } from '../docs/openapi-models.js';
import { AiClient, send } from '../ai-client/ai-client.js';

/** The org whose feedback an admin reads or erases, and optionally one of its APIs. */
export class FeedbackQueryDto {
  @ApiProperty({ description: "One of the caller's orgs", example: 'payments' })
  @IsString({ message: 'orgId is required' })
  @MinLength(1, { message: 'orgId must be a non-empty string' })
  orgId: string;

  // An empty apiId must not reach the AI app as "no apiId": that would erase the whole org.
  @ApiPropertyOptional({ format: 'uuid', description: "Only this API's feedback" })
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'apiId must be a non-empty string' })
  apiId?: string;
}

/**
 * `/api-management/ai/feedback` and its admin routes: what people chose after a search, stored
 * and used by the AI app. The gateway says who the caller is; the AI app validates the rest and
 * checks that the search was of one of the caller's orgs.
 */
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS, 503)
@Controller()
export class FeedbackController {
  constructor(private readonly ai: AiClient) {}

  @Route(GATEWAY_ROUTES.feedback)
  @ApiTags('Search')
  @ApiOperation({
    summary: "Say whether a search's card answered the need (`vote`), or that its API was opened (`opened`): later searches for the same need learn from it",
  })
  @ApiBody({ type: FeedbackRequestDoc })
  @ApiNoContentResponse({ description: 'Recorded (one signal per person, search, API and operation)' })
  @ApiProblems(400, 404)
  async give(@CurrentCaller() caller: Caller, @Req() request: Request, @Res() response: Response): Promise<void> {
    // The client's own fields only: who it is from comes from the token, never from the body.
    const { searchId, apiId, operation, helpful, signal } = (request.body ?? {}) as Unchecked<FeedbackRequest>;
    const internal = { searchId, apiId, operation, helpful, signal, person: caller.sub, orgIds: caller.orgs } satisfies Unchecked<InternalFeedbackRequest>;
    send(response, await this.ai.request(AI_ROUTES.feedback, { body: internal, requestId: requestIdOf(request) }));
  }

  @Route(GATEWAY_ROUTES.feedbackReport)
  @RequireRole('admin')
  @ApiTags('Admin')
  @ApiOperation({ summary: "The org's search feedback (admin): counts, per API, and the newest signals (people as short keyed hashes)" })
  @ApiOkResponse({ type: FeedbackReportDoc })
  @ApiProblems(400)
  async report(@CurrentCaller() caller: Caller, @Query() query: FeedbackQueryDto, @Req() request: Request, @Res() response: Response): Promise<void> {
    assertOrgMember(caller, query.orgId);
    send(response, await this.ai.request(AI_ROUTES.feedbackReport, { query, requestId: requestIdOf(request) }));
  }

  @Route(GATEWAY_ROUTES.eraseFeedback)
  @RequireRole('admin')
  @ApiTags('Admin')
  @ApiOperation({ summary: "Erase the org's search feedback (admin), or one API's: search ranks as if nobody had given it" })
  @ApiOkResponse({ type: FeedbackErasedDoc })
  @ApiProblems(400)
  async erase(@CurrentCaller() caller: Caller, @Query() query: FeedbackQueryDto, @Req() request: Request, @Res() response: Response): Promise<void> {
    assertOrgMember(caller, query.orgId);
    send(response, await this.ai.request(AI_ROUTES.eraseFeedback, { query, requestId: requestIdOf(request) }));
  }
}
