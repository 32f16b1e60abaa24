import type { ChunkLevel } from '#contracts';
import { withProviders } from './endpoint-dependencies.js';
import { RANKING } from '../ranking/ranking.config.js';
import { isNamedPath, type NamedOperation } from '../ranking/query-normalizer.js';
import { SCHEDULING } from './query-intent.js';
import { actionFit, isNamedKind, type NeedAction, objectFit, objectKey, type OperationAction, operationAction } from './operation-actions.js';

/** A chunk found by one retriever; `score` is that retriever's own (similarity or text rank). */
export interface Candidate {
  id: string;
  apiId: string;
  level: ChunkLevel;
  score: number;
}

export interface FusedChunk {
  id: string;
  apiId: string;
  level: ChunkLevel;
  /** Weighted sum of the retrievers' scaled scores, 0..1. */
  score: number;
}

export interface ApiScore {
  apiId: string;
  score: number;
  /** The API's chunks, best first (after level weights). */
  chunks: FusedChunk[];
}

export interface FusionWeights {
  vector: number;
  keyword: number;
}

/** Chunks of one API that count towards its score (see `RANKING.evidenceWeights`). */
export const EVIDENCE_CHUNKS = RANKING.evidenceWeights.length;

/** The best a chunk can score after fusion and its level weight. */
export const MAX_CHUNK_SCORE = RANKING.levelWeights.L1;

/**
 * Score fusion: each list's scores scaled to 0..1 (cosine similarity by its range in this
 * result, keyword score by its best), summed with weights per chunk. Unlike reciprocal rank
 * fusion it keeps how far apart two candidates are (measured: nDCG@10 0.577 RRF vs 0.590).
 */
export function combineScores(vector: Candidate[], keyword: Candidate[], weights: FusionWeights): FusedChunk[] {
  const fused = new Map<string, FusedChunk>();
  const add = (list: Candidate[], weight: number, scale: (score: number) => number) => {
    for (const candidate of list) {
      const entry = fused.get(candidate.id) ?? { id: candidate.id, apiId: candidate.apiId, level: candidate.level, score: 0 };
      entry.score += weight * scale(candidate.score);
      fused.set(candidate.id, entry);
    }
  };
  add(scaleSimilarities(vector, [], 0), weights.vector, (score) => score);
  if (keyword.length > 0) {
    const max = Math.max(...keyword.map((c) => c.score));
    add(keyword, weights.keyword, (score) => (max > 0 ? score / max : 0));
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/**
 * Vector evidence for API ranking: each chunk's similarity scaled to 0..1, 1 at the nearest chunk
 * and 0 `floorSpans` of the nearest list's span below its last (see `RANKING.similarityFloorSpans`).
 * `others` are chunks of APIs the nearest list missed, measured on the same scale.
 */
export function scaleSimilarities(nearest: Candidate[], others: Candidate[], floorSpans: number): FusedChunk[] {
  if (nearest.length === 0) return [];
  const scores = nearest.map((chunk) => chunk.score);
  const [last, best] = [Math.min(...scores), Math.max(...scores)];
  const floor = last - floorSpans * (best - last);
  return [...nearest, ...others].map(({ id, apiId, level, score }) => ({
    id,
    apiId,
    level,
    score: best > floor ? Math.max(0, (score - floor) / (best - floor)) : 1,
  }));
}

/**
 * The `count` best APIs by keyword score that hold a discriminating query term, less those with
 * a chunk among the nearest: their vector evidence is worth measuring, not taking as none.
 */
export function unseenKeywordLeaders(keyword: ApiKeywordScore[], nearest: Candidate[], count: number): string[] {
  const seen = new Set(nearest.map((chunk) => chunk.apiId));
  return keyword
    .filter((api) => api.narrows)
    .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId))
    .slice(0, count)
    .map((api) => api.apiId)
    .filter((apiId) => !seen.has(apiId));
}

/** One score per API from its best few chunks (weighted by level), best API first. */
export function rankApis(fusedChunks: FusedChunk[]): ApiScore[] {
  const byApi = new Map<string, FusedChunk[]>();
  for (const chunk of fusedChunks) {
    const list = byApi.get(chunk.apiId) ?? [];
    list.push({ ...chunk, score: chunk.score * RANKING.levelWeights[chunk.level] });
    byApi.set(chunk.apiId, list);
  }
  return [...byApi.entries()]
    .map(([apiId, list]) => {
      const chunks = list.sort((a, b) => b.score - a.score);
      const score = RANKING.evidenceWeights.reduce((sum, weight, index) => sum + weight * (chunks[index]?.score ?? 0), 0);
      return { apiId, chunks, score };
    })
    .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId));
}

