import { type Candidate, fuseRankings, maxApiScore, rankApis, rankEndpoints, RRF_K } from './rank-fusion.js';

const candidate = (id: string, apiId: string): Candidate => ({ id, apiId, level: 'L2', score: 0 });

describe(fuseRankings.name, () => {
  it('should rank a chunk found by both retrievers above chunks found by one', () => {
    const fused = fuseRankings([
      [candidate('a', 'x'), candidate('b', 'y')],
      [candidate('c', 'z'), candidate('b', 'y')],
    ]);
    expect(fused[0].id).toBe('b');
    expect(fused[0].score).toBeCloseTo(2 / (RRF_K + 2));
  });
});

describe(rankApis.name, () => {
  it('should give one entry per API and count extra matching chunks as evidence', () => {
    const fused = fuseRankings([[candidate('a1', 'a'), candidate('b1', 'b'), candidate('b2', 'b')]]);
    const apis = rankApis(fused);
    expect(apis.map((api) => api.apiId)).toEqual(['b', 'a']);
    expect(apis[0].chunks.map((chunk) => chunk.id)).toEqual(['b1', 'b2']);
  });

  it('should never score above the maximum used for normalisation', () => {
    const lists = [0, 1].map(() => [candidate('1', 'a'), candidate('2', 'a'), candidate('3', 'a'), candidate('4', 'a')]);
    const [top] = rankApis(fuseRankings(lists));
    expect(top.score).toBeCloseTo(maxApiScore(2));
  });
});

describe(rankEndpoints.name, () => {
  const rows = [
    { id: 'get', similarity: 0.9, keyword: 0 },
    { id: 'post', similarity: 0.8, keyword: 0.5 },
    { id: 'delete', similarity: 0.1, keyword: 0 },
  ];

  it('should put an operation that both signals like first', () => {
    expect(rankEndpoints(rows, true, true).map((row) => row.id)).toEqual(['post', 'get', 'delete']);
  });

  it('should use only similarity when keyword search is off', () => {
    expect(rankEndpoints(rows, true, false).map((row) => row.id)).toEqual(['get', 'post', 'delete']);
  });
});
