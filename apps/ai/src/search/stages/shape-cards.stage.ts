import { Injectable } from '@nestjs/common';
import type { SearchResult } from '#contracts';
import { truncate } from '#api-specs';
import type { ApiCard, ChunkDetail, ChunkRetriever, EndpointRow } from '../chunk-retriever.js';
import { combineScores, type FusedChunk, MAX_CHUNK_SCORE, rankApis, rankEndpoints } from '../rank-fusion.js';
import { RANKING } from '../../ranking/ranking.config.js';
import { matchBand } from '../relevance.js';
import type { UsageEvidence } from '../usage-evidence.js';
import type { CalibratedApi, Retrieved, SearchRun, UnderstoodQuery } from './search-run.js';
import { round } from '../../ranking/rounding.js';

const MATCHED_CHUNKS_PER_API = 3;
const SNIPPET_CHARS = 300;

/** Stage 6: the cards, each with its best operations and the chunks that matched. */
@Injectable()
export class CardShaping {
  async shape(run: SearchRun, query: UnderstoodQuery, top: CalibratedApi[], retrieved: Retrieved, usage: UsageEvidence, retriever: ChunkRetriever): Promise<SearchResult[]> {
    const { vector, keywords } = query;
    const topIds = top.map((api) => api.apiId);
    // What matched in each card's API, by both signals: only the cards' chunks need keyword scores.
    const keywordList = keywords ? await retriever.keywordCandidates(keywords, RANKING.candidatesPerRetriever, topIds) : [];
    const inTop = new Set(topIds);
    const matched = new Map(
      rankApis(combineScores(retrieved.nearest.filter((chunk) => inTop.has(chunk.apiId)), keywordList, RANKING.fusion)).map((api) => [api.apiId, api.chunks]),
    );
    const cards = await retriever.cards(topIds);
    const endpoints = groupByApi(await retriever.endpoints(topIds, { vector, keywords, events: query.event }));
    const details = await retriever.chunkDetails(topIds.flatMap((apiId) => (matched.get(apiId) ?? []).slice(0, MATCHED_CHUNKS_PER_API).map((chunk) => chunk.id)));

    return top.flatMap((api): SearchResult[] => {
      const card = cards.get(api.apiId);
      if (!card) return [];
      const operations = rankEndpoints(endpoints.get(api.apiId) ?? [], {
        vector: Boolean(vector),
        keyword: Boolean(keywords),
        namesUnknownThing: query.namesUnknownThing,
        namedOperations: query.namedOperations,
        chosen: usage.operations.get(api.apiId),
        event: query.event,
      });
      return [
        {
          ...cardFields(card),
          relevanceScore: round(api.relevance),
          match: matchBand(api.relevance),
          evidence: api.evidence,
          endpoints: operations.slice(0, run.maxEndpoints).map(toEndpoint),
          matchedChunks: matchedChunks(matched.get(api.apiId) ?? [], details),
        },
      ];
    });
  }
}

export function cardFields(card: ApiCard): Pick<SearchResult, 'apiId' | 'apiName' | 'version' | 'description' | 'teamName' | 'labels' | 'kind' | 'lifecycle' | 'sunsetDate' | 'versions'> {
  return {
    apiId: card.apiId,
    apiName: card.name,
    version: card.version,
    ...(card.description ? { description: card.description } : {}),
    ...(card.teamName ? { teamName: card.teamName } : {}),
    labels: card.labels ?? {},
    kind: card.kind,
    lifecycle: card.lifecycle,
    ...(card.sunsetDate ? { sunsetDate: card.sunsetDate } : {}),
    // Revisions indexed before versions existed: the API had the one.
    versions: card.versions?.length ? card.versions : [{ version: card.version, lifecycle: card.lifecycle }],
  };
}

export function groupByApi(rows: EndpointRow[]): Map<string, EndpointRow[]> {
  const byApi = new Map<string, EndpointRow[]>();
  for (const row of rows) byApi.set(row.apiId, [...(byApi.get(row.apiId) ?? []), row]);
  return byApi;
}

export function toEndpoint(row: EndpointRow): SearchResult['endpoints'][number] {
  return { method: row.method, path: row.path, ...(row.summary ? { summary: row.summary } : {}) };
}

function matchedChunks(chunks: FusedChunk[], details: Map<string, ChunkDetail>): SearchResult['matchedChunks'] {
  return chunks.slice(0, MATCHED_CHUNKS_PER_API).flatMap((chunk) => {
    const detail = details.get(chunk.id);
    if (!detail) return [];
    return [
      {
        chunkId: detail.id,
        level: detail.level,
        title: detail.title,
        snippet: truncate(detail.content, SNIPPET_CHARS),
        ...(detail.method ? { method: detail.method } : {}),
        ...(detail.path ? { path: detail.path } : {}),
        ...(detail.operationId ? { operationId: detail.operationId } : {}),
        score: round(Math.min(1, chunk.score / MAX_CHUNK_SCORE)),
      },
    ];
  });
}