/** An API's keyword relevance (BM25 over all its words); `narrows` when it holds a discriminating query term. */
export interface ApiKeywordScore {
  apiId: string;
  score: number;
  narrows: boolean;
}

/** An API's place in the final ranking. */
export interface RankedApi {
  apiId: string;
  /** 0..1 */
  score: number;
}

/**
 * Final API ranking: the API's vector evidence (its best chunks, from `rankApis` over the vector
 * list alone) and its keyword relevance as a whole document, each divided by the best API's and
 * averaged. Measured against chunk-level fusion plus query coverage (`npm run eval`, 71 queries):
 * success@5 0.704 → 0.746, nDCG@10 0.617 → 0.628. The APIs are the vector candidates and those
 * whose keyword score narrows. A retriever that is off (`undefined`) leaves the other the whole
 * weight; one that ran and found nothing counts as no evidence: a query none of whose words the
 * org's specs use ("asdkjh qwezx", "the of and a") scores at most the vector weight, not 1.
 */
export function fuseApis(vectorApis: ApiScore[] | undefined, keyword: ApiKeywordScore[] | undefined, weights: FusionWeights): RankedApi[] {
  const vectorScore = new Map((vectorApis ?? []).map((api) => [api.apiId, api.score]));
  const keywordScore = new Map((keyword ?? []).filter((api) => api.narrows || vectorScore.has(api.apiId)).map((api) => [api.apiId, api.score]));
  const maxVector = Math.max(0, ...vectorScore.values());
  const maxKeyword = Math.max(0, ...keywordScore.values());
  const vectorWeight = keyword ? weights.vector : 1;
  const keywordWeight = vectorApis ? weights.keyword : 1;
  return [...new Set([...vectorScore.keys(), ...keywordScore.keys()])]
    .map((apiId) => ({
      apiId,
      score:
        (maxVector > 0 ? (vectorWeight * (vectorScore.get(apiId) ?? 0)) / maxVector : 0) +
        (maxKeyword > 0 ? (keywordWeight * (keywordScore.get(apiId) ?? 0)) / maxKeyword : 0),
    }))
    .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId));
}

/**
 * Search follows the lifecycle: a retired API is left out, and a deprecated one's score is scaled
 * by `deprecatedWeight`, so it ranks below an equally good API that is not.
 */
export function byLifecycle(ranked: RankedApi[], endOfLife: Map<string, 'deprecated' | 'retired'>, deprecatedWeight: number): RankedApi[] {
  if (endOfLife.size === 0) return ranked;
  return ranked
    .filter((api) => endOfLife.get(api.apiId) !== 'retired')
    .map((api) => (endOfLife.get(api.apiId) === 'deprecated' ? { ...api, score: api.score * deprecatedWeight } : api))
    .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId));
}

export interface EndpointCandidate {
  id: string;
  method: string;
  path: string;
  summary: string | null;
  operationId?: string | null;
  similarity: number;
  keyword: number;
  /** Whether it delivers events to its caller (looked up for a need phrased as an event). */
  deliversEvents?: boolean;
}

/**
 * Orders one API's operations by similarity and keyword score, each scaled to 0..1 within the
 * API, plus how well each does what the need asks (`operationFit`); with `namesUnknownThing`, its
 * search operations move up, the one for the kind of thing named first (`namedTypes`, see
 * `RANKING.endpoints`), for a need phrased as an `event` those that deliver events, for one that
 * says when (`schedule`) those that schedule work, and those people chose for the same need
 * (`chosen`); operations
 * whose path the query names (`namedOperations`) come first. The best operations are followed by
 * those that find the identifiers they need (`withProviders`).
 */
