import { Inject, Injectable } from '@nestjs/common';
import type { AiConfig } from '#config';
import type { SearchResponse } from '#contracts';
import { AI_CONFIG } from '../ai.constants.js';
import { ChunkRetriever } from './chunk-retriever.js';
import { round } from '../ranking/rounding.js';
import { SearchRepository } from './search.repository.js';
import { Calibration } from './stages/calibrate.stage.js';
import { Fusion } from './stages/fuse.stage.js';
import { UsageLearning } from './stages/learn-from-usage.stage.js';
import { Retrieval } from './stages/retrieve.stage.js';
import type { SearchRun } from './stages/search-run.js';
import { CardShaping } from './stages/shape-cards.stage.js';
import { QueryUnderstanding } from './stages/understand-query.stage.js';

/** A search's answer before it is named (`searchId`) and timed. */
export type PipelineAnswer = Omit<SearchResponse, 'searchId' | 'searchMs'>;

/**
 * One search with a query, stage by stage; each stage's inputs and outputs are typed in
 * `stages/search-run.ts`. Every stage after the first reads one snapshot of the index.
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
      const retriever = new ChunkRetriever(manager, run.scope);
      const retrieved = await this.retrieval.retrieve(run, query, retriever);
      const fused = await this.fusion.fuse(run, query, retrieved, retriever);
      const { ranked, usage } = await this.usageLearning.learn(run, query, fused, retriever, manager);
      const top = await this.calibration.calibrate(run, query, ranked.slice(0, run.maxResults), retrieved, usage, retriever);
      const results = await this.cardShaping.shape(run, query, top, retrieved, usage, retriever);
      return {
        results,
        totalFound: ranked.length,
        queryEmbeddingMs: round(query.queryEmbeddingMs, 1),
        ...(query.keywords?.warnings.length ? { warnings: query.keywords.warnings } : {}),
      };
    }, settings);
  }
}
