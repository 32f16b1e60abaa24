import { needAction } from './operation-actions.js';
import { type Candidate, combineScores, fuseApis, isSearchOperation, rankApis, rankEndpoints, scaleSimilarities, unseenKeywordLeaders } from './rank-fusion.js';

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
    // "b": vector 0.5 × (0.8 − 0.2) / (0.9 − 0.2) = 0.4286 (min-max over the nearest) + keyword 0.5 × 3 / 3 = 0.5 (over the best keyword score).
    expect(fused[0].score).toBeCloseTo(0.9286, 4);
  });

  it('should use whichever list is there when the other retriever is off', () => {
    expect(combineScores([], [candidate('a', 'x', 2), candidate('b', 'y', 1)], weights).map((c) => c.score)).toEqual([0.5, 0.25]);
    expect(combineScores([candidate('a', 'x', 0.4)], [], weights)[0].score).toBe(0.5);
  });
});

describe(scaleSimilarities.name, () => {
  const nearest = [candidate('a', 'x', 0.8), candidate('b', 'y', 0.7), candidate('c', 'z', 0.6)];

  it('should give the nearest chunk 1 and the last of the nearest half with 0 one span below it', () => {
    expect(scaleSimilarities(nearest, [], 1).map((chunk) => chunk.score)).toEqual([1, expect.closeTo(0.75), expect.closeTo(0.5)]);
  });

  it('should give the last of the nearest 0 with 0 spans (min-max)', () => {
    expect(scaleSimilarities(nearest, [], 0).map((chunk) => chunk.score)).toEqual([1, expect.closeTo(0.5), 0]);
  });

  it('should measure chunks of APIs the nearest list missed on the same scale, never below 0', () => {
    const scaled = scaleSimilarities(nearest, [candidate('d', 'w', 0.5), candidate('e', 'v', 0.1)], 1);
    expect(scaled.slice(3).map((chunk) => chunk.score)).toEqual([expect.closeTo(0.25), 0]);
  });

  it('should give 1 to chunks as near as the nearest when all are equally near, and nothing without a list', () => {
    expect(scaleSimilarities([candidate('a', 'x', 0.4), candidate('b', 'y', 0.4)], [], 1).map((chunk) => chunk.score)).toEqual([1, 1]);
    expect(scaleSimilarities([], [candidate('a', 'x', 0.4)], 1)).toEqual([]);
  });
});

describe(unseenKeywordLeaders.name, () => {
  const keyword = (apiId: string, score: number, narrows = true) => ({ apiId, score, narrows });

  it('should take the best APIs by their words that narrow, less those the nearest chunks hold', () => {
    const leaders = unseenKeywordLeaders(
      [keyword('low', 1), keyword('seen', 9), keyword('common', 8, false), keyword('high', 7), keyword('mid', 3)],
      [candidate('s1', 'seen', 0.9)],
      3,
    );
    expect(leaders).toEqual(['high', 'mid']);
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
    expect(fuseApis(undefined, [keyword('a', 2), keyword('b', 4)], weights).map((api) => [api.apiId, api.score])).toEqual([
      ['b', 1],
      ['a', 0.5],
    ]);
    expect(fuseApis(vectorApis, undefined, weights)[0]).toMatchObject({ apiId: 'x', score: 1 });
  });

  it('should count a retriever that found nothing as no evidence, so the scores stay low', () => {
    const fused = fuseApis(vectorApis, [], weights);
    expect(fused.map((api) => api.apiId)).toEqual(['x', 'y', 'z']);
    expect(fused[0].score).toBe(0.5);
    for (const api of fused) expect(api.score).toBeLessThanOrEqual(0.5);
  });
});

