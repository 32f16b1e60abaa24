import { ndcg, operationRecall, percentile, scoreRanking } from '../benchmarks/eval-metrics.js';

describe(scoreRanking.name, () => {
  const grades = { a: 2, b: 1, c: 2 };

  it('should score a perfect ranking 1 on every metric', () => {
    expect(scoreRanking(['a', 'c', 'b'], grades)).toEqual({ success1: 1, success5: 1, success10: 1, mrr10: 1, ndcg10: 1, recall10: 1 });
  });

  it('should count the first fully relevant API for success and MRR', () => {
    const metrics = scoreRanking(['x', 'b', 'y', 'z', 'w', 'c'], grades);
    expect(metrics).toMatchObject({ success1: 0, success5: 0, success10: 1, recall10: 0.5 });
    expect(metrics.mrr10).toBeCloseTo(1 / 6);
  });

  it('should score an empty ranking 0', () => {
    expect(scoreRanking([], grades)).toEqual({ success1: 0, success5: 0, success10: 0, mrr10: 0, ndcg10: 0, recall10: 0 });
  });
});

describe(ndcg.name, () => {
  it('should discount by log2(rank + 1) against the ideal order', () => {
    // DCG = 1/log2(2) + 3/log2(3); ideal = 3/log2(2) + 1/log2(3).
    expect(ndcg(['b', 'a'], { a: 2, b: 1 })).toBeCloseTo((1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)));
  });
});

describe(operationRecall.name, () => {
  it('should count gold operations among the first k endpoints', () => {
    expect(operationRecall(['GET /a', 'post /b', 'GET /c'], ['POST /b', 'GET /c'], 2)).toBe(0.5);
  });
});

describe(percentile.name, () => {
  it('should take the nearest rank', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
  });
});
