export type ChunkLevel = 'L1' | 'L2' | 'L3';

/** Retrieval strategies; `hybrid` is the product default, the others exist for evaluation. */
export const SEARCH_MODES = ['hybrid', 'vector', 'keyword'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface SearchFilters {
  teamNames?: string[];
  tags?: string[];
  methods?: string[];
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

export interface SearchResult {
  apiId: string;
  apiName: string;
  version: string;
  description?: string;
  teamName?: string;
  /** 0..1: the API's vector and keyword evidence, each relative to the best API of this search, averaged. */
  relevanceScore: number;
  endpoints: EndpointMatch[];
  matchedChunks: ChunkMatch[];
}

export interface SearchResponse {
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
} as const;
