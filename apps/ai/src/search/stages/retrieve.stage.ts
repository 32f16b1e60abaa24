import { Injectable } from '@nestjs/common';
import type { KeywordQuery } from '../keyword-query.js';
import { nearestChunksOf } from '../nearest-chunks.js';
import { type ApiKeywordScore, type Candidate, EVIDENCE_CHUNKS, unseenKeywordLeaders } from '../rank-fusion.js';
import { RANKING } from '../../ranking/ranking.config.js';
import { Params, type SearchSnapshot, toCandidate } from '../search-snapshot.js';
import { liveApi } from '../../scope/live.js';
import type { Retrieved, SearchContext } from './search-run.js';

/** Stage 2: candidates by meaning (nearest chunks) and by words (APIs by BM25). */
@Injectable()
export class Retrieval {
  async retrieve({ run, query, snapshot }: SearchContext): Promise<Retrieved> {
    const { vector, keywords } = query;
    const nearest = vector ? await vectorCandidates(snapshot, vector, RANKING.candidatesPerRetriever) : [];
    const apiKeywords = keywords ? await apiKeywordScores(snapshot, keywords) : [];
    // APIs the words rank high but the nearest chunks missed: how near they come still counts.
    const unseen = vector ? unseenKeywordLeaders(apiKeywords, nearest, RANKING.unseenLeadersPerResult * run.maxResults) : [];
    const unseenChunks = vector ? await nearestChunksOf(snapshot, vector, unseen, EVIDENCE_CHUNKS) : [];
    return { nearest, apiKeywords, unseenChunks };
  }
}

/**
 * The `limit` chunks nearest the query: through the HNSW index, or by exact distance when the
 * filters leave fewer chunks than the index would scan to find `limit` of theirs. The index
 * filters after it scans: for a tag on 2 APIs of 585 it scanned 20k chunks (its
 * `hnsw.max_scan_tuples`) in 3.8 s and still came back short; the exact scan of their 197
 * chunks took 20 ms. (Measured on PGlite: both take ≈ 45 ms at 4k chunks of 27k.)
 */
export async function vectorCandidates(snapshot: SearchSnapshot, vector: number[], limit: number): Promise<Candidate[]> {
  const params = new Params();
  const filtered = await snapshot.filteredApis();
  const distance = snapshot.distanceTo(vector, params);
  const scannedByIndex = filtered ? (limit * filtered.orgChunkCount) / Math.max(1, filtered.chunkCount) : 0;
  const exact = filtered !== undefined && filtered.chunkCount <= scannedByIndex;
  const visible = await snapshot.visible(params);
  // "+ 0": an order the index cannot produce, so the planner reads the filtered chunks instead.
  const rows = await snapshot.manager.query(
    `SELECT c.id, c.api_id AS "apiId", c.level, 1 - (${distance}) AS score
     FROM platform_ai.api_chunks c
     WHERE ${visible}
     ORDER BY ${exact ? `(${distance}) + 0` : distance}
     LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows.map(toCandidate);
}

/**
 * Keyword relevance of whole APIs: BM25 with each API's words (all its chunks) as one document,
 * for every visible API holding a query term; `narrows` when it holds a discriminating one.
 */
export async function apiKeywordScores(snapshot: SearchSnapshot, query: KeywordQuery): Promise<ApiKeywordScore[]> {
  const params = new Params();
  const org = params.add(snapshot.scope.orgId);
  const terms = params.add(query.terms.map((term) => term.lexeme));
  const scales = params.add(query.terms.map((term) => (term.family ? RANKING.wordFamilies.weight : 1)));
  const roots = params.add(query.terms.map((term) => term.root));
  const filtered = await snapshot.filteredApis();
  const { k1, b } = RANKING.bm25;
  const rows: { apiId: string; score: string; narrows: boolean }[] = await snapshot.manager.query(
    `WITH apis AS (
       SELECT count(*) AS n, avg(term_count) AS average_length FROM platform_ai.api_indexing_status
       WHERE org_id = ${org} AND ${liveApi()}
     ), rarity AS (
       SELECT a.lexeme, ln(1 + (apis.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf
       FROM platform_ai.api_terms a, apis WHERE a.org_id = ${org} AND a.lexeme = ANY(${terms}) GROUP BY a.lexeme, apis.n
     )
     SELECT "apiId", sum(best) AS score, bool_or(narrows) AS narrows FROM (
       SELECT a.api_id AS "apiId",
         max(least(q.scale * r.idf, coalesce(typed.idf, r.idf)) * a.occurrences * ${k1 + 1}
           / (a.occurrences + ${k1} * (1 - ${b} + ${b} * s.term_count / apis.average_length))) AS best,
         bool_or(a.lexeme = ANY(${params.add(query.matchTerms)})) AS narrows
       FROM platform_ai.api_terms a
       JOIN unnest(${terms}::text[], ${scales}::float8[], ${roots}::text[]) AS q(lexeme, scale, root) ON q.lexeme = a.lexeme
       JOIN rarity r ON r.lexeme = a.lexeme
       -- A family word counts no more than the typed word it stands beside (when the org has that word).
       LEFT JOIN rarity typed ON typed.lexeme = q.root
       JOIN platform_ai.api_indexing_status s ON s.api_id = a.api_id, apis
       WHERE a.org_id = ${org} AND a.lexeme = ANY(${terms})
         ${filtered ? `AND a.api_id = ANY(${params.add(filtered.apiIds)})` : ''}
       GROUP BY a.api_id, q.root
     ) roots GROUP BY "apiId"`,
    params.values,
  );
  return rows.map((row) => ({ apiId: row.apiId, score: Number(row.score), narrows: row.narrows }));
}
