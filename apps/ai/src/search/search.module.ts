import { Module } from '@nestjs/common';
import { FeedbackModule } from '../feedback/feedback.module.js';
import { SearchAdmission } from './search-admission.js';
import { SearchController } from './search.controller.js';
import { SearchPipeline } from './search-pipeline.js';
import { SearchRepository } from './search.repository.js';
import { SearchService } from './search.service.js';
import { Calibration } from './stages/calibrate.stage.js';
import { Fusion } from './stages/fuse.stage.js';
import { UsageLearning } from './stages/learn-from-usage.stage.js';
import { Retrieval } from './stages/retrieve.stage.js';
import { CardShaping } from './stages/shape-cards.stage.js';
import { QueryUnderstanding } from './stages/understand-query.stage.js';

/** Search: the service callers reach, and the pipeline's stages (their order is `SearchPipeline`'s). */
@Module({
  imports: [FeedbackModule],
  controllers: [SearchController],
  providers: [SearchService, SearchAdmission, SearchRepository, SearchPipeline, QueryUnderstanding, Retrieval, Fusion, UsageLearning, Calibration, CardShaping],
})
export class SearchModule {}
