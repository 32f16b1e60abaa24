import { MATCH_BANDS, type MatchBand, type RelevanceEvidence } from '#contracts';
import type { RelevanceCalibration } from '../apps/ai/src/ranking/ranking.config.js';
import { calibratedRelevance, matchBand } from '../apps/ai/src/search/relevance.js';

/** One card of a judged search: what its score is computed from, and the judgment. */
export interface JudgedCard {
  queryId: string;
  /** 0 for the top card. */
  rank: number;
  evidence: RelevanceEvidence;
  /** 2 fully relevant, 1 partially, 0 not. */
  grade: number;
  /** How much the card counts in a fit (1 when absent). */
  weight?: number;
}

export type Feature = 'relative' | 'similarity' | 'termCoverage';

/** Ridge on the weights (not the intercept): only keeps Newton's steps finite when a feature separates perfectly. */
const RIDGE = 0.01;
/**
 * How much more a search of an org that holds the answer counts than one of an org that does not:
 * the calibration assumes two searches of three have an answer in the org.
 */
const ANSWERED_WEIGHT = 2;
/** Cards per search, as a search returns them by default. */
const CARDS_PER_SEARCH = 10;
const NEWTON_STEPS = 50;

/**
 * Logistic regression of "fully relevant" on the features, by Newton's method: the calibration
 * `calibratedRelevance` applies.
 */
export function fitCalibration(cards: JudgedCard[], features: Feature[]): RelevanceCalibration {
  const x = cards.map((card) => [1, ...features.map((feature) => card.evidence[feature] ?? 0)]);
  const y = cards.map((card) => (card.grade === 2 ? 1 : 0));
  const beta = new Array<number>(features.length + 1).fill(0);
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const gradient = beta.map((b, j) => (j > 0 ? RIDGE * b : 0));
    const hessian = beta.map((_, j) => beta.map((__, k) => (j === k && j > 0 ? RIDGE : 0)));
    x.forEach((row, i) => {
      const p = 1 / (1 + Math.exp(-row.reduce((sum, value, j) => sum + value * beta[j], 0)));
      const weight = cards[i].weight ?? 1;
      row.forEach((value, j) => {
        gradient[j] += weight * (p - y[i]) * value;
        row.forEach((other, k) => (hessian[j][k] += weight * p * (1 - p) * value * other));
      });
    });
    const delta = solve(hessian, gradient);
    beta.forEach((_, j) => (beta[j] -= delta[j]));
    if (Math.max(...delta.map(Math.abs)) < 1e-9) break;
  }
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    intercept: round(beta[0]),
    weights: Object.fromEntries(features.map((feature, j) => [feature, round(beta[j + 1])])) as RelevanceCalibration['weights'],
  };
}

/**
 * The cards of searches in an org that lacks the answer, simulated from searches that returned
 * more cards than shown (`cards`, by query, best first): each search's cards judged irrelevant,
 * its first `CARDS_PER_SEARCH` of them, with `relative` measured against the best of those. On
 * judged searches alone the best card of every search (relative 1) is mostly relevant, and a fit
 * learns to trust it, which is exactly wrong in an org without the answer.
 */
export function withoutAnswers(cards: JudgedCard[]): JudgedCard[] {
  const byQuery = new Map<string, JudgedCard[]>();
  for (const card of cards) byQuery.set(card.queryId, [...(byQuery.get(card.queryId) ?? []), card]);
  return [...byQuery.values()].flatMap((list) => {
    const rest = list.filter((card) => card.grade === 0).slice(0, CARDS_PER_SEARCH);
    const best = Math.max(...rest.map((card) => card.evidence.relative));
    return rest.map((card, rank) => ({ ...card, rank, evidence: { ...card.evidence, relative: best > 0 ? card.evidence.relative / best : 0 } }));
  });
}

/** The fit's training set: the searches as they were (weighted `ANSWERED_WEIGHT`) and without their answers. */
export function trainingCards(cards: JudgedCard[]): JudgedCard[] {
  return [
    ...cards.filter((card) => card.rank < CARDS_PER_SEARCH).map((card) => ({ ...card, weight: ANSWERED_WEIGHT })),
    ...withoutAnswers(cards).map((card) => ({ ...card, weight: 1 })),
  ];
}

/**
 * Each of `cards` scored by a calibration fitted on `training` without the card's query: the
 * queries are split into `folds` groups, each scored by the fit on the others.
 */
export function crossValidated(cards: JudgedCard[], training: JudgedCard[], features: Feature[], folds = 5): number[] {
  const queries = [...new Set(cards.map((card) => card.queryId))];
  const foldOf = new Map(queries.map((queryId, index) => [queryId, index % folds]));
  const relevance = new Array<number>(cards.length);
  for (let fold = 0; fold < folds; fold++) {
    const calibration = fitCalibration(
      training.filter((card) => foldOf.get(card.queryId) !== fold),
      features,
    );
    cards.forEach((card, index) => {
      if (foldOf.get(card.queryId) === fold) relevance[index] = calibratedRelevance(card.evidence, calibration);
    });
  }
  return relevance;
}

/** Chance that a fully relevant card scores above an irrelevant one (ties count half). */
export function separation(cards: JudgedCard[], relevance: number[]): number {
  const relevant = relevance.filter((_, index) => cards[index].grade === 2);
  const irrelevant = relevance.filter((_, index) => cards[index].grade === 0);
  if (relevant.length === 0 || irrelevant.length === 0) return Number.NaN;
  let wins = 0;
  for (const a of relevant) for (const b of irrelevant) wins += a > b ? 1 : a === b ? 0.5 : 0;
  return wins / (relevant.length * irrelevant.length);
}

export interface BandRow {
  band: MatchBand;
  cards: number;
  /** Share judged fully relevant, and at least partially. */
  full: number;
  partial: number;
}

/** Per match band, how many cards fell in it and how many of those were relevant. */
export function bandTable(cards: JudgedCard[], relevance: number[]): BandRow[] {
  const rows = new Map<MatchBand, JudgedCard[]>();
  cards.forEach((card, index) => {
    const band = matchBand(relevance[index]);
    rows.set(band, [...(rows.get(band) ?? []), card]);
  });
  return MATCH_BANDS.map((band) => {
    const inBand = rows.get(band) ?? [];
    const share = (test: (card: JudgedCard) => boolean) => (inBand.length > 0 ? inBand.filter(test).length / inBand.length : Number.NaN);
    return { band, cards: inBand.length, full: share((card) => card.grade === 2), partial: share((card) => card.grade >= 1) };
  });
}

/** Solves `a·x = b` (a small symmetric positive definite system) by Gaussian elimination. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    const pivot = m.slice(col).reduce((best, row, offset) => (Math.abs(row[col]) > Math.abs(m[best][col]) ? col + offset : best), col);
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let row = 0; row < n; row++) {
      if (row === col || m[col][col] === 0) continue;
      const factor = m[row][col] / m[col][col];
      for (let k = col; k <= n; k++) m[row][k] -= factor * m[col][k];
    }
  }
  return m.map((row, i) => (row[i] === 0 ? 0 : row[n] / row[i]));
}
