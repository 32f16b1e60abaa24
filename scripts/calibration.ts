import type { MatchBand, RelevanceEvidence } from '#contracts';
import type { RelevanceCalibration } from '../apps/ai/src/search/ranking.config.js';
import { calibratedRelevance, matchBand } from '../apps/ai/src/search/relevance.js';

/** One card of a judged search: what its score is computed from, and the judgment. */
export interface JudgedCard {
  queryId: string;
  /** 0 for the top card. */
  rank: number;
  evidence: RelevanceEvidence;
  /** 2 fully relevant, 1 partially, 0 not. */
  grade: number;
}

export type Feature = 'relative' | 'similarity' | 'termCoverage';

/** Ridge on the weights (not the intercept), a weak prior: keeps a fit on ~1000 cards from chasing noise. */
const RIDGE = 1;
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
      row.forEach((value, j) => {
        gradient[j] += (p - y[i]) * value;
        row.forEach((other, k) => (hessian[j][k] += p * (1 - p) * value * other));
      });
    });
    const delta = solve(hessian, gradient);
    beta.forEach((_, j) => (beta[j] -= delta[j]));
    if (Math.max(...delta.map(Math.abs)) < 1e-9) break;
  }
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return { intercept: round(beta[0]), weights: Object.fromEntries(features.map((feature, j) => [feature, round(beta[j + 1])])) as RelevanceCalibration['weights'] };
}

/**
 * Each card's relevance as estimated by a calibration fitted without its query: the queries are
 * split into `folds` groups, each scored by the fit on the others.
 */
export function crossValidated(cards: JudgedCard[], features: Feature[], folds = 5): number[] {
  const queries = [...new Set(cards.map((card) => card.queryId))];
  const foldOf = new Map(queries.map((queryId, index) => [queryId, index % folds]));
  const relevance = new Array<number>(cards.length);
  for (let fold = 0; fold < folds; fold++) {
    const calibration = fitCalibration(cards.filter((card) => foldOf.get(card.queryId) !== fold), features);
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
  return (['strong', 'partial', 'weak'] as const).map((band) => {
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
