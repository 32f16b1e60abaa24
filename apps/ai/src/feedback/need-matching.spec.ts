import { backgroundOf, type CalibrationSet, fitNeedMatching, needMatch, normalised } from './need-matching.js';

const SETTINGS = { neighbours: 2, falseMatchRate: 0, minRecall: 0.5 };
/** 3 domains × 2 needs × 3 phrasings. */
const SET: CalibrationSet = ['a', 'b', 'c'].map((domain) => ({
  domain,
  needs: [0, 1].map((need) => [0, 1, 2].map((phrasing) => `${domain}${need}${phrasing}`)),
}));
const DIMENSIONS = 16;

/** A vector per phrasing: a shared direction (needs in general), its domain's, its need's, and a little of its own. */
function vectors(needWeight: number): number[][] {
  const axis = (index: number) => Array.from({ length: DIMENSIONS }, (_, i) => (i === index ? 1 : 0));
  const out: number[][] = [];
  SET.forEach((domain, d) =>
    domain.needs.forEach((need, n) =>
      need.forEach((_, p) => {
        const parts = [axis(0), axis(1 + d), axis(4 + d * 2 + n), axis(10 + ((d * 6 + n * 3 + p) % 6))];
        const weights = [1.2, 0.6, needWeight, 0.35];
        out.push(Array.from({ length: DIMENSIONS }, (_, i) => parts.reduce((sum, part, k) => sum + weights[k] * part[i], 0)));
      }),
    ),
  );
  return out;
}

describe('need matching', () => {
  it('should take off what both needs share with needs in general', () => {
    expect(needMatch(0.6, 0.3, 0.5)).toBeCloseTo(0.2, 10);
    const references = [
      [1, 0],
      [0, 1],
      [1, 1],
    ].map(normalised);
    expect(backgroundOf(normalised([1, 0]), references, 2)).toBeCloseTo((1 + Math.SQRT1_2) / 2, 6);
    expect(backgroundOf(normalised([1, 0]), references, 2, (index) => index === 0)).toBeCloseTo(Math.SQRT1_2 / 2, 6);
  });

  it('should fit a threshold that no pair of different needs reaches, and match the paraphrases of a model that tells them apart', async () => {
    const fit = await fitNeedMatching('clear', SET, vectors(1), SETTINGS);
    expect(fit.pairs).toEqual({ same: 18, different: 135 });
    expect(fit.falseMatchRate).toBe(0);
    expect(fit.sameDomainFalseMatchRate).toBe(0);
    expect(fit.recall).toBe(1);
    expect(fit).toMatchObject({ paraphrases: true, neighbours: 2 });
    expect(fit.references).toHaveLength(18);
  });

  it('should learn from the same need only with a model whose paraphrases are no nearer than other needs of their domain', async () => {
    const fit = await fitNeedMatching('blurred', SET, vectors(0), SETTINGS);
    expect(fit.falseMatchRate).toBe(0);
    expect(fit.recall).toBeLessThan(0.5);
    expect(fit.paraphrases).toBe(false);
    expect(fit.reason).toMatch(/votes count for the same need only/);
  });

  it('should name a fit by its model, set and settings, and refuse vectors that do not fit the set', async () => {
    const version = (await fitNeedMatching('clear', SET, vectors(1), SETTINGS)).version;
    expect((await fitNeedMatching('other', SET, vectors(1), SETTINGS)).version).not.toBe(version);
    expect((await fitNeedMatching('clear', SET, vectors(1), { ...SETTINGS, neighbours: 3 })).version).not.toBe(version);
    await expect(fitNeedMatching('clear', SET, vectors(1).slice(1), SETTINGS)).rejects.toThrow(/17 vectors for 18 phrasings/);
  });
});
