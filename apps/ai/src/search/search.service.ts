import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { AiConfig } from '#config';
import { type RelevanceEvidence, SEARCH_LIMITS, type SearchResponse, type SearchResult } from '#contracts';
import type { EmbeddingProvider } from '#embeddings';
import { truncate } from '#api-specs';
import { type ApiCard, type ChunkDetail, ChunkRetriever, type EndpointRow, type SearchScope } from './chunk-retriever.js';
import { AI_CONFIG } from '../ai.constants.js';
import { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';
import { englishWords } from './english-words.js';
import { buildKeywordQuery, type KeywordQuery } from './keyword-query.js';
import { RANKING } from './ranking.config.js';
import { calibratedRelevance, calibrationFor, matchBand, termCoverage } from './relevance.js';
import { SearchAdmission } from './search-admission.js';
import { SearchRepository } from './search.repository.js';
import { expandAbbreviations, namedOperations, nameWords, withoutRequestFraming } from './query-normalizer.js';
import {
  byLifecycle,
  type Candidate,
  combineScores,
  EVIDENCE_CHUNKS,
  type FusedChunk,
  fuseApis,
  MAX_CHUNK_SCORE,
  rankApis,
  rankEndpoints,
  type RankedApi,
  scaleSimilarities,
  unseenKeywordLeaders,
} from './rank-fusion.js';
import type { SearchRequestDto } from './search.dto.js';

const MATCHED_CHUNKS_PER_API = 3;
const SNIPPET_CHARS = 300;
const BROWSE_LIMIT = 1000;

/** Query embeddings kept (the same question is asked again and again). */
const QUERY_VECTOR_CACHE = 2000;
/** Whole answers kept, for a short time and only while the org's index is unchanged. */
const RESULT_CACHE = 500;
const RESULT_TTL_MS = 60_000;

@Injectable()
export class SearchService implements OnModuleInit {
  private readonly queryVectors = new LRUCache<string, number[]>({ max: QUERY_VECTOR_CACHE });
  private readonly results = new LRUCache<string, SearchResponse>({ max: RESULT_CACHE, ttl: RESULT_TTL_MS });

  constructor(
    private readonly repository: SearchRepository,
    private readonly models: EmbeddingModelsService,
    private readonly admission: SearchAdmission,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  /** The first search should not wait for the dictionary that tells typos from words. */
  onModuleInit(): void {
    englishWords();
  }

  /** One search, when admitted (see `SearchAdmission`): a flood is refused fast, not queued for ever. */
  search(request: SearchRequestDto): Promise<SearchResponse> {
    return this.admission.run(() => this.searchCached(request));
  }

  /**
   * Answers from the result cache when the same search was made since the org's index last
   * changed (any indexing, failure or deletion in the org changes its version).
   */
  private async searchCached(request: SearchRequestDto): Promise<SearchResponse> {
    const started = performance.now();
    // The active model: during a model switch, the old one until every API has the new one's vectors.
    const embeddings = await this.models.serving();
    const key = JSON.stringify([
      embeddings.modelId,
      await this.repository.indexVersion(request.orgId),
      request.orgId,
      request.query.trim(),
      request.filters ?? {},
      request.maxResults ?? null,
      request.maxEndpoints ?? null,
      request.mode ?? null,
    ]);
    const cached = this.results.get(key);
    if (cached) return { ...cached, queryEmbeddingMs: 0, searchMs: round(performance.now() - started, 1) };
    const response = await this.searchUncached(request, embeddings, started);
    this.results.set(key, response);
    return response;
  }

  private async searchUncached(request: SearchRequestDto, embeddings: EmbeddingProvider, started: number): Promise<SearchResponse> {
    const scope: SearchScope = {
      orgId: request.orgId,
      model: embeddings.modelId,
      dimensions: embeddings.dimensions,
      filters: request.filters ?? {},
    };
    const maxEndpoints = request.maxEndpoints ?? SEARCH_LIMITS.maxEndpoints.default;
    const query = request.query.trim();
    if (!query) return this.browse(scope, maxEndpoints, started);

    const mode = request.mode ?? 'hybrid';
    // "find me APIs that process payments": both searches look for "process payments".
    const expanded = expandAbbreviations(withoutRequestFraming(query));
    // Names as typed: a name that opened the need once the framing is gone is still one.
    const names = nameWords(query);
    const named = namedOperations(query);
    let queryEmbeddingMs = 0;
    const embedding = async (): Promise<number[] | undefined> => {
      if (mode === 'keyword') return undefined;
      const embedStarted = performance.now();
      const vectorKey = `${embeddings.modelId}\n${expanded}`;
      let vector = this.queryVectors.get(vectorKey);
      if (!vector) this.queryVectors.set(vectorKey, (vector = await embeddings.embedQuery(expanded)));
      queryEmbeddingMs = performance.now() - embedStarted;
      return vector;
    };
    // The query's terms are looked up while the model embeds it (on its own thread): typo
    // look-ups cost as much as the embedding. They read the lexicon outside the search's
    // transaction; an index change in between only shifts a word's rarity a little.
    const [vector, keywords] = await Promise.all([
      embedding(),
      mode !== 'vector' ? buildKeywordQuery(this.repository.manager, request.orgId, expanded, names, this.config.search) : undefined,
    ]);
    // Something to look up first ("Taylor Swift"), not an API or a term the specs know ("Stripe", "Word").
    const namesUnknownThing = keywords ? keywords.namesUnknownThing : names.size > 0;

    // One snapshot for the whole search, within its time budget (the caller has had its 503 by then).
    const settings = { efSearch: this.config.hnswEfSearch, timeoutMs: this.config.search.timeoutMs };
    return this.repository.inSnapshot(async (manager) => {
      const retriever = new ChunkRetriever(manager, scope);

      const maxResults = request.maxResults ?? SEARCH_LIMITS.maxResults.default;
      const vectorList = vector ? await retriever.vectorCandidates(vector, RANKING.candidatesPerRetriever) : [];
      const apiKeywords = keywords ? await retriever.apiKeywordScores(keywords) : [];
      // APIs the words rank high but the nearest chunks missed: how near they come still counts.
      const unseen = vector ? unseenKeywordLeaders(apiKeywords, vectorList, RANKING.unseenLeadersPerResult * maxResults) : [];
      const unseenChunks = vector ? await retriever.nearestChunksOf(vector, unseen, EVIDENCE_CHUNKS) : [];
      const floorSpans = keywords ? RANKING.similarityFloorSpans : 0;
      const ranked = byLifecycle(
        fuseApis(vector ? rankApis(scaleSimilarities(vectorList, unseenChunks, floorSpans)) : undefined, mode !== 'vector' ? apiKeywords : undefined, RANKING.fusion),
        await retriever.endOfLife(),
        RANKING.deprecatedWeight,
      );
      const top = ranked.slice(0, maxResults);
      const topIds = top.map((api) => api.apiId);
      const evidence = await this.evidenceOf(retriever, top, {
        vector,
        nearest: [...vectorList, ...unseenChunks],
        keywords: mode !== 'vector' ? { query: keywords } : undefined,
      });
      const calibration = calibrationFor(embeddings.modelId, { similarity: Boolean(vector), coverage: mode !== 'vector' });
      // What matched in each card's API, by both signals: only the cards' chunks need keyword scores.
      const keywordList = keywords ? await retriever.keywordCandidates(keywords, RANKING.candidatesPerRetriever, topIds) : [];
      const inTop = new Set(topIds);
      const matched = new Map(
        rankApis(combineScores(vectorList.filter((chunk) => inTop.has(chunk.apiId)), keywordList, RANKING.fusion)).map((api) => [api.apiId, api.chunks]),
      );

      const cards = await retriever.cards(topIds);
      const endpoints = groupByApi(await retriever.endpoints(topIds, { vector, keywords }));
      const details = await retriever.chunkDetails(topIds.flatMap((apiId) => (matched.get(apiId) ?? []).slice(0, MATCHED_CHUNKS_PER_API).map((c) => c.id)));

      const results = top.flatMap((api): SearchResult[] => {
        const card = cards.get(api.apiId);
        if (!card) return [];
        const operations = rankEndpoints(endpoints.get(api.apiId) ?? [], {
          vector: Boolean(vector),
          keyword: Boolean(keywords),
          namesUnknownThing,
          namedOperations: named,
        });
        const cardEvidence = evidence.get(api.apiId)!;
        const relevance = calibratedRelevance(cardEvidence, calibration);
        return [
          {
            ...cardFields(card),
            relevanceScore: round(relevance),
            match: matchBand(relevance),
            evidence: cardEvidence,
            endpoints: operations.slice(0, maxEndpoints).map(toEndpoint),
            matchedChunks: matchedChunks(matched.get(api.apiId) ?? [], details),
          },
        ];
      });
      return {
        results,
        totalFound: ranked.length,
        queryEmbeddingMs: round(queryEmbeddingMs, 1),
        searchMs: round(performance.now() - started, 1),
        ...(keywords?.warnings.length ? { warnings: keywords.warnings } : {}),
      };
    }, settings);
  }

  /**
   * What each card's relevance is estimated from (see `RelevanceEvidence`): its similarity is its
   * nearest chunk's, looked up for a card none of whose chunks the vector step saw.
   */
  private async evidenceOf(
    retriever: ChunkRetriever,
    top: RankedApi[],
    measured: { vector?: number[]; nearest: Candidate[]; keywords?: { query?: KeywordQuery } },
  ): Promise<Map<string, RelevanceEvidence>> {
    const similarity = new Map<string, number>();
    const { vector } = measured;
    if (vector) {
      const unseen = top.filter((api) => !measured.nearest.some((chunk) => chunk.apiId === api.apiId)).map((api) => api.apiId);
      for (const chunk of [...measured.nearest, ...(await retriever.nearestChunksOf(vector, unseen, 1))]) {
        similarity.set(chunk.apiId, Math.max(similarity.get(chunk.apiId) ?? -1, chunk.score));
      }
    }
    const query = measured.keywords?.query;
    const inOneChunk = query ? await retriever.bestChunkTermWeights(query, top.map((api) => api.apiId)) : new Map<string, number>();
    return new Map(
      top.map((api) => [
        api.apiId,
        {
          relative: round(Math.min(1, api.score)),
          ...(vector ? { similarity: round(similarity.get(api.apiId) ?? 0) } : {}),
          ...(measured.keywords ? { termCoverage: query ? round(termCoverage(query.terms, query.unknownWeight, inOneChunk.get(api.apiId) ?? 0)) : 0 } : {}),
        },
      ]),
    );
  }

  /** Empty query: every API that passes the filters, by name, with its first operations. */
  private async browse(scope: SearchScope, maxEndpoints: number, started: number): Promise<SearchResponse> {
    const { apis, endpoints } = await this.repository.inSnapshot(async (manager) => {
      const retriever = new ChunkRetriever(manager, scope);
      const apis = await retriever.allApis(BROWSE_LIMIT);
      return { apis, endpoints: groupByApi(await retriever.endpoints(apis.map((api) => api.apiId), { perApi: maxEndpoints })) };
    });
    return {
      results: apis.map((card) => ({
        ...cardFields(card),
        relevanceScore: 1,
        endpoints: (endpoints.get(card.apiId) ?? []).map(toEndpoint),
        matchedChunks: [],
      })),
      totalFound: apis.length,
      queryEmbeddingMs: 0,
      searchMs: round(performance.now() - started, 1),
    };
  }
}

function cardFields(card: ApiCard): Pick<SearchResult, 'apiId' | 'apiName' | 'version' | 'description' | 'teamName' | 'labels' | 'kind' | 'lifecycle' | 'sunsetDate' | 'versions'> {
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

function groupByApi(rows: EndpointRow[]): Map<string, EndpointRow[]> {
  const byApi = new Map<string, EndpointRow[]>();
  for (const row of rows) byApi.set(row.apiId, [...(byApi.get(row.apiId) ?? []), row]);
  return byApi;
}

function toEndpoint(row: EndpointRow): SearchResult['endpoints'][number] {
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

function round(value: number, digits = 4): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
