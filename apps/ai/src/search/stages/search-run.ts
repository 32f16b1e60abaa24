import type { RelevanceEvidence, SearchMode } from '#contracts';
import type { EmbeddingProvider } from '#embeddings';
import type { KeywordQuery } from '../keyword-query.js';
import type { NamedOperation } from '../../ranking/query-normalizer.js';
import type { NeedAction } from '../operation-actions.js';
import type { ApiKeywordScore, Candidate } from '../rank-fusion.js';
import type { SearchScope, SearchSnapshot } from '../search-snapshot.js';
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
  /** What the query says the things it names are ("directed by Sofia Coppola": a person). */
  namedTypes: string[];
  /** Phrased as wanting to be told of an event (`eventIntent`): "tell me when a parcel ships". */
  event: boolean;
  /** Says when something should happen (`scheduleIntent`): "every night at 2am", "after a delay". */
  schedule: boolean;
  /** What it asks to do, and of what (`needAction`): an event need asks to be told, whatever its verbs. */
  action: NeedAction;
  queryEmbeddingMs: number;
}

/**
 * One search as the stages after the first see it: each stage reads this context and what the
 * stages before it added (`RetrievedSearch`…), and the pipeline adds its answer for the next.
 */
export interface SearchContext {
  run: SearchRun;
  query: UnderstoodQuery;
  /** Where every stage's SQL runs, and what it may see. */
  snapshot: SearchSnapshot;
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

export interface RetrievedSearch extends SearchContext {
  retrieved: Retrieved;
}

/** An API in the ranking after fusion (stage 3) and learning from usage (stage 4). */
export interface RankedApi {
  apiId: string;
  /** What the ranking goes by. */
  score: number;
  /** The retrievers' fused score after the lifecycle and an event need's weight (about 0..1; the card's `evidence.relative` is it capped at 1). */
  fused: number;
}

export interface FusedSearch extends RetrievedSearch {
  fused: RankedApi[];
}

/** Stage 4 (`UsageLearning`): the ranking with what people chose for the same need. */
export interface LearnedRanking {
  ranked: RankedApi[];
  usage: UsageEvidence;
}

export interface LearnedSearch extends FusedSearch {
  learned: LearnedRanking;
}

/** A chunk's scores for the query's words (`chunkTermScores`). */
export interface ChunkTermScore extends Candidate {
  /** The query's share its terms in this chunk cover. */
  cover: number;
  /** Whether it holds a discriminating term of the query. */
  narrows: boolean;
}

/** Stage 5 (`Calibration`): the cards' APIs with their evidence and relevance, in the ranking's order. */
export interface Calibrated {
  top: CalibratedApi[];
  /** The top APIs' chunks that hold any of the query's words (none without keywords): what matched in them, by words. */
  termScores: ChunkTermScore[];
}

export interface CalibratedApi extends RankedApi {
  evidence: RelevanceEvidence;
  relevance: number;
}

export interface CalibratedSearch extends LearnedSearch {
  calibrated: Calibrated;
}
