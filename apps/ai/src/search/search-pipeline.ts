import { Inject, Injectable } from '@nestjs/common';
import type { AiConfig } from '#config';
import type { SearchResponse } from '#contracts';
import { AI_CONFIG } from '../ai.constants.js';
import { round } from '../ranking/rounding.js';
import { SearchRepository } from './search.repository.js';
import { SearchSnapshot } from './search-snapshot.js';
import { Calibration } from './stages/calibrate.stage.js';
import { Fusion } from './stages/fuse.stage.js';
import { UsageLearning } from './stages/learn-from-usage.stage.js';
import { Retrieval } from './stages/retrieve.stage.js';
import type { SearchContext, SearchRun } from './stages/search-run.js';
import { CardShaping } from './stages/shape-cards.stage.js';
import { QueryUnderstanding } from './stages/understand-query.stage.js';

/** A search's answer before it is named (`searchId`) and timed. */
export type PipelineAnswer = Omit<SearchResponse, 'searchId' | 'searchMs'>;

/**
 * One search with a query, stage by stage: each stage reads the search's context with what the
 * stages before it found, and owns its SQL (see `stages/search-run.ts`). Every stage after the
 * first reads one snapshot of the index.
 */
@Injectable()
export class SearchPipeline {
  constructor(
    private readonly understanding: QueryUnderstanding,
    private readonly retrieval: Retrieval,
    private readonly fusion: Fusion,
    private readonly usageLearning: UsageLearning,
    private readonly calibration: Calibration,
    private readonly cardShaping: CardShaping,
    private readonly repository: SearchRepository,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  async run(run: SearchRun): Promise<PipelineAnswer> {
    const query = await this.understanding.understand(run);
    // Within the search's time budget (the caller has had its 503 by then).
    const settings = { efSearch: this.config.hnswEfSearch, timeoutMs: this.config.search.timeoutMs };
    return this.repository.inSnapshot(async (manager) => {
      const search: SearchContext = { run, query, snapshot: new SearchSnapshot(manager, run.scope) };
      const afterRetrieval = { ...search, retrieved: await this.retrieval.retrieve(search) };
      const afterFusion = { ...afterRetrieval, fused: await this.fusion.fuse(afterRetrieval) };
      const afterLearning = { ...afterFusion, learned: await this.usageLearning.learn(afterFusion) };
      const afterCalibration = { ...afterLearning, calibrated: await this.calibration.calibrate(afterLearning) };
      const results = await this.cardShaping.shape(afterCalibration);
      return {
        results,
        totalFound: afterLearning.learned.ranked.length,
        queryEmbeddingMs: round(query.queryEmbeddingMs, 1),
        ...(query.keywords?.warnings.length ? { warnings: query.keywords.warnings } : {}),
      };
    }, settings);
  }
}