export function rankEndpoints<T extends EndpointCandidate>(
  rows: T[],
  signals: {
    vector: boolean;
    keyword: boolean;
    namesUnknownThing?: boolean;
    namedOperations?: NamedOperation[];
    chosen?: Map<string, number>;
    event?: boolean;
    /** What the need asks to do (`needAction`): operations that do it move up, those that do the opposite down. */
    action?: NeedAction;
    /** A need that says when (`scheduleIntent`). */
    schedule?: boolean;
    /** What the query says the things it names are (`namedThingTypes`): which search finds them. */
    namedTypes?: string[];
  },
): T[] {
  const similarities = rows.map((row) => row.similarity);
  const [min, max] = [Math.min(...similarities), Math.max(...similarities)];
  const maxKeyword = Math.max(0, ...rows.map((row) => row.keyword));
  const { keywordWeight: endpointKeywordWeight, lookupBoosts, typedLookupBoost, namedPathBoost, namedMethodBoost } = RANKING.endpoints;
  const vectorWeight = signals.keyword ? 1 - endpointKeywordWeight : 1;
  const keywordWeight = signals.vector ? endpointKeywordWeight : 1;
  // Each operation read as an action once (`operationAction` splits and singularises its name).
  const reads = signals.action || signals.namesUnknownThing ? new Map(rows.map((row) => [row, operationAction(row)])) : undefined;
  const scored = rows.map((row) => ({
    row,
    score:
      (signals.vector ? vectorWeight * (max > min ? (row.similarity - min) / (max - min) : 1) : 0) +
      (signals.keyword && maxKeyword > 0 ? keywordWeight * (row.keyword / maxKeyword) : 0),
  }));
  if (signals.action) for (const entry of scored) entry.score += operationFit(signals.action, entry.row, 'card', reads!.get(entry.row));
  if (signals.namesUnknownThing) {
    // "Directed by Sofia Coppola": the people search first, then the best other.
    const types = new Set((signals.namedTypes ?? []).map(objectKey));
    const finds = (row: T) => (reads!.get(row)!.objects.some((object) => types.has(object)) ? 1 : 0);
    const lookups = scored.filter(({ row }) => isSearchOperation(row)).sort((a, b) => finds(b.row) - finds(a.row) || b.score - a.score);
    lookupBoosts.forEach((boost, index) => {
      if (lookups[index]) lookups[index].score += boost + (finds(lookups[index].row) ? typedLookupBoost : 0);
    });
  }
  // "Tell me when a customer registers": the channel that says so, not the call that registers one.
  if (signals.event) for (const entry of scored) if (entry.row.deliversEvents) entry.score += RANKING.intent.eventOperationBoost;
  // "Run the report every night at 2am": the operation that schedules it.
  if (signals.schedule) for (const entry of scored) if (schedulesWork(entry.row)) entry.score += RANKING.intent.scheduleOperationBoost;
  // What people chose for the same need (`usageEvidence`: -1..1 per `METHOD path`).
  for (const entry of scored) entry.score += RANKING.feedback.operationBoost * (signals.chosen?.get(`${entry.row.method} ${entry.row.path}`) ?? 0);
  for (const entry of scored) {
    const named = signals.namedOperations?.filter((operation) => isNamedPath(entry.row.path, operation.path)) ?? [];
    if (named.length === 0) continue;
    entry.score += namedPathBoost + (named.some((operation) => operation.method === entry.row.method.toUpperCase()) ? namedMethodBoost : 0);
  }
  return withProviders(scored.sort((a, b) => b.score - a.score || b.row.similarity - a.row.similarity).map(({ row }) => row));
}

/**
 * What an operation gains (or loses) for doing what the need asks (`actionFit`) to what it names
 * (`objectFit`); the name of an RPC method, GraphQL field, MCP tool or AsyncAPI channel says it
 * more precisely than a REST summary, so its object counts more (`RANKING.endpoints.action`).
 */
export function operationFit(
  need: NeedAction,
  operation: EndpointCandidate,
  within: 'card' | 'ranking' = 'card',
  read: OperationAction = operationAction(operation),
): number {
  const { actionWeight, objectWeight, namedObjectWeight } = RANKING.endpoints.action;
  const objects = isNamedKind(operation.method) ? namedObjectWeight : objectWeight;
  // "Without deleting it": its object is named so as not to act on it that way.
  const avoided = read.action !== undefined && need.avoid?.includes(read.action);
  return actionWeight * actionFit(need, read, within) + (avoided ? 0 : objects * objectFit(need, read));
}

const SCHEDULES = new RegExp(SCHEDULING, 'i');

/** Whether the operation schedules, delays or queues work, by its path, summary or operationId (as `api-cards.ts` `schedulesWork` in SQL). */
export function schedulesWork(operation: Pick<EndpointCandidate, 'path' | 'summary' | 'operationId'>): boolean {
  return SCHEDULES.test(`${operation.path} ${operation.summary ?? ''} ${operation.operationId ?? ''}`);
}

/** An operation that finds things by what the caller knows of them: `GET /search/movie`, "Search for an item". */
export function isSearchOperation(operation: Pick<EndpointCandidate, 'method' | 'path' | 'summary'>): boolean {
  const method = operation.method.toUpperCase();
  if (method !== 'GET' && method !== 'POST') return false;
  return /\/search(\/|$)/i.test(operation.path) || /^search\b/i.test(operation.summary ?? '');
}
