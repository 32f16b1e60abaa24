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
 * Fitted with `npm run eval -- --calibrate` (2026-12-04) on the public relevance set: its searches
 * as they are (a card answers when judged fully relevant) and the same searches without their
 * answers, as in an org that lacks them (`withoutAnswers` in scripts/calibration.ts), the former
 * counting twice. Fitted on judged searches alone, the best card of any search scored high (it is
 * relevant in 58% of them), and in an org without the answer the best card was called strong in
 * 50 of 71 searches; now in 5 (cross-validated). Per set of evidence a search measures:
 * similarities are the model's own cosines, so `hybrid` and `vector` hold for `model` alone; any
 * other model's searches are scored by the words (`words`), as keyword-mode searches are (`keyword`).
 */
export const RELEVANCE_CALIBRATIONS = {
  model: 'use-lite-512',
  hybrid: { intercept: -9.735, weights: { relative: 4.074, similarity: 3.272, termCoverage: 6.252 } },
  vector: { intercept: -7.38, weights: { relative: 5.035, similarity: 1.64 } },
  keyword: { intercept: -9.141, weights: { relative: 5.499, termCoverage: 5.622 } },
  words: { intercept: -8.265, weights: { relative: 4.61, termCoverage: 6.281 } },
} satisfies Record<string, RelevanceCalibration | string>;

/**
 * Relevance from which a card's `match` is `strong` (more likely than not to answer) or `partial`
 * (below: `weak`).
 */
export const MATCH_THRESHOLDS = { strong: 0.5, partial: 0.2 };
