import type { FeedbackEvidence } from '#contracts';
import type { PastSignal } from '../feedback/feedback.repository.js';
import { RANKING } from './ranking.config.js';
import { round } from './rounding.js';

/** What earlier signals of the org say about a search's APIs and operations. */
export interface UsageEvidence {
  apis: Map<string, FeedbackEvidence>;
  /** Per API, per operation (`METHOD path`): -1..1, as `FeedbackEvidence.weight`. */
  operations: Map<string, Map<string, number>>;
}

type FeedbackWeights = typeof RANKING.feedback;

/**
 * Weighs the signals given for needs near the query (`signals`, nearest first). Each signal
 * counts by how similar its need is (`needSimilarity`), how old it is (its weight halves every
 * `halfLifeDays`) and what it is (a vote, or an operation opened). A person counts once per API
 * (and per operation): by their strongest signal, whatever else they gave. An API's weight is
 * the sum of its people's signed weights over `peopleForFull`, within -1..1, raised to
 * `peopleExponent`: one person moves it 1/27 of the way at most, three all of it.
 */
export function usageEvidence(signals: PastSignal[], queryWords: string[], halfLifeDays: number, weights: FeedbackWeights = RANKING.feedback): UsageEvidence {
  const words = new Set(queryWords);
  // Per API (and per API and operation), each person's strongest signal.
  const strongest = new Map<string, Map<string, { weight: number; similarity: number }>>();
  for (const signal of signals) {
    const similarity = needSimilarity(signal, words, weights);
    const strength = Math.min(1, Math.max(0, (similarity - weights.similarFrom) / (weights.similarFull - weights.similarFrom)));
    if (strength === 0) continue;
    const weight = strength * 0.5 ** (signal.ageDays / halfLifeDays) * weights.signalWeights[signal.signal] * (signal.helpful ? 1 : -1);
    const keys = [signal.apiId, ...(signal.method ? [`${signal.apiId}\n${signal.method} ${signal.path}`] : [])];
    for (const key of keys) {
      const people = strongest.get(key) ?? new Map<string, { weight: number; similarity: number }>();
      const current = people.get(signal.person);
      if (!current || Math.abs(weight) > Math.abs(current.weight)) people.set(signal.person, { weight, similarity });
      strongest.set(key, people);
    }
  }
  const apis = new Map<string, FeedbackEvidence>();
  const operations = new Map<string, Map<string, number>>();
  for (const [key, people] of strongest) {
    const votes = [...people.values()];
    const share = Math.min(1, Math.max(-1, votes.reduce((sum, vote) => sum + vote.weight, 0) / weights.peopleForFull));
    const weight = Math.sign(share) * Math.abs(share) ** weights.peopleExponent;
    const [apiId, operation] = key.split('\n');
    if (operation !== undefined) {
      operations.set(apiId, (operations.get(apiId) ?? new Map<string, number>()).set(operation, weight));
      continue;
    }
    apis.set(apiId, {
      helpful: votes.filter((vote) => vote.weight > 0).length,
      notHelpful: votes.filter((vote) => vote.weight < 0).length,
      similarity: round(Math.max(...votes.map((vote) => vote.similarity))),
      weight: round(weight),
    });
  }
  return { apis, operations };
}

/** How alike two needs are, 0..1: by meaning (their vectors) and by the words they share. */
export function needSimilarity(signal: Pick<PastSignal, 'similarity' | 'lexemes'>, queryWords: Set<string>, weights: Pick<FeedbackWeights, 'meaning' | 'words'> = RANKING.feedback): number {
  const shared = signal.lexemes.filter((word) => queryWords.has(word)).length;
  const union = new Set([...signal.lexemes, ...queryWords]).size;
  const meaning = Number.isFinite(signal.similarity) ? Math.max(0, signal.similarity) : 0;
  return weights.meaning * meaning + weights.words * (union > 0 ? shared / union : 0);
}
