import { type Candidate, combineScores, fuseApis, rankApis, rankEndpoints } from './rank-fusion.js';

const candidate = (id: string, apiId: string, score: number, level: Candidate['level'] = 'L2'): Candidate => ({ id, apiId, level, score });
const weights = { vector: 0.5, keyword: 0.5 };

describe(combineScores.name, () => {
  it('should rank a chunk found by both retrievers above chunks found by one', () => {
    const fused = combineScores(
      [candidate('a', 'x', 0.9), candidate('b', 'y', 0.8), candidate('c', 'z', 0.2)],
      [candidate('b', 'y', 3), candidate('d', 'w', 1)],
      weights,
    );
    expect(fused.map((chunk) => chunk.id)).toEqual(['b', 'a', 'd', 'c']);
    expect(fused[0].score).toBeCloseTo(0.5 * (0.6 / 0.7) + 0.5);
  });

  it('should use whichever list is there when the other retriever is off', () => {
    expect(combineScores([], [candidate('a', 'x', 2), candidate('b', 'y', 1)], weights).map((c) => c.score)).toEqual([0.5, 0.25]);
    expect(combineScores([candidate('a', 'x', 0.4)], [], weights)[0].score).toBe(0.5);
  });
});

describe(rankApis.name, () => {
  it('should give one entry per API and count extra matching chunks as evidence', () => {
    const fused = combineScores([candidate('a1', 'a', 0.9), candidate('b1', 'b', 0.85), candidate('b2', 'b', 0.8), candidate('z', 'z', 0.1)], [], weights);
    const apis = rankApis(fused);
    expect(apis.map((api) => api.apiId)).toEqual(['b', 'a', 'z']);
    expect(apis[0].chunks.map((chunk) => chunk.id)).toEqual(['b1', 'b2']);
  });

  it('should weigh an L1 match above an equal operation match, and a schema match below', () => {
    const fused = combineScores([candidate('op', 'ops', 0.5, 'L2'), candidate('api', 'about', 0.5, 'L1'), candidate('s', 'schema', 0.5, 'L3')], [], weights);
    expect(rankApis(fused).map((api) => api.apiId)).toEqual(['about', 'ops', 'schema']);
  });
});

describe(fuseApis.name, () => {
  const vectorApis = rankApis(combineScores([candidate('x1', 'x', 0.9), candidate('y1', 'y', 0.85), candidate('z1', 'z', 0.1)], [], weights));
  const keyword = (apiId: string, score: number, narrows = true) => ({ apiId, score, narrows });

  it('should rank an API that both signals like above one only the vectors like best', () => {
    const fused = fuseApis(vectorApis, [keyword('y', 8), keyword('x', 1)], weights);
    expect(fused.map((api) => api.apiId)).toEqual(['y', 'x', 'z']);
    expect(fused[0].score).toBeLessThanOrEqual(1);
  });

  it('should add APIs found only by their words when a discriminating word matched', () => {
    const fused = fuseApis(vectorApis, [keyword('w', 10), keyword('x', 5), keyword('common', 10, false)], weights);
    expect(fused.map((api) => api.apiId)).toEqual(['x', 'w', 'y', 'z']);
  });

  it('should rank by whichever signal is there when the other retriever is off', () => {
    expect(fuseApis([], [keyword('a', 2), keyword('b', 4)], weights).map((api) => [api.apiId, api.score])).toEqual([['b', 1], ['a', 0.5]]);
    expect(fuseApis(vectorApis, [], weights)[0]).toMatchObject({ apiId: 'x', score: 1 });
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
