import { Injectable, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { SEARCH_LIMITS, type SearchResponse } from '#contracts';
import { browse } from './browse.js';
import { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';
import { FeedbackService } from '../feedback/feedback.service.js';
import { SHOWN_CARDS } from '../feedback/feedback.repository.js';
import { NeedMatchings } from '../feedback/need-matchings.service.js';
import { englishWords } from './english-words.js';
import { round } from '../ranking/rounding.js';
import { SearchAdmission } from './search-admission.js';
import { type PipelineAnswer, SearchPipeline } from './search-pipeline.js';
import { newSearchId } from '../ranking/search-id.js';
import { SearchRepository } from './search.repository.js';
import { type SearchScope, SearchSnapshot } from './search-snapshot.js';
import type { SearchRequestDto } from '#dtos';

/** Whole answers kept, for a short time and only while the org's index and feedback are unchanged. */
const RESULT_CACHE = 500;
const RESULT_TTL_MS = 60_000;

/**
 * Search as callers see it: admitted (see `SearchAdmission`), answered from the result cache or
 * by the `SearchPipeline`, and logged under a new `searchId` for the feedback that names it.
 */
@Injectable()
export class SearchService implements OnModuleInit {
  private readonly results = new LRUCache<string, PipelineAnswer>({ max: RESULT_CACHE, ttl: RESULT_TTL_MS });

  constructor(
    private readonly repository: SearchRepository,
    private readonly models: EmbeddingModelsService,
    private readonly admission: SearchAdmission,
    private readonly pipeline: SearchPipeline,
    private readonly feedback: FeedbackService,
    private readonly matchings: NeedMatchings,
  ) {}

  /** The first search should not wait for the dictionary that tells typos from words. */
  onModuleInit(): void {
    englishWords();
  }

  /** One search, when admitted: a flood is refused fast, not queued for ever. */
  search(request: SearchRequestDto): Promise<SearchResponse> {
    return this.admission.run(async () => {
      const started = performance.now();
      const answer = await this.searchCached(request);
      const searchId = newSearchId();
      this.feedback.logSearch({
        id: searchId,
        orgId: request.orgId,
        query: request.query.trim(),
        shown: answer.results.slice(0, SHOWN_CARDS).map((result) => result.apiId),
      });
      return { searchId, ...answer, searchMs: round(performance.now() - started, 1) };
    });
  }

  /**
   * Answers from the result cache when the same search was made since the org's index last
   * changed (any indexing, failure or deletion in the org changes its version), since its
   * feedback last did (any signal or erasure) and since the model's need matching was fitted.
   */
  private async searchCached(request: SearchRequestDto): Promise<PipelineAnswer> {
    // The active model: during a model switch, the old one until every API has the new one's vectors.
    const [embeddings, versions] = await Promise.all([this.models.serving(), this.repository.versions(request.orgId)]);
    const query = request.query.trim();
    const key = JSON.stringify([
      embeddings.modelId,
      versions.index,
      versions.feedback,
      // Which signals count for the query changes when the model's need matching is fitted.
      versions.feedback > 0 ? (this.matchings.fitted(embeddings.modelId)?.version ?? null) : null,
      request.orgId,
      query,
      request.filters ?? {},
      request.maxResults ?? null,
      request.maxEndpoints ?? null,
      request.mode ?? null,
    ]);
    const cached = this.results.get(key);
    if (cached) return { ...cached, queryEmbeddingMs: 0 };
    const scope: SearchScope = { orgId: request.orgId, model: embeddings.modelId, dimensions: embeddings.dimensions, filters: request.filters ?? {} };
    const maxEndpoints = request.maxEndpoints ?? SEARCH_LIMITS.maxEndpoints.default;
    const answer = query
      ? await this.pipeline.run({
          scope,
          embeddings,
          query,
          mode: request.mode ?? 'hybrid',
          maxResults: request.maxResults ?? SEARCH_LIMITS.maxResults.default,
          maxEndpoints,
          hasFeedback: versions.feedback > 0,
        })
      : await this.repository.inSnapshot((manager) => browse(new SearchSnapshot(manager, scope), maxEndpoints));
    this.results.set(key, answer);
    return answer;
  }
}
