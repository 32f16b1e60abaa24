import type { ChunkLevel } from '#contracts';

/**
 * The weights of search ranking, in one place. Each was chosen by measurement (`npm run eval`
 * on the public relevance set, or RestBench); the note on each says what it gained.
 */
export const RANKING = {
  /** Chunks each retriever contributes before fusion. */
  candidatesPerRetriever: 300,
  /**
   * Keyword leaders per requested card whose vector evidence is measured exactly when the nearest
   * chunks miss them (`nearestChunksOf`): 2 per card gained as much as 10 (measured offline:
   * nDCG@10 the same for the top 20 and top 100), at ≈ 7 ms p50 on the public corpus.
   */
  unseenLeadersPerResult: 2,
  /** Vector and keyword evidence count the same (measured: 0.6/0.4 either way is no better). */
  fusion: { vector: 0.5, keyword: 0.5 },
  /**
   * A deprecated API's fused score is scaled by this: below an equally good API in production,
   * still above a clearly worse one (a lead of more than a quarter keeps it first). Retired APIs
   * are never returned. Not a relevance weight: the eval set has no stages, so it changes nothing there.
   */
  deprecatedWeight: 0.8,
  /**
   * BM25's term-frequency saturation and length normalisation, at API level. k1 above the usual
   * 1.2: an API document is long and repeats its domain's words (measured offline: k1 2 > 1.2).
   */
  bm25: { k1: 2, b: 0.75 },
  /**
   * How much a chunk of each level says about the API as a whole. A match on what the API is
   * (L1) counts more than one on an operation; a schema (L3) often matches generic field words.
   * Measured: hybrid nDCG@10 0.559 → 0.579.
   */
  levelWeights: { L1: 1.3, L2: 1, L3: 0.5 } satisfies Record<ChunkLevel, number>,
  /** Weights of an API's 1st, 2nd, 3rd best chunk: more than one matching chunk is more evidence. */
  evidenceWeights: [1, 0.35, 0.15],
  /**
   * Where similarity 0 lies when vector evidence is weighed against keyword evidence: this many
   * times the nearest chunks' span (best − last) below their last. With 0 at the last, an API
   * whose best chunk just missed the nearest list counted as no match at all, and APIs of nearly
   * equal similarity were spread from 0 to 1 against the keyword scores. Measured together with
   * the unseen leaders: hybrid nDCG@10 0.634 → 0.653, recall@10 0.743 → 0.781 (within ±0.01 for
   * 0.5–1.5 spans). Vectors alone rank better with 0 at the last (0.503, not 0.488).
   */
  similarityFloorSpans: 1,
  /**
   * Learning from usage (`usageEvidence`): signals given in the org for this query's need move
   * the chosen APIs and operations, among the APIs the content already finds relevant. Measured
   * with `npm run eval -- --feedback` (needs that got votes, needs that got none, paraphrases of
   * the voted ones, and sybils); the numbers are in docs/search-quality.md.
   */
  feedback: {
    /**
     * A signal counts only for its own need. The same need: the same words, or a vector this
     * close (as good as the same text); its vote moves the API anywhere, a "not helpful" down.
     * Before, any need within cosine ~0.45 counted in full, and votes on 71 needs cut success@1
     * of 129 needs nobody voted on from 0.61 to 0.25.
     */
    sameNeedCosine: 0.98,
    /** A need's background: the mean cosine to its this many nearest reference needs (10 matched more tuning paraphrases than 5, as many as 20). */
    needNeighbours: 10,
    /** The threshold lets this share of the calibration set's pairs of different needs match (0.002: half the paraphrases). */
    falseMatchRate: 0.01,
    /** A model whose fit then matches fewer of the set's paraphrase pairs learns from the same need only. */
    minRecall: 0.2,
    /**
     * The same need in other words (a paraphrase): a need whose `needMatch` with the query
     * reaches the model's fitted threshold (`fitNeedMatching`), whose search showed at least
     * `minShownOverlap` of what the content ranks first for the query (of its first 10 cards:
     * 96% of paraphrase pairs share one, 19% of pairs of different needs), and that matches
     * about as well as the best such need (within `paraphraseMargin`: a query is one need).
     * Its votes lift an API to `paraphraseBestRank` at best: below the content's own top 3,
     * which only a vote for the same need overrules; its "not helpful" counts for nothing.
     * Chosen by offline replay on the tuning paraphrases, voted and unvoted (checks held out):
     * with the lift to rank 1, 9 of the 38 unvoted needs' paraphrases lost nDCG@10; at rank 4,
     * 4 lost a little, and voted needs' paraphrases still gained success@5 0.697 → 0.848.
     */
    minShownOverlap: 0.1,
    paraphraseMargin: 0.02,
    paraphraseBestRank: 4,
    /** An operation opened after a search says less than a vote. */
    signalWeights: { vote: 1, opened: 0.35 },
    /**
     * People it takes, each with a vote for this need, to move an API as far as feedback may.
     * Each person counts once per API (by their strongest signal), and the people's
     * share is raised to `peopleExponent`: one person moves an API 1/27 of the way, two 8/27,
     * three all of it. Linear (1/3 for one person), a flooder lifted a wrong API from ranks 11–50
     * into the top 3 of 7–15 of the 71 public needs; cubed, of none (tuning set, offline replay).
     */
    peopleForFull: 3,
    peopleExponent: 3,
    /** What feedback in full adds to an API's fused score (the best API's is about 1), or takes away. */
    apiBoost: 0.8,
    /**
     * What it adds to an operation's score within its card: as much as the best match scores (1),
     * so the operation people used for this need leads the card unless the query names another.
     */
    operationBoost: 1,
    /**
     * What a search reads: the org's newest 5000 signals (a bounded scan, ~30 ms at most), of
     * which the 500 nearest the query, at most 10 of one person's.
     */
    scannedSignals: 5000,
    nearestSignals: 500,
    signalsPerPerson: 10,
    /** How much feedback in full moves the calibrated relevance's log-odds. */
    relevanceWeight: 2.5,
  },
  /**
   * Words of one family ("registers", "registration"; `familyVariants`) and of equivalent phrases
   * ("signed up" → "registration"; `phraseEquivalents`) beside the query's own: a chunk or an API
   * holding them counts this share of their rarity weight, never more than the typed word's, and
   * each query word once in whatever form (its best). They add to scores; they do not make
   * candidates, nor stand in for a word the org lacks (either cost nDCG@10 0.01 on the public set).
   * Measured: public set hybrid success@5 0.775 → 0.789, nDCG@10 0.656 → 0.654; kinds set, needs
   * phrased as events, success@1 0.810 → 0.857.
   */
  wordFamilies: { weight: 0.5 },
  /**
   * A need phrased as an event ("tell me when a new customer registers", `eventIntent`) is
   * answered by an operation that delivers events (`EVENT_DELIVERY`), not by one that merely
   * names the same things. Measured on the kinds set (`npm run eval -- --kinds`, 21 needs phrased
   * as events): success@1 0.571 → 0.810 (the public set, all REST, is unchanged).
   */
  intent: {
    /** An API with such an operation: its fused score is scaled by this. */
    eventApiWeight: 1.15,
    /** Such an operation, within its card (a match scores up to 1). */
    eventOperationBoost: 0.5,
    /** A need that says when ("every night at 2am", "after a delay", `scheduleIntent`): an API with an operation that schedules, delays or queues work… */
    scheduleApiWeight: 1.15,
    /** …and such an operation within its card. */
    scheduleOperationBoost: 0.3,
  },
  /**
   * Which API is first when their best operations differ in fit (`bestOperationFits`): each of
   * the leading `apis` gains `weight` × the best `operationFit` of its `operations` nearest
   * operations (−0.5..0.8 at the endpoint weights below: 0.5 × the action's −1..1, plus 0.3 ×
   * the share of a name's objects the need says, 0.15 × for a REST summary's).
   */
  operationFit: { apis: 10, operations: 5, weight: 0.3 },
  /** Ordering the operations within one card. */
  endpoints: {
    /**
     * How much the keyword score counts against similarity. Operations of one API embed alike
     * (same domain, same prefix), so the words tell them apart better (RestBench op-recall@10
     * with rank fusion: TMDB 0.672, Spotify 0.788; with this: 0.726 and 0.800).
     */
    keywordWeight: 0.75,
    /**
     * What the API's best and second-best search operations gain when the query names something
     * the specs never mention: acting on "Taylor Swift's newest album" starts with finding Taylor
     * Swift. RestBench op-recall@10: TMDB 0.726 → 0.823, Spotify 0.800 → 0.838 (the same within
     * ±0.02 for gains of 0.2–0.75 and for the best one to three search operations).
     */
    lookupBoosts: [0.5, 0.25],
    /** What a search operation for the kind of thing the query names gains beyond that ("directed by Sofia Coppola": the people search). */
    typedLookupBoost: 1,
    /** Above any score a match earns: an operation the query names by its path comes first, its named method before the others. */
    namedPathBoost: 3,
    namedMethodBoost: 1,
    /** Operations read as actions (`operationFit`): the need's action against the operation's, and the share of its name's objects the need says. */
    action: { actionWeight: 0.5, objectWeight: 0.15, namedObjectWeight: 0.3 },
  },
} as const;

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
 * answers, as in an org that lacks them (`withoutAnswers` in benchmarks/calibration.ts), the former
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
