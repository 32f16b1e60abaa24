/**
 * A logistic model of the chance that a card answers the query, from the card's evidence (see
 * `RelevanceEvidence`). `relative` is the API's fused score against the best API of the search.
 */
export interface RelevanceCalibration {
  intercept: number;
  /** Per piece of evidence; one left out does not count. */
  weights: { relative?: number; similarity?: number; termCoverage?: number };
}

/**
 * Fitted with `npm run eval -- --calibrate` on the public relevance set's judgments (a card
 * answers when judged fully relevant), per set of evidence a search measures. Similarities are
 * the model's own cosines: `hybrid` and `vector` hold for `model` alone; any other model's
 * searches are scored by the words (`words`), as keyword-mode searches are.
 */
export const RELEVANCE_CALIBRATIONS = {
  model: 'use-lite-512',
  hybrid: { intercept: -6, weights: { relative: 2, similarity: 6, termCoverage: 2 } },
  vector: { intercept: -6, weights: { relative: 2, similarity: 8 } },
  words: { intercept: -4, weights: { relative: 2, termCoverage: 3 } },
} satisfies Record<string, RelevanceCalibration | string>;

/** Relevance from which a card's `match` is `strong` or `partial` (below: `weak`). */
export const MATCH_THRESHOLDS = { strong: 0.5, partial: 0.2 };
