import { Module } from '@nestjs/common';
import { FeedbackController } from './feedback.controller.js';
import { FeedbackRepository } from './feedback.repository.js';
import { FeedbackService } from './feedback.service.js';

/** Feedback on search answers; search logs its answers here and reads the signals back (`UsageLearning`). */
@Module({ controllers: [FeedbackController], providers: [FeedbackService, FeedbackRepository], exports: [FeedbackService, FeedbackRepository] })
export class FeedbackModule {}
