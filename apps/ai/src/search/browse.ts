import type { SearchResponse } from '#contracts';
import { type ApiCard, cardFields, groupByApi, LIVE_CARDS, operations, toEndpoint } from './api-cards.js';
import { Params, type SearchSnapshot } from './search-snapshot.js';

const BROWSE_LIMIT = 1000;

/** Empty query: every API that passes the filters, by name, with its first operations. */
export async function browse(snapshot: SearchSnapshot, maxEndpoints: number): Promise<Omit<SearchResponse, 'searchId' | 'searchMs'>> {
  const apis = await allApis(snapshot, BROWSE_LIMIT);
  const endpoints = groupByApi(
    await operations(
      snapshot,
      apis.map((api) => api.apiId),
      { perApi: maxEndpoints },
    ),
  );
  return {
    results: apis.map((card) => ({
      ...cardFields(card),
      relevanceScore: 1,
      endpoints: (endpoints.get(card.apiId) ?? []).map(toEndpoint),
      matchedChunks: [],
    })),
    totalFound: apis.length,
    queryEmbeddingMs: 0,
  };
}

/** Every visible API, by name. */
export async function allApis(snapshot: SearchSnapshot, limit: number): Promise<ApiCard[]> {
  const params = new Params();
  return snapshot.manager.query(
    `${LIVE_CARDS}
     WHERE s.api_id IN (${await snapshot.allowedApis(params)})
     ORDER BY lower(p.name), p.version, s.api_id
     LIMIT ${params.add(limit)}`,
    params.values,
  );
}
