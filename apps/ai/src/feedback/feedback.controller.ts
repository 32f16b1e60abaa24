import { Body, Controller, HttpCode, Query } from '@nestjs/common';
import { AI_ROUTES, type FeedbackErased, type FeedbackReport } from '#contracts';
import { Route } from '#http';
import { FeedbackOrgQueryDto, InternalFeedbackDto } from '#dtos';
import { FeedbackService } from './feedback.service.js';

/** The gateway has authenticated the caller (and, for `admin/`, checked they are an admin of the org). */
@Controller()
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Route(AI_ROUTES.feedback)
  @HttpCode(204)
  async record(@Body() body: InternalFeedbackDto): Promise<void> {
    await this.feedback.record(body);
  }

  @Route(AI_ROUTES.feedbackReport)
  report(@Query() query: FeedbackOrgQueryDto): Promise<FeedbackReport> {
    return this.feedback.report(query.orgId);
  }

  @Route(AI_ROUTES.eraseFeedback)
  erase(@Query() query: FeedbackOrgQueryDto): Promise<FeedbackErased> {
    return this.feedback.erase(query.orgId, query.apiId);
  }
}
