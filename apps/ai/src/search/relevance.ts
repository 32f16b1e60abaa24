import type { MatchBand, RelevanceEvidence } from '#contracts';
import { MATCH_THRESHOLDS, RANKING, RELEVANCE_CALIBRATIONS, type RelevanceCalibration } from '../ranking/ranking.config.js';

/**
 * Share of the query that one chunk of the API covers: the rarity weight of the query's words
 * the chunk holds in some form (`heldWeight`, each word's `cover` once) over that of all the
 * query's words, the ones no spec of the org uses included. Of a whole API it would say little: a large spec holds most common words
 * somewhere (measured: AUC 0.852 by the API's words, 0.872 by its best chunk's).
 */
export function termCoverage(terms: { root: string; cover: number }[], unknownWeight: number, heldWeight: number): number {
  // Each query word once, whatever form of it the terms hold.
  const roots = new Map<string, number>();
  for (const term of terms) roots.set(term.root, Math.max(roots.get(term.root) ?? 0, term.cover));
  const total = [...roots.values()].reduce((sum, cover) => sum + cover, unknownWeight);
  return total > 0 ? Math.min(1, heldWeight / total) : 0;
}

/**
 * The calibration for what a search measured: with the similarity only when the model that
 * produced it is the one the calibration was fitted on (cosines of other models lie elsewhere).
 * A vector-mode search with another model has only its relative score: the words' calibration
 * reads its coverage as 0, so its cards are never strong.
 */
export function calibrationFor(modelId: string, measured: { similarity: boolean; coverage: boolean }): RelevanceCalibration {
  if (!measured.similarity) return RELEVANCE_CALIBRATIONS.keyword;
  const similarity = RELEVANCE_CALIBRATIONS.model === modelId;
  if (similarity && measured.coverage) return RELEVANCE_CALIBRATIONS.hybrid;
  if (similarity) return RELEVANCE_CALIBRATIONS.vector;
  return RELEVANCE_CALIBRATIONS.words;
}

/**
 * Estimated chance that the card answers the query: a logistic model of the card's evidence. What
 * people chose for the same need moves its log-odds by up to `RANKING.feedback.relevanceWeight`
 * (the public set has no feedback to fit it on: see the README's feedback protocol).
 */
export function calibratedRelevance(evidence: RelevanceEvidence, calibration: RelevanceCalibration): number {
  const { intercept, weights } = calibration;
  const z =
    intercept +
    (weights.relative ?? 0) * evidence.relative +
    (weights.similarity ?? 0) * (evidence.similarity ?? 0) +
    (weights.termCoverage ?? 0) * (evidence.termCoverage ?? 0) +
    RANKING.feedback.relevanceWeight * (evidence.feedback?.weight ?? 0);
  return 1 / (1 + Math.exp(-z));
}

/**
 * Relevances that agree with the ranking's order: none above the card before it. The order weighs
 * the retrievers' evidence one way, the calibration another; a card below can otherwise show more.
 */
export function inRankingOrder(relevances: number[]): number[] {
  let ceiling = Infinity;
  return relevances.map((relevance) => (ceiling = Math.min(ceiling, relevance)));
}

export function matchBand(relevance: number): MatchBand {
  if (relevance >= MATCH_THRESHOLDS.strong) return 'strong';
  if (relevance >= MATCH_THRESHOLDS.partial) return 'partial';
  return 'weak';
}
