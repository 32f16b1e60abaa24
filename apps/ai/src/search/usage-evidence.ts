import type { FeedbackEvidence } from '#contracts';
import type { PastSignal } from '../feedback/feedback.repository.js';
import { type NeedMatching, needMatch } from '../feedback/need-matching.js';
import { RANKING } from './ranking.config.js';
import { round } from './rounding.js';

/** What earlier signals of the org for this query's need say about a search's APIs and operations. */
export interface UsageEvidence {
  /** Per API; `moved` and `reason` are filled in once the ranking has been reordered (`UsageLearning`). */
  apis: Map<string, FeedbackEvidence>;
  /** Per API, per operation (`METHOD path`): -1..1, as `FeedbackEvidence.weight`. */
  operations: Map<string, Map<string, number>>;
}

/** The query as signals are matched against it: its own words (lexemes) and its need's background under `matching`. */
export interface QueryNeed {
  words: string[];
  background?: number;
}

type FeedbackWeights = typeof RANKING.feedback;

/**
 * Weighs the signals given for this query's need (`signals`, nearest first): for the same need
 * (the same words, or a vector as good as the same), and, when the model tells paraphrases apart
 * (`matching.paraphrases`), for a need it judges a paraphrase (`sameNeed`). Any other signal,
 * however near its need, counts not at all. Each counts by its age (its weight halves every
 * `halfLifeDays`) and kind (a vote, or an API opened). A person counts once per API (and per
 * operation): by their strongest signal. An API's weight is the sum of its people's signed weights
 * over `peopleForFull`, within -1..1, raised to `peopleExponent`: one person moves it 1/27 of the
 * way at most, three all of it.
 */
export function usageEvidence(signals: PastSignal[], query: QueryNeed, matching: NeedMatching | undefined, halfLifeDays: number, weights: FeedbackWeights = RANKING.feedback): UsageEvidence {
  const strongest = new Map<string, Map<string, { weight: number; similarity: number; signal: PastSignal['signal'] }>>();
  for (const signal of signals) {
    if (!sameNeed(signal, query, matching, weights)) continue;
    const weight = 0.5 ** (signal.ageDays / halfLifeDays) * weights.signalWeights[signal.signal] * (signal.helpful ? 1 : -1);
    const keys = [signal.apiId, ...(signal.method ? [`${signal.apiId}\n${signal.method} ${signal.path}`] : [])];
    for (const key of keys) {
      const people = strongest.get(key) ?? new Map<string, { weight: number; similarity: number; signal: PastSignal['signal'] }>();
      const current = people.get(signal.person);
      if (!current || Math.abs(weight) > Math.abs(current.weight)) people.set(signal.person, { weight, similarity: signal.similarity, signal: signal.signal });
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
      helpful: votes.filter((vote) => vote.weight > 0 && vote.signal === 'vote').length,
      opened: votes.filter((vote) => vote.weight > 0 && vote.signal === 'opened').length,
      notHelpful: votes.filter((vote) => vote.weight < 0).length,
      similarity: round(Math.min(1, Math.max(...votes.map((vote) => vote.similarity)))),
      weight: round(weight),
      moved: 0,
      reason: '',
    });
  }
  return { apis, operations };
}

/**
 * Whether a signal was given for this query's need: the same words, a vector as good as the same
 * (`sameNeedCosine`), or a paraphrase as the model's fitted matching judges it (`needMatch` at
 * least its threshold; a signal not yet measured under the current fit is not judged).
 */
export function sameNeed(signal: Pick<PastSignal, 'similarity' | 'lexemes' | 'needBackground'>, query: QueryNeed, matching: NeedMatching | undefined, weights: Pick<FeedbackWeights, 'sameNeedCosine'> = RANKING.feedback): boolean {
  if (!Number.isFinite(signal.similarity)) return false;
  if (signal.similarity >= weights.sameNeedCosine || sameWords(signal.lexemes, query.words)) return true;
  if (!matching?.paraphrases || signal.needBackground === null || query.background === undefined) return false;
  return needMatch(signal.similarity, query.background, signal.needBackground) >= matching.threshold;
}

function sameWords(lexemes: string[], words: string[]): boolean {
  const query = new Set(words);
  return query.size > 0 && new Set(lexemes).size === query.size && lexemes.every((lexeme) => query.has(lexeme));
}

/** Why a card moved, in a sentence: who said what for this need, and how far it moved (see `FeedbackEvidence.reason`). */
export function feedbackReason(evidence: Omit<FeedbackEvidence, 'reason'>, reordered: boolean): string {
  const people = (count: number) => `${count} ${count === 1 ? 'person' : 'people'}`;
  const said = [
    evidence.helpful > 0 ? `${people(evidence.helpful)} voted it the answer` : '',
    evidence.opened > 0 ? `${people(evidence.opened)} opened it after searching` : '',
    evidence.notHelpful > 0 ? `${people(evidence.notHelpful)} said it was not what they needed` : '',
  ].filter(Boolean);
  const who = `${said.join(', ')} for this need (the closest of those searches: similarity ${evidence.similarity.toFixed(2)})`;
  if (!reordered) return `Not moved: ${who}, but the content does not rank it among the ${RANKING.feedback.relevantRanks} most relevant APIs for these words, and feedback only reorders those`;
  const places = (count: number) => `${count} ${count === 1 ? 'place' : 'places'}`;
  if (evidence.moved > 0) return `Up ${places(evidence.moved)}: ${who}`;
  if (evidence.moved < 0) return `Down ${places(-evidence.moved)}: ${who}`;
  return `Kept its place: ${who}`;
}
