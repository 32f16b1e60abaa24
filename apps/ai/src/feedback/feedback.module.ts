import { Module } from '@nestjs/common';
import { FeedbackController } from './feedback.controller.js';
import { FeedbackRepository } from './feedback.repository.js';
import { FeedbackService } from './feedback.service.js';
import { NeedMatchings } from './need-matchings.service.js';

/** Feedback on search answers; search logs its answers here and reads the signals back (`UsageLearning`). */
@Module({
  controllers: [FeedbackController],
  providers: [FeedbackService, FeedbackRepository, NeedMatchings],
  exports: [FeedbackService, FeedbackRepository, NeedMatchings],
})
export class FeedbackModule {}
