import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import type { FeedbackErased, FeedbackReport } from '#contracts';
import { FeedbackOrgQueryDto, InternalFeedbackDto } from './feedback.dto.js';
import { FeedbackService } from './feedback.service.js';

/** The gateway has authenticated the caller (and, for `admin/`, checked they are an admin of the org). */
@Controller()
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Post('feedback')
  @HttpCode(204)
  async record(@Body() body: InternalFeedbackDto): Promise<void> {
    await this.feedback.record(body);
  }

  @Get('admin/feedback')
  report(@Query() query: FeedbackOrgQueryDto): Promise<FeedbackReport> {
    return this.feedback.report(query.orgId);
  }

  @Delete('admin/feedback')
  erase(@Query() query: FeedbackOrgQueryDto): Promise<FeedbackErased> {
    return this.feedback.erase(query.orgId, query.apiId);
  }
}
