import { REGISTRATION_LIMITS } from './api-record.js';
import type { FeedbackEvidence } from './feedback.js';
import type { LifecycleStage, VersionSummary } from './versions.js';

export type ChunkLevel = 'L1' | 'L2' | 'L3';

/** Retrieval strategies; `hybrid` is the product default, the others exist for evaluation. */
export const SEARCH_MODES = ['hybrid', 'vector', 'keyword'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface SearchFilters {
  teamNames?: string[];
  tags?: string[];
  /** Upper case verbs: HTTP methods, and `PUBLISH`, `QUERY`, `RPC`… of other kinds (see `ApiModel`). */
  methods?: string[];
  /** API kinds: `openapi`, `asyncapi`, `graphql`, `grpc`. */
  kinds?: string[];
  /**
   * Labels an API must carry, every one (AND across keys): keys as given (lower case by rule),
   * values in any case.
   */
  labels?: Record<string, string>;
  /** Stages of the API's recommended version (`production`, `preview`…). A retired API is never returned, whatever the filter. */
  lifecycle?: LifecycleStage[];
}

export interface SearchRequest {
  query: string;
  orgId: string;
  maxResults?: number;
  maxEndpoints?: number;
  filters?: SearchFilters;
  mode?: SearchMode;
}

export interface ChunkMatch {
  chunkId: string;
  level: ChunkLevel;
  title: string;
  snippet: string;
  method?: string;
  path?: string;
  operationId?: string;
  score: number;
}

export interface EndpointMatch {
  method: string;
  path: string;
  summary?: string;
}

/** How well a card answers the query: `relevanceScore` against the lines in the ranking config. */
export const MATCH_BANDS = ['strong', 'partial', 'weak'] as const;
export type MatchBand = (typeof MATCH_BANDS)[number];

/** What a card's `relevanceScore` is computed from. */
export interface RelevanceEvidence {
  /** The API's fused vector and keyword evidence relative to the best API of this search, 0..1. */
  relative: number;
  /** Cosine similarity of the API's chunk nearest the query (absent when the query was not embedded). */
  similarity?: number;
  /**
   * Share of the query's words (weighted by rarity) that the API's one chunk holding most of
   * them holds, 0..1: an operation, a schema or its overview (absent in vector mode).
   */
  termCoverage?: number;
  /** What people of the org chose for the same need (absent when none did). */
  feedback?: FeedbackEvidence;
}

export interface SearchResult {
  apiId: string;
  apiName: string;
  version: string;
  description?: string;
  teamName?: string;
  /** The API's labels (of its live indexed revision); `{}` when none. */
  labels: Record<string, string>;
  /** Which kind of API (`openapi`, `asyncapi`, `graphql`, `grpc`): how to read its endpoints' method and path. */
  kind: string;
  /** The stage of `version`, the API's recommended version (the one search holds); a deprecated API ranks below an equally good one. */
  lifecycle: LifecycleStage;
  /** When `version` is deprecated with a sunset date: `YYYY-MM-DD`. */
  sunsetDate?: string;
  /** The API's versions that are not retired, newest release first. */
  versions: VersionSummary[];
  /**
   * 0..1: the estimated chance that this API answers the query, calibrated on judged searches,
   * so it means the same across queries and orgs (1 when browsing with an empty query).
   */
  relevanceScore: number;
  /** `relevanceScore` in words; absent when browsing with an empty query. */
  match?: MatchBand;
  evidence?: RelevanceEvidence;
  endpoints: EndpointMatch[];
  matchedChunks: ChunkMatch[];
}

export interface SearchResponse {
  /** Names this answer in feedback (`POST /api-management/ai/feedback`) for FEEDBACK_WINDOW_DAYS days. */
  searchId: string;
  results: SearchResult[];
  totalFound: number;
  queryEmbeddingMs: number;
  searchMs: number;
  /** What the search limits left out of the query (SEARCH_MAX_TERMS, SEARCH_MAX_TYPO_WORDS), in words. */
  warnings?: string[];
}

export const SEARCH_LIMITS = {
  maxResults: { min: 1, max: 50, default: 10 },
  maxEndpoints: { min: 1, max: 50, default: 5 },
  queryMaxLength: 1000,
  /** A tag a filter may name; longer ones are left out of the index and its facets. */
  tagMaxChars: 200,
  /** A team name a filter may name: as long as a registration's. */
  teamNameMaxChars: REGISTRATION_LIMITS.teamNameMaxChars,
  /** How many values each list of `SearchFilters` may hold. */
  filterMaxItems: { teamNames: 50, tags: 50, methods: 20, kinds: 10 },
} as const;
