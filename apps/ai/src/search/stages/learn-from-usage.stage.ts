import { Inject, Injectable } from '@nestjs/common';
import type { AiConfig } from '#config';
import { AI_CONFIG } from '../../ai.constants.js';
import { FeedbackRepository, SHOWN_CARDS } from '../../feedback/feedback.repository.js';
import { NeedMatchings } from '../../feedback/need-matchings.service.js';
import { RANKING } from '../../ranking/ranking.config.js';
import { Params, type SearchSnapshot } from '../search-snapshot.js';
import { feedbackReason, type UsageEvidence, usageEvidence } from '../usage-evidence.js';
import type { FusedSearch, LearnedRanking } from './search-run.js';

const NO_USAGE: UsageEvidence = { apis: new Map(), paraphraseOnly: new Set(), operations: new Map() };

/**
 * Stage 4: what people of the org chose for this query's need moves their APIs up, and what they
 * said was not it, down, by at most `RANKING.feedback.apiBoost`; an API chosen for it that the
 * retrievers missed joins the ranking when the filters allow it. Votes for the same need in other
 * words (`relationOf`) lift an API to `paraphraseBestRank` at best: they never overrule the
 * content's own first answers. Without feedback for this need, nothing changes.
 */
@Injectable()
export class UsageLearning {
  constructor(
    private readonly feedback: FeedbackRepository,
    private readonly matchings: NeedMatchings,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  async learn({ run, query, fused: ranked, snapshot }: FusedSearch): Promise<LearnedRanking> {
    // Needs are compared by their vectors: a keyword-mode search (for evaluation) has none.
    if (!run.hasFeedback || !query.vector) return { ranked, usage: NO_USAGE };
    const { retentionDays, halfLifeDays } = this.config.feedback;
    const { scannedSignals: scanned, nearestSignals: nearest, signalsPerPerson: perPerson, paraphraseBestRank, apiBoost } = RANKING.feedback;
    const matching = this.matchings.fitted(run.scope.model);
    const signals = await this.feedback.nearNeeds(run.scope, query.vector, matching?.version, retentionDays, { scanned, nearest, perPerson }, snapshot.manager);
    if (signals.length === 0) return { ranked, usage: NO_USAGE };
    // Until the model's matching is fitted (once per process, in the background, started by the first signals to weigh), the same need only.
    if (!matching) this.matchings.peek(run.scope.model);
    // The need's own words, as a signal keeps its need's (not their families).
    const words = query.keywords?.terms.filter((term) => !term.family).map((term) => term.lexeme) ?? [];
    const background = matching ? this.matchings.background(matching, query.vector) : undefined;
    const topApis = ranked.slice(0, SHOWN_CARDS).map((api) => api.apiId);
    const usage = usageEvidence(signals, { words, topApis, ...(background === undefined ? {} : { background }) }, matching, halfLifeDays);
    if (usage.apis.size === 0) return { ranked, usage };

    const inRanking = new Set(ranked.map((api) => api.apiId));
    const chosenElsewhere = [...usage.apis].filter(([apiId, evidence]) => evidence.weight > 0 && !inRanking.has(apiId)).map(([apiId]) => apiId);
    const joined = (await visibleOf(snapshot, chosenElsewhere)).map((apiId) => ({ apiId, score: 0, fused: 0 }));
    const before = new Map(ranked.map((api, index) => [api.apiId, index]));
    // Just below the content's top (paraphraseBestRank - 1, or all it has): as high as a paraphrase's votes may lift an API.
    const top = ranked.slice(0, paraphraseBestRank - 1).at(-1);
    const ceiling = top ? top.score - 1e-9 : Infinity;
    const learned = [...ranked, ...joined]
      .map((api, index) => {
        const weight = usage.apis.get(api.apiId)?.weight ?? 0;
        if (weight === 0) return api;
        if (!usage.paraphraseOnly.has(api.apiId)) return { ...api, score: api.score + apiBoost * weight };
        // Already among the content's top: a paraphrase's votes leave it there.
        if (index < paraphraseBestRank - 1) return api;
        return { ...api, score: Math.max(api.score, Math.min(ceiling, api.score + apiBoost * weight)) };
      })
      .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId));
    learned.forEach((api, index) => {
      const evidence = usage.apis.get(api.apiId);
      if (!evidence) return;
      evidence.moved = (before.get(api.apiId) ?? learned.length) - index;
      evidence.reason = feedbackReason(evidence, usage.paraphraseOnly.has(api.apiId));
    });
    // Signals on APIs the search cannot show (filtered out, or not visible) make no card.
    const shown = new Set(learned.map((api) => api.apiId));
    for (const apiId of usage.apis.keys()) if (!shown.has(apiId)) usage.apis.delete(apiId);
    return { ranked: learned, usage };
  }
}

/** Those of these APIs a search may return (the filters pass them, not retired): a chosen API the retrievers missed. */
export async function visibleOf(snapshot: SearchSnapshot, apiIds: string[]): Promise<string[]> {
  if (apiIds.length === 0) return [];
  const params = new Params();
  const rows: { apiId: string }[] = await snapshot.manager.query(
    `${await snapshot.allowedApis(params, 's.api_id AS "apiId"')} AND s.api_id = ANY(${params.add(apiIds)})`,
    params.values,
  );
  return rows.map((row) => row.apiId);
}
