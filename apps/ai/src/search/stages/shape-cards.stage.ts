import { Injectable } from '@nestjs/common';
import type { ChunkLevel, SearchResult } from '#contracts';
import { truncate } from '#api-specs';
import { cardFields, cards, groupByApi, searchOperations, toEndpoint } from '../api-cards.js';
import { type Candidate, combineScores, type FusedChunk, MAX_CHUNK_SCORE, rankApis, rankEndpoints } from '../rank-fusion.js';
import { RANKING } from '../../ranking/ranking.config.js';
import { matchBand } from '../relevance.js';
import type { SearchSnapshot } from '../search-snapshot.js';
import type { CalibratedSearch, ChunkTermScore } from './search-run.js';
import { round } from '../../ranking/rounding.js';

const MATCHED_CHUNKS_PER_API = 3;
const SNIPPET_CHARS = 300;

/** A chunk as a card's matched chunk shows it. */
export interface ChunkDetail {
  id: string;
  apiId: string;
  level: ChunkLevel;
  title: string;
  content: string;
  method: string | null;
  path: string | null;
  operationId: string | null;
}

/** Stage 6: the cards, each with its best operations and the chunks that matched. */
@Injectable()
export class CardShaping {
  async shape({ run, query, retrieved, learned, calibrated, snapshot }: CalibratedSearch): Promise<SearchResult[]> {
    const { vector, keywords } = query;
    const { top, termScores } = calibrated;
    const topIds = top.map((api) => api.apiId);
    // What matched in each card's API, by both signals: only the cards' chunks need keyword scores.
    const keywordList = keywords ? keywordCandidates(termScores, RANKING.candidatesPerRetriever) : [];
    const inTop = new Set(topIds);
    const matched = new Map(
      rankApis(
        combineScores(
          retrieved.nearest.filter((chunk) => inTop.has(chunk.apiId)),
          keywordList,
          RANKING.fusion,
        ),
      ).map((api) => [api.apiId, api.chunks]),
    );
    const facts = await cards(snapshot, topIds);
    // The operations' keyword scores: from the cards' postings, read once (a large spec has hundreds of operations).
    const keywordScores = keywords ? new Map(termScores.map((chunk) => [chunk.id, chunk.score])) : undefined;
    const endpoints = groupByApi(await searchOperations(snapshot, topIds, { vector, keywordScores, events: query.event }));
    const shownChunks = topIds.flatMap((apiId) => (matched.get(apiId) ?? []).slice(0, MATCHED_CHUNKS_PER_API).map((chunk) => chunk.id));
    const details = await chunkDetails(snapshot, shownChunks);

    return top.flatMap((api): SearchResult[] => {
      const card = facts.get(api.apiId);
      if (!card) return [];
      const ranked = rankEndpoints(endpoints.get(api.apiId) ?? [], {
        vector: Boolean(vector),
        keyword: Boolean(keywords),
        namesUnknownThing: query.namesUnknownThing,
        namedOperations: query.namedOperations,
        chosen: learned.usage.operations.get(api.apiId),
        event: query.event,
        schedule: query.schedule,
        action: query.action,
        namedTypes: query.namedTypes,
      });
      return [
        {
          ...cardFields(card),
          relevanceScore: round(api.relevance),
          match: matchBand(api.relevance),
          evidence: api.evidence,
          endpoints: ranked.slice(0, run.maxEndpoints).map(toEndpoint),
          matchedChunks: matchedChunks(matched.get(api.apiId) ?? [], details),
        },
      ];
    });
  }
}

/** The cards' chunks holding any of the query's discriminating terms, by the rarity-weighted sum of their terms' ranks (each query word's best form). */
export function keywordCandidates(termScores: ChunkTermScore[], limit: number): Candidate[] {
  return termScores
    .filter((chunk) => chunk.narrows)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit)
    .map(({ id, apiId, level, score }) => ({ id, apiId, level, score }));
}

export async function chunkDetails(snapshot: SearchSnapshot, ids: string[]): Promise<Map<string, ChunkDetail>> {
  if (ids.length === 0) return new Map();
  const rows: ChunkDetail[] = await snapshot.manager.query(
    `SELECT id, api_id AS "apiId", level, title, content, method, path, operation_id AS "operationId"
     FROM platform_ai.api_chunks WHERE id = ANY($1)`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
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
