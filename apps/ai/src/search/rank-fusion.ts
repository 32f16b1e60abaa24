import type { ChunkLevel } from '#contracts';

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
  /** Reciprocal-rank-fusion score over the lists that found it. */
  score: number;
}

export interface ApiScore {
  apiId: string;
  score: number;
  /** The API's fused chunks, best first. */
  chunks: FusedChunk[];
}

export const RRF_K = 60;

/** Weights of an API's 1st, 2nd, 3rd… best chunk: more than one matching chunk is more evidence. */
const EVIDENCE_WEIGHTS = [1, 0.35, 0.15];

/** Reciprocal rank fusion: each list adds 1 / (k + rank) for every chunk it ranks. */
export function fuseRankings(lists: Candidate[][], k = RRF_K): FusedChunk[] {
  const fused = new Map<string, FusedChunk>();
  for (const list of lists) {
    list.forEach((candidate, index) => {
      const entry = fused.get(candidate.id) ?? { id: candidate.id, apiId: candidate.apiId, level: candidate.level, score: 0 };
      entry.score += 1 / (k + index + 1);
      fused.set(candidate.id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/** One score per API from its best few chunks, best API first. */
export function rankApis(chunks: FusedChunk[]): ApiScore[] {
  const byApi = new Map<string, FusedChunk[]>();
  for (const chunk of chunks) {
    const list = byApi.get(chunk.apiId) ?? [];
    list.push(chunk);
    byApi.set(chunk.apiId, list);
  }
  return [...byApi.entries()]
    .map(([apiId, list]) => ({
      apiId,
      chunks: list,
      score: EVIDENCE_WEIGHTS.reduce((sum, weight, index) => sum + weight * (list[index]?.score ?? 0), 0),
    }))
    .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId));
}

/** The best score an API can reach when `listCount` lists all rank its chunks first. */
export function maxApiScore(listCount: number, k = RRF_K): number {
  const perRank = (rank: number) => listCount / (k + rank);
  return EVIDENCE_WEIGHTS.reduce((sum, weight, index) => sum + weight * perRank(index + 1), 0);
}

export interface EndpointCandidate {
  id: string;
  similarity: number;
  keyword: number;
}

/** Orders one API's operations by fusing their vector and keyword ranks within that API. */
export function rankEndpoints<T extends EndpointCandidate>(rows: T[], useVector: boolean, useKeyword: boolean, k = 10): T[] {
  const score = new Map<string, number>(rows.map((row) => [row.id, 0]));
  const addRanks = (sorted: T[]) => sorted.forEach((row, index) => score.set(row.id, score.get(row.id)! + 1 / (k + index + 1)));
  if (useVector) addRanks([...rows].sort((a, b) => b.similarity - a.similarity));
  if (useKeyword) addRanks([...rows].filter((row) => row.keyword > 0).sort((a, b) => b.keyword - a.keyword));
  return [...rows].sort((a, b) => score.get(b.id)! - score.get(a.id)! || b.similarity - a.similarity);
}

export interface ScoreWeights {
  vector: number;
  keyword: number;
}

/**
 * Score fusion: each list's scores scaled to 0..1 (cosine similarity by its range in this
 * result, keyword score by its best), summed with weights per chunk, then per API as in
 * `rankApis`. Unlike rank fusion it keeps how far apart two candidates are.
 */
export function combineScores(vector: Candidate[], keyword: Candidate[], weights: ScoreWeights): FusedChunk[] {
  const fused = new Map<string, FusedChunk>();
  const add = (list: Candidate[], weight: number, scale: (score: number) => number) => {
    for (const candidate of list) {
      const entry = fused.get(candidate.id) ?? { id: candidate.id, apiId: candidate.apiId, level: candidate.level, score: 0 };
      entry.score += weight * scale(candidate.score);
      fused.set(candidate.id, entry);
    }
  };
  if (vector.length > 0) {
    const scores = vector.map((c) => c.score);
    const [min, max] = [Math.min(...scores), Math.max(...scores)];
    add(vector, weights.vector, (score) => (max > min ? (score - min) / (max - min) : 1));
  }
  if (keyword.length > 0) {
    const max = Math.max(...keyword.map((c) => c.score));
    add(keyword, weights.keyword, (score) => (max > 0 ? score / max : 0));
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
