import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AiConfig } from '#config';
import { AI_CONFIG } from '../../ai.constants.js';
import { FeedbackRepository } from '../../feedback/feedback.repository.js';
import type { ChunkRetriever } from '../chunk-retriever.js';
import { RANKING } from '../ranking.config.js';
import { type UsageEvidence, usageEvidence } from '../usage-evidence.js';
import type { LearnedRanking, RankedApi, SearchRun, UnderstoodQuery } from './search-run.js';

const NO_USAGE: UsageEvidence = { apis: new Map(), operations: new Map() };

/**
 * Stage 4: what people of the org chose for needs like this one moves their APIs up (and what they
 * said was not it, down), by at most `RANKING.feedback.apiBoost`. An API someone chose that the
 * retrievers missed joins the ranking when the filters allow it. Without feedback, nothing changes.
 */
@Injectable()
export class UsageLearning {
  constructor(
    private readonly feedback: FeedbackRepository,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  async learn(run: SearchRun, query: UnderstoodQuery, ranked: RankedApi[], retriever: ChunkRetriever, manager: EntityManager): Promise<LearnedRanking> {
    // Needs are compared by their vectors: a keyword-mode search (for evaluation) has none.
    if (!run.hasFeedback || !query.vector) return { ranked, usage: NO_USAGE };
    const { retentionDays, halfLifeDays } = this.config.feedback;
    const { scannedSignals: scanned, nearestSignals: nearest, signalsPerPerson: perPerson } = RANKING.feedback;
    const signals = await this.feedback.nearNeeds(run.scope, query.vector, retentionDays, { scanned, nearest, perPerson }, manager);
    // The need's own words, as a signal keeps its need's (not their families).
    const words = query.keywords?.terms.filter((term) => !term.family).map((term) => term.lexeme) ?? [];
    const usage = usageEvidence(signals, words, halfLifeDays);
    if (usage.apis.size === 0) return { ranked, usage };

    const inRanking = new Set(ranked.map((api) => api.apiId));
    const chosenElsewhere = [...usage.apis].filter(([apiId, evidence]) => evidence.weight > 0 && !inRanking.has(apiId)).map(([apiId]) => apiId);
    const joined = (await retriever.visibleOf(chosenElsewhere)).map((apiId) => ({ apiId, score: 0, fused: 0 }));
    return {
      ranked: [...ranked, ...joined]
        .map((api) => ({ ...api, score: api.score + RANKING.feedback.apiBoost * (usage.apis.get(api.apiId)?.weight ?? 0) }))
        .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId)),
      usage,
    };
  }
}
