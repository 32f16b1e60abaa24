import type { RelevanceEvidence, SearchMode } from '#contracts';
import type { EmbeddingProvider } from '#embeddings';
import type { SearchScope } from '../chunk-retriever.js';
import type { KeywordQuery } from '../keyword-query.js';
import type { NamedOperation } from '../../ranking/query-normalizer.js';
import type { ApiKeywordScore, Candidate } from '../rank-fusion.js';
import type { UsageEvidence } from '../usage-evidence.js';

/** What every stage of one search may read: the request as validated, and what it searches. */
export interface SearchRun {
  scope: SearchScope;
  embeddings: EmbeddingProvider;
  /** The query as typed, trimmed (not empty: an empty query browses). */
  query: string;
  mode: SearchMode;
  maxResults: number;
  maxEndpoints: number;
  /** Whether the org has ever had feedback (else learning from usage has nothing to read). */
  hasFeedback: boolean;
}

/** Stage 1 (`QueryUnderstanding`): the need's vector and weighted words, and what it names. */
export interface UnderstoodQuery {
  /** Operations the query names by path ("GET /v1/charges"). */
  namedOperations: NamedOperation[];
  /** Absent in keyword mode. */
  vector?: number[];
  /** Absent in vector mode, or when no word of the query is one the index can look up. */
  keywords?: KeywordQuery;
  /** Something to look up first ("Taylor Swift"), not an API or a term the specs know. */
  namesUnknownThing: boolean;
  /** Phrased as wanting to be told of an event (`eventIntent`): "tell me when a parcel ships". */
  event: boolean;
  queryEmbeddingMs: number;
}

/** Stage 2 (`Retrieval`): candidates of each retriever. */
export interface Retrieved {
  /** The chunks nearest the query's vector. */
  nearest: Candidate[];
  /** APIs by keyword relevance (BM25 of all their words). */
  apiKeywords: ApiKeywordScore[];
  /** The nearest chunks of keyword leaders that `nearest` missed. */
  unseenChunks: Candidate[];
}

/** An API in the ranking after fusion (stage 3) and learning from usage (stage 4). */
export interface RankedApi {
  apiId: string;
  /** What the ranking goes by. */
  score: number;
  /** The retrievers' fused score after the lifecycle and an event need's weight (about 0..1; the card's `evidence.relative` is it capped at 1). */
  fused: number;
}

/** Stage 4 (`UsageLearning`): the ranking with what people chose for the same need. */
export interface LearnedRanking {
  ranked: RankedApi[];
  usage: UsageEvidence;
}

/** Stage 5 (`Calibration`): each card's evidence and relevance, in the ranking's order. */
export interface CalibratedApi extends RankedApi {
  evidence: RelevanceEvidence;
  relevance: number;
}
