import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AiConfig } from '#config';
import { AI_CONFIG } from '../../ai.constants.js';
import { FeedbackRepository } from '../../feedback/feedback.repository.js';
import { NeedMatchings } from '../../feedback/need-matchings.service.js';
import { RANKING } from '../ranking.config.js';
import { feedbackReason, type UsageEvidence, usageEvidence } from '../usage-evidence.js';
import type { LearnedRanking, RankedApi, SearchRun, UnderstoodQuery } from './search-run.js';

const NO_USAGE: UsageEvidence = { apis: new Map(), operations: new Map() };

/**
 * Stage 4: what people of the org chose for this query's need (the same need, or a paraphrase the
 * model's fitted need matching recognises) moves their APIs up, and what they said was not it,
 * down, by at most `RANKING.feedback.apiBoost`. Only among the APIs the content ranks in its
 * first `relevantRanks`: a vote reorders what the content finds relevant, it never brings in an
 * API the content does not. Without feedback for this need, nothing changes.
 */
@Injectable()
export class UsageLearning {
  constructor(
    private readonly feedback: FeedbackRepository,
    private readonly matchings: NeedMatchings,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  async learn(run: SearchRun, query: UnderstoodQuery, ranked: RankedApi[], manager: EntityManager): Promise<LearnedRanking> {
    // Needs are compared by their vectors: a keyword-mode search (for evaluation) has none.
    if (!run.hasFeedback || !query.vector) return { ranked, usage: NO_USAGE };
    const { retentionDays, halfLifeDays } = this.config.feedback;
    const { scannedSignals: scanned, nearestSignals: nearest, signalsPerPerson: perPerson, relevantRanks, apiBoost } = RANKING.feedback;
    // Until the model's matching is fitted (once per process, in the background), the same need only.
    const matching = this.matchings.peek(run.scope.model);
    const signals = await this.feedback.nearNeeds(run.scope, query.vector, matching?.version, retentionDays, { scanned, nearest, perPerson }, manager);
    // The need's own words, as a signal keeps its need's (not their families).
    const words = query.keywords?.terms.filter((term) => !term.family).map((term) => term.lexeme) ?? [];
    const background = matching ? this.matchings.background(matching, query.vector) : undefined;
    const usage = usageEvidence(signals, { words, ...(background === undefined ? {} : { background }) }, matching, halfLifeDays);
    if (usage.apis.size === 0) return { ranked, usage };

    const relevant = new Set(ranked.slice(0, relevantRanks).map((api) => api.apiId));
    const before = new Map(ranked.map((api, index) => [api.apiId, index]));
    const learned = ranked
      .map((api) => ({ ...api, score: api.score + (relevant.has(api.apiId) ? apiBoost * (usage.apis.get(api.apiId)?.weight ?? 0) : 0) }))
      .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId));
    learned.forEach((api, index) => {
      const evidence = usage.apis.get(api.apiId);
      if (!evidence) return;
      const reordered = relevant.has(api.apiId);
      evidence.moved = before.get(api.apiId)! - index;
      if (!reordered) evidence.weight = 0;
      evidence.reason = feedbackReason(evidence, reordered);
    });
    // Signals on APIs the search did not find at all make no card.
    for (const apiId of usage.apis.keys()) if (!before.has(apiId)) usage.apis.delete(apiId);
    return { ranked: learned, usage };
  }
}
