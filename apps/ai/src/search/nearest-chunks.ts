import type { Candidate } from './rank-fusion.js';
import { Params, type SearchSnapshot, toCandidate } from './search-snapshot.js';

/**
 * Each of these APIs' `perApi` chunks nearest the query, by exact distance: for APIs that
 * `vectorCandidates` (approximate, and limited to the nearest few hundred chunks) did not reach.
 * Retrieval reads them for keyword leaders, calibration for the cards' similarity.
 */
export async function nearestChunksOf(snapshot: SearchSnapshot, vector: number[], apiIds: string[], perApi: number): Promise<Candidate[]> {
  if (apiIds.length === 0) return [];
  const params = new Params();
  const distance = snapshot.distanceTo(vector, params);
  const visible = await snapshot.visible(params);
  const rows = await snapshot.manager.query(
    `SELECT id, "apiId", level, score FROM (
       SELECT c.id, c.api_id AS "apiId", c.level, 1 - (${distance}) AS score,
         row_number() OVER (PARTITION BY c.api_id ORDER BY ${distance}, c.id) AS nearness
       FROM platform_ai.api_chunks c
       WHERE ${visible} AND c.api_id = ANY(${params.add(apiIds)})
     ) nearest
     WHERE nearness <= ${params.add(perApi)}`,
    params.values,
  );
  return rows.map(toCandidate);
}
