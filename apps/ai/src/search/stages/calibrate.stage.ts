import { Injectable } from '@nestjs/common';
import type { ChunkLevel } from '#contracts';
import type { KeywordQuery } from '../keyword-query.js';
import { nearestChunksOf } from '../nearest-chunks.js';
import { calibratedRelevance, calibrationFor, inRankingOrder, termCoverage } from '../relevance.js';
import { Params, type SearchSnapshot } from '../search-snapshot.js';
import type { Calibrated, CalibratedApi, ChunkTermScore, LearnedSearch, RankedApi } from './search-run.js';
import { round } from '../../ranking/rounding.js';

/**
 * Stage 5: each card's evidence (see `RelevanceEvidence`) and the chance that it answers the query,
 * never above the card before it. Its similarity is its nearest chunk's, looked up for a card none
 * of whose chunks the vector step saw.
 */
@Injectable()
export class Calibration {
  async calibrate(search: LearnedSearch): Promise<Calibrated> {
    const { run, query, learned, snapshot } = search;
    const { vector, keywords } = query;
    const top = learned.ranked.slice(0, run.maxResults);
    const similarity = vector ? await similarities(search, top) : new Map<string, number>();
    const coverage = run.mode !== 'vector';
    const termScores = keywords
      ? await chunkTermScores(
          snapshot,
          keywords,
          top.map((api) => api.apiId),
        )
      : [];
    const inOneChunk = bestChunkTermWeights(termScores);
    const calibration = calibrationFor(run.embeddings.modelId, { similarity: Boolean(vector), coverage });
    const cards = top.map((api) => {
      const feedback = learned.usage.apis.get(api.apiId);
      const evidence: CalibratedApi['evidence'] = {
        relative: round(Math.min(1, api.fused)),
        ...(vector ? { similarity: round(similarity.get(api.apiId) ?? 0) } : {}),
        ...(coverage ? { termCoverage: keywords ? round(termCoverage(keywords.terms, keywords.unknownWeight, inOneChunk.get(api.apiId) ?? 0)) : 0 } : {}),
        ...(feedback ? { feedback } : {}),
      };
      return { ...api, evidence, relevance: calibratedRelevance(evidence, calibration) };
    });
    const ordered = inRankingOrder(cards.map((card) => card.relevance));
    return { top: cards.map((card, index) => ({ ...card, relevance: ordered[index] })), termScores };
  }
}

/** Each API's similarity: its nearest chunk's, among those retrieved or else looked up. */
async function similarities({ query, retrieved, snapshot }: LearnedSearch, top: RankedApi[]): Promise<Map<string, number>> {
  const similarity = new Map<string, number>();
  const nearest = [...retrieved.nearest, ...retrieved.unseenChunks];
  const seen = new Set(nearest.map((chunk) => chunk.apiId));
  const unseen = top.filter((api) => !seen.has(api.apiId)).map((api) => api.apiId);
  for (const chunk of [...nearest, ...(await nearestChunksOf(snapshot, query.vector!, unseen, 1))]) {
    similarity.set(chunk.apiId, Math.max(similarity.get(chunk.apiId) ?? -1, chunk.score));
  }
  return similarity;
}

/**
 * Per API, the most rarity weight of the query's terms that one of its chunks holds: how much
 * of the query a single operation (or schema, or the API's overview) speaks to. A large spec
 * holds most common words somewhere; "create", "github" and "issue" in one operation is another matter.
 */
export function bestChunkTermWeights(termScores: ChunkTermScore[]): Map<string, number> {
  const best = new Map<string, number>();
  for (const chunk of termScores) best.set(chunk.apiId, Math.max(best.get(chunk.apiId) ?? 0, chunk.cover));
  return best;
}

/**
 * The query's scores of these APIs' chunks that hold any of its terms: each query word counts in
 * its best form, by rank (`score`: the sum of rarity weight × rank) and by presence (`cover`: the
 * sum of its share of the query). Read once a search for the cards' APIs, in one pass over their
 * postings, for what calibration, the matched chunks and the operations' keyword scores each take of it.
 */
export async function chunkTermScores(snapshot: SearchSnapshot, query: KeywordQuery, apiIds: string[]): Promise<ChunkTermScore[]> {
  if (apiIds.length === 0) return [];
  const params = new Params();
  const narrowing = params.add(query.matchTerms);
  const terms = termTable(query, params);
  const visible = await snapshot.visible(params, 'p');
  const rows: { id: string; apiId: string; level: ChunkLevel; score: string; cover: string; narrows: boolean }[] = await snapshot.manager.query(
    `SELECT id, "apiId", level, sum(best) AS score, sum(cover) AS cover, bool_or(narrows) AS narrows FROM (
       SELECT p.chunk_id AS id, p.api_id AS "apiId", p.level, max(t.weight * p.rank) AS best, max(t.cover) AS cover,
         bool_or(p.lexeme = ANY(${narrowing})) AS narrows
       FROM platform_ai.chunk_terms p JOIN ${terms} ON t.lexeme = p.lexeme
       WHERE ${visible}
         AND p.api_id = ANY(${params.add(apiIds)}) AND p.lexeme = ANY(${params.add(query.terms.map((term) => term.lexeme))})
       GROUP BY p.chunk_id, p.api_id, p.level, t.root
     ) roots
     GROUP BY id, "apiId", level`,
    params.values,
  );
  return rows.map((row) => ({ id: row.id, apiId: row.apiId, level: row.level, score: Number(row.score), cover: Number(row.cover), narrows: row.narrows }));
}

/** The query's terms as a table `t(lexeme, weight, root, cover)` (see `KeywordTerm`). */
function termTable(query: KeywordQuery, params: Params): string {
  const column = <T>(values: T[], type: string) => `${params.add(values)}::${type}[]`;
  const { terms } = query;
  const columns = [
    column(
      terms.map((term) => term.lexeme),
      'text',
    ),
    column(
      terms.map((term) => term.weight),
      'float8',
    ),
    column(
      terms.map((term) => term.root),
      'text',
    ),
    column(
      terms.map((term) => term.cover),
      'float8',
    ),
  ];
  return `unnest(${columns.join(', ')}) AS t(lexeme, weight, root, cover)`;
}