describe(rankEndpoints.name, () => {
  const operation = (id: string, method: string, path: string, similarity: number, keyword: number, summary: string | null = null) => ({
    id,
    method,
    path,
    summary,
    similarity,
    keyword,
  });
  const rows = [
    operation('get', 'GET', '/pets/{id}', 0.9, 0),
    operation('post', 'POST', '/pets', 0.8, 0.5),
    operation('delete', 'DELETE', '/pets/{id}', 0.1, 0),
  ];
  const ids = (ranked: { id: string }[]) => ranked.map((row) => row.id);

  it('should put an operation that both signals like first', () => {
    expect(ids(rankEndpoints(rows, { vector: true, keyword: true }))).toEqual(['post', 'get', 'delete']);
  });

  it("should follow an operation with the one that finds its path's identifier", () => {
    const withList = [...rows, operation('list', 'GET', '/pets', 0.05, 0)];
    expect(ids(rankEndpoints(withList, { vector: true, keyword: true }))).toEqual(['post', 'get', 'list', 'delete']);
  });

  it('should put first the operations whose path the query names, the named method before the others', () => {
    const charges = [
      operation('dispute', 'GET', '/v1/charges/{charge}/dispute', 0.9, 1),
      operation('list', 'GET', '/v1/charges', 0.8, 0.9),
      operation('create', 'POST', '/v1/charges', 0.7, 0.8),
      operation('one', 'GET', '/v1/charges/{charge}', 0.85, 0.9),
    ];
    expect(ids(rankEndpoints(charges, { vector: true, keyword: true, namedOperations: [{ method: 'GET', path: '/v1/charges' }] }))).toEqual([
      'list',
      'create',
      'dispute',
      'one',
    ]);
    expect(ids(rankEndpoints(charges, { vector: true, keyword: true, namedOperations: [{ path: '/v1/charges/ch_123' }] }))[0]).toBe('one');
  });

  it('should use only similarity when keyword search is off', () => {
    expect(ids(rankEndpoints(rows, { vector: true, keyword: false }))).toEqual(['get', 'post', 'delete']);
  });

  describe('when the need says what to do', () => {
    const subscriptions = [
      operation('resume', 'RPC', 'pubsub.Subscriber/ResumeSubscription', 0.9, 1),
      operation('delete', 'RPC', 'pubsub.Subscriber/DeleteSubscription', 0.85, 0.9),
      operation('pause', 'RPC', 'pubsub.Subscriber/PauseSubscription', 0.8, 0.8),
      operation('list', 'RPC', 'pubsub.Subscriber/ListSubscriptions', 0.7, 0.7),
    ];

    it('should put the operation that does it first, its opposite below a neighbour, and the one it says not to do last', () => {
      const action = needAction('pause a subscription for a while without deleting it');
      expect(ids(rankEndpoints(subscriptions, { vector: true, keyword: true, action }))).toEqual(['pause', 'list', 'resume', 'delete']);
    });

    it('should leave the order to the scores when the need says no action', () => {
      const action = needAction('the subscriptions of a topic');
      expect(ids(rankEndpoints(subscriptions, { vector: true, keyword: true, action }))[0]).toBe('resume');
    });
  });

  describe('when the query names something', () => {
    const withLookups = [
      ...rows,
      operation('search-movie', 'GET', '/search/movie', 0.3, 0.1),
      operation('search-tv', 'GET', '/search/tv', 0.2, 0),
      operation('find', 'POST', '/graphql', 0.15, 0, 'Search for an item'),
    ];

    it("should move the API's two best search operations up", () => {
      expect(ids(rankEndpoints(withLookups, { vector: true, keyword: true, namesUnknownThing: true }))).toEqual([
        'post',
        'search-movie',
        'search-tv',
        'get',
        'find',
        'delete',
      ]);
    });

    it('should move the search for the kind of thing named first', () => {
      const typed = [...withLookups, operation('search-person', 'GET', '/search/person', 0.1, 0, 'Search People')];
      expect(ids(rankEndpoints(typed, { vector: true, keyword: true, namesUnknownThing: true, namedTypes: ['person'] }))[0]).toBe('search-person');
    });

    it('should leave search operations where they are otherwise', () => {
      expect(ids(rankEndpoints(withLookups, { vector: true, keyword: true }))).toEqual(['post', 'get', 'search-movie', 'search-tv', 'find', 'delete']);
    });
  });
});

describe(isSearchOperation.name, () => {
  it.each([
    ['GET', '/search', null, true],
    ['GET', '/v1/search/movie', null, true],
    ['POST', '/query', 'Search for items', true],
    ['DELETE', '/search/{id}', null, false],
    ['GET', '/research/papers', 'Researchers and their papers', false],
  ])('%s %s (%p) → %p', (method, path, summary, expected) => {
    expect(isSearchOperation({ method, path, summary })).toBe(expected);
  });
});
