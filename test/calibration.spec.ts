import { bandTable, crossValidated, fitCalibration, type JudgedCard, separation, trainingCards, withoutAnswers } from '../benchmarks/calibration.js';

/** Cards whose chance of being relevant is σ(−4 + 6·similarity), drawn with a fixed generator. */
function syntheticCards(count: number): JudgedCard[] {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: count }, (_, index) => {
    const similarity = random();
    const relevant = random() < 1 / (1 + Math.exp(-(-4 + 6 * similarity)));
    return { queryId: `q${index % 50}`, rank: index % 10, evidence: { relative: random(), similarity }, grade: relevant ? 2 : 0 };
  });
}

describe(fitCalibration.name, () => {
  it('should recover the coefficients the cards were drawn with', () => {
    const fit = fitCalibration(syntheticCards(20_000), ['relative', 'similarity']);
    expect(fit.intercept).toBeCloseTo(-4, 0);
    expect(fit.weights.similarity).toBeCloseTo(6, 0);
    expect(Math.abs(fit.weights.relative ?? 0)).toBeLessThan(0.3);
  });
});

describe(crossValidated.name, () => {
  it('should score every card by a fit that did not see its query', () => {
    const cards = syntheticCards(2000);
    const scores = crossValidated(cards, cards, ['similarity']);
    expect(scores).toHaveLength(cards.length);
    expect(scores.every((score) => score > 0 && score < 1)).toBe(true);
    expect(separation(cards, scores)).toBeGreaterThan(0.75);
  });
});

describe(withoutAnswers.name, () => {
  const card = (queryId: string, rank: number, relative: number, grade: number): JudgedCard => ({
    queryId,
    rank,
    evidence: { relative, similarity: 0.5 },
    grade,
  });

  it("should keep each search's irrelevant cards, ranked again and scored against the best of them", () => {
    const cards = [card('a', 0, 1, 2), card('a', 1, 0.8, 0), card('a', 2, 0.4, 1), card('a', 3, 0.2, 0), card('b', 0, 1, 0)];
    expect(withoutAnswers(cards)).toEqual([
      { ...card('a', 0, 1, 0), evidence: { relative: 1, similarity: 0.5 } },
      { ...card('a', 1, 0.25, 0), evidence: { relative: 0.25, similarity: 0.5 } },
      card('b', 0, 1, 0),
    ]);
  });

  it('should weigh the searches as they were above those without their answers', () => {
    const cards = [card('a', 0, 1, 2), card('a', 1, 0.5, 0)];
    expect(trainingCards(cards).map((c) => [c.grade, c.evidence.relative, c.weight])).toEqual([
      [2, 1, 2],
      [0, 0.5, 2],
      [0, 1, 1],
    ]);
  });
});

describe(separation.name, () => {
  const card = (grade: number): JudgedCard => ({ queryId: 'q', rank: 0, evidence: { relative: 1 }, grade });

  it('should be 1 when every relevant card outscores every irrelevant one, 0.5 for ties', () => {
    expect(separation([card(2), card(0)], [0.9, 0.1])).toBe(1);
    expect(separation([card(2), card(0)], [0.1, 0.9])).toBe(0);
    expect(separation([card(2), card(0)], [0.5, 0.5])).toBe(0.5);
  });
});

describe(bandTable.name, () => {
  it('should count the cards of each band and the share of them that is relevant', () => {
    const cards: JudgedCard[] = [2, 0, 1, 0].map((grade) => ({ queryId: 'q', rank: 0, evidence: { relative: 1 }, grade }));
    const [strong, partial, weak] = bandTable(cards, [0.9, 0.8, 0.3, 0.01]);
    expect(strong).toEqual({ band: 'strong', cards: 2, full: 0.5, partial: 0.5 });
    expect(partial).toEqual({ band: 'partial', cards: 1, full: 0, partial: 1 });
    expect(weak).toEqual({ band: 'weak', cards: 1, full: 0, partial: 0 });
  });
});
