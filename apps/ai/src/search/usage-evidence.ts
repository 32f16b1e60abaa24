import type { FeedbackEvidence } from '#contracts';
import { type PastSignal, SHOWN_CARDS } from '../feedback/feedback.repository.js';
import { type NeedMatching, needMatch } from '../feedback/need-matching.js';
import { RANKING } from '../ranking/ranking.config.js';
import { round } from '../ranking/rounding.js';

/** What earlier signals of the org for this query's need say about a search's APIs and operations. */
export interface UsageEvidence {
  /** Per API; `moved` and `reason` are filled in once the ranking has been reordered (`UsageLearning`). */
  apis: Map<string, FeedbackEvidence>;
  /** APIs whose evidence comes from votes for the same need in other words only: lifted to `paraphraseBestRank` at best. */
  paraphraseOnly: Set<string>;
  /** Per API, per operation (`METHOD path`): -1..1, as `FeedbackEvidence.weight`. */
  operations: Map<string, Map<string, number>>;
}

/** The query as signals are matched against it. */
export interface QueryNeed {
  /** Its own words (lexemes). */
  words: string[];
  /** Its need's background under `matching` (`needMatch`). */
  background?: number;
  /** The APIs the content ranks first for it (its first 10). */
  topApis: string[];
}

/** How a signal's need relates to the query's: `same` need, a `paraphrase` of it, or neither. */
export type NeedRelation = 'same' | 'paraphrase' | undefined;

type FeedbackWeights = typeof RANKING.feedback;

interface Counted {
  weight: number;
  similarity: number;
  signal: PastSignal['signal'];
  same: boolean;
}

/**
 * Weighs the signals given for this query's need (`signals`, nearest first; `relationOf`): those
 * for the same need, and the votes for a paraphrase of it that matches about as well as the best
 * one does. Any other signal, however near its need, counts not at all. Each counts by its age
 * (its weight halves every `halfLifeDays`) and kind (a vote, or an API opened). A person counts
 * once per API (and per operation): by their strongest signal. An API's weight is the sum of its
 * people's signed weights over `peopleForFull`, within -1..1, raised to `peopleExponent`: one
 * person moves it 1/27 of the way at most, three all of it.
 */
export function usageEvidence(
  signals: PastSignal[],
  query: QueryNeed,
  matching: NeedMatching | undefined,
  halfLifeDays: number,
  weights: FeedbackWeights = RANKING.feedback,
): UsageEvidence {
  const related = signals.flatMap((signal) => {
    const relation = relationOf(signal, query, matching, weights);
    // A "not helpful" counts for the need it was given on, not for one that merely looks alike.
    if (!relation || (relation === 'paraphrase' && !signal.helpful)) return [];
    return [
      { signal, same: relation === 'same', match: relation === 'same' ? Infinity : needMatch(signal.similarity, query.background!, signal.needBackground!) },
    ];
  });
  const best = Math.max(-Infinity, ...related.filter((entry) => !entry.same).map((entry) => entry.match));
  const strongest = new Map<string, Map<string, Counted>>();
  for (const { signal, same, match } of related) {
    if (!same && match < best - weights.paraphraseMargin) continue;
    const weight = 0.5 ** (signal.ageDays / halfLifeDays) * weights.signalWeights[signal.signal] * (signal.helpful ? 1 : -1);
    const keys = [signal.apiId, ...(signal.method ? [`${signal.apiId}\n${signal.method} ${signal.path}`] : [])];
    for (const key of keys) {
      const people = strongest.get(key) ?? new Map<string, Counted>();
      const current = people.get(signal.person);
      if (!current || Math.abs(weight) > Math.abs(current.weight))
        people.set(signal.person, { weight, similarity: signal.similarity, signal: signal.signal, same });
      strongest.set(key, people);
    }
  }
  const apis = new Map<string, FeedbackEvidence>();
  const paraphraseOnly = new Set<string>();
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
    if (!votes.some((vote) => vote.same)) paraphraseOnly.add(apiId);
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
  return { apis, paraphraseOnly, operations };
}

/**
 * Whether a signal was given for this query's need: the `same` need (the same words, or a vector
 * as good as the same text), or a `paraphrase` of it: a model that tells paraphrases apart
 * (`matching.paraphrases`) puts the two needs at least its fitted threshold apart (`needMatch`,
 * the signal measured under the current fit), and the signal's search showed some of what the
 * content ranks first for the query (`minShownOverlap`).
 */
export function relationOf(
  signal: Pick<PastSignal, 'similarity' | 'lexemes' | 'needBackground' | 'shown'>,
  query: QueryNeed,
  matching: NeedMatching | undefined,
  weights: Pick<FeedbackWeights, 'sameNeedCosine' | 'minShownOverlap'> = RANKING.feedback,
): NeedRelation {
  if (!Number.isFinite(signal.similarity)) return undefined;
  if (signal.similarity >= weights.sameNeedCosine || sameWords(signal.lexemes, query.words)) return 'same';
  if (!matching?.paraphrases || signal.needBackground === null || query.background === undefined) return undefined;
  if (needMatch(signal.similarity, query.background, signal.needBackground) < matching.threshold) return undefined;
  return shownOverlap(signal.shown, query.topApis) >= weights.minShownOverlap ? 'paraphrase' : undefined;
}

/** Share of what a search showed (its first `SHOWN_CARDS`) that the content ranks as high for the query. */
export function shownOverlap(shown: string[], topApis: string[]): number {
  const seen = shown.slice(0, SHOWN_CARDS);
  if (seen.length === 0) return 0;
  const top = new Set(topApis.slice(0, SHOWN_CARDS));
  return seen.filter((apiId) => top.has(apiId)).length / seen.length;
}

function sameWords(lexemes: string[], words: string[]): boolean {
  const query = new Set(words);
  return query.size > 0 && new Set(lexemes).size === query.size && lexemes.every((lexeme) => query.has(lexeme));
}

/** Why a card moved, in a sentence: who said what for this need, and how far it moved (see `FeedbackEvidence.reason`). */
export function feedbackReason(evidence: Omit<FeedbackEvidence, 'reason'>, paraphraseOnly: boolean): string {
  const people = (count: number) => `${count} ${count === 1 ? 'person' : 'people'}`;
  const said = [
    evidence.helpful > 0 ? `${people(evidence.helpful)} voted it the answer` : '',
    evidence.opened > 0 ? `${people(evidence.opened)} opened it after searching` : '',
    evidence.notHelpful > 0 ? `${people(evidence.notHelpful)} said it was not what they needed` : '',
  ].filter(Boolean);
  const need = paraphraseOnly ? `this need in other words (similarity ${evidence.similarity.toFixed(2)})` : 'this need';
  const who = `${said.join(', ')} for ${need}`;
  const places = (count: number) => `${count} ${count === 1 ? 'place' : 'places'}`;
  const limit = paraphraseOnly ? `; votes for other words never lift an API above the ${RANKING.feedback.paraphraseBestRank - 1} the content ranks first` : '';
  if (evidence.moved > 0) return `Up ${places(evidence.moved)}: ${who}${limit}`;
  if (evidence.moved < 0) return `Down ${places(-evidence.moved)}: ${who}`;
  return `Kept its place: ${who}${limit}`;
}
