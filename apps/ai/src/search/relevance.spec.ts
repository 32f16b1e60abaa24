import { calibratedRelevance, calibrationFor, matchBand, termCoverage } from './relevance.js';
import { MATCH_THRESHOLDS, RELEVANCE_CALIBRATIONS } from '../ranking/ranking.config.js';

describe(termCoverage.name, () => {
  const terms = [
    { root: 'regist', cover: 3 },
    // Another form of the same word: covers it, does not add to the query.
    { root: 'regist', cover: 3 },
    { root: 'customer', cover: 1 },
    // A word of an equivalent phrase: matched, no share of the query.
    { root: 'signup', cover: 0 },
  ];

  it("should be the share of the query's rarity weight that the chunk holds", () => {
    expect(termCoverage(terms, 0, 4)).toBe(1);
    expect(termCoverage(terms, 0, 3)).toBe(0.75);
    expect(termCoverage(terms, 0, 0)).toBe(0);
  });

  it('should count the words no spec of the org uses as uncovered', () => {
    // "github" in an org without GitHub: no API can hold it, so none covers the whole query.
    expect(termCoverage(terms, 4, 4)).toBe(0.5);
  });

  it('should be 0 for a query without weighted words', () => {
    expect(termCoverage([], 0, 0)).toBe(0);
  });
});

describe(calibrationFor.name, () => {
  it('should use the similarity only for the model the calibration was fitted on', () => {
    const model = RELEVANCE_CALIBRATIONS.model;
    expect(calibrationFor(model, { similarity: true, coverage: true })).toBe(RELEVANCE_CALIBRATIONS.hybrid);
    expect(calibrationFor(model, { similarity: true, coverage: false })).toBe(RELEVANCE_CALIBRATIONS.vector);
    expect(calibrationFor(model, { similarity: false, coverage: true })).toBe(RELEVANCE_CALIBRATIONS.keyword);
    expect(calibrationFor('hash-512', { similarity: true, coverage: true })).toBe(RELEVANCE_CALIBRATIONS.words);
  });
});

describe(calibratedRelevance.name, () => {
  const calibration = RELEVANCE_CALIBRATIONS.hybrid;

  it('should grow with each piece of evidence and stay within 0..1', () => {
    const weak = { relative: 0.2, similarity: 0.2, termCoverage: 0.1 };
    const score = calibratedRelevance(weak, calibration);
    expect(score).toBeGreaterThan(0);
    expect(calibratedRelevance({ ...weak, relative: 1 }, calibration)).toBeGreaterThan(score);
    expect(calibratedRelevance({ ...weak, similarity: 0.8 }, calibration)).toBeGreaterThan(score);
    expect(calibratedRelevance({ ...weak, termCoverage: 1 }, calibration)).toBeGreaterThan(score);
    expect(calibratedRelevance({ relative: 1, similarity: 1, termCoverage: 1 }, calibration)).toBeLessThan(1);
  });

  it('should not call the best API of a search a strong match for that alone', () => {
    // The first card is always relative 1; with nothing else in its favour it is no answer.
    expect(matchBand(calibratedRelevance({ relative: 1, similarity: 0.25, termCoverage: 0 }, calibration))).not.toBe('strong');
  });
});

describe(matchBand.name, () => {
  it('should put a score in the band whose line it reaches', () => {
    expect(matchBand(MATCH_THRESHOLDS.strong)).toBe('strong');
    expect(matchBand(MATCH_THRESHOLDS.strong - 0.01)).toBe('partial');
    expect(matchBand(MATCH_THRESHOLDS.partial)).toBe('partial');
    expect(matchBand(MATCH_THRESHOLDS.partial - 0.01)).toBe('weak');
  });
});
