import { Injectable } from '@nestjs/common';
import { deliversEvents, groupByApi, schedulesWork, searchOperations } from '../api-cards.js';
import { byLifecycle, fuseApis, operationFit, rankApis, scaleSimilarities } from '../rank-fusion.js';
import { RANKING } from '../../ranking/ranking.config.js';
import { Params, type SearchSnapshot } from '../search-snapshot.js';
import type { RankedApi, RetrievedSearch, UnderstoodQuery } from './search-run.js';

/** APIs near the top whose operations are looked at for a need phrased as an event, or saying when. */
const INTENT_CANDIDATES = 100;

/**
 * Stage 3: one score per API from both retrievers, then the lifecycle (retired out, deprecated
 * lower); for a need phrased as an event, the APIs that deliver events higher, for one that says
 * when, those that schedule work; and the leaders by how well their best operations do what the
 * need asks (`bestOperationFits`).
 */
@Injectable()
export class Fusion {
  async fuse({ run, query, retrieved, snapshot }: RetrievedSearch): Promise<RankedApi[]> {
    const floorSpans = query.keywords ? RANKING.similarityFloorSpans : 0;
    const byVector = query.vector ? rankApis(scaleSimilarities(retrieved.nearest, retrieved.unseenChunks, floorSpans)) : undefined;
    const fused = fuseApis(byVector, run.mode !== 'vector' ? retrieved.apiKeywords : undefined, RANKING.fusion);
    const ranked = byLifecycle(fused, await endOfLife(snapshot), RANKING.deprecatedWeight);
    const leaders = ranked.slice(0, INTENT_CANDIDATES).map((api) => api.apiId);
    const events = query.event ? await apisWith(snapshot, leaders, deliversEvents) : new Set<string>();
    const schedules = query.schedule ? await apisWith(snapshot, leaders, schedulesWork) : new Set<string>();
    const fits = await bestOperationFits(snapshot, query, ranked.slice(0, RANKING.operationFit.apis));
    return ranked
      .map((api) => {
        const { eventApiWeight, scheduleApiWeight } = RANKING.intent;
        const weighted = api.score * (events.has(api.apiId) ? eventApiWeight : 1) * (schedules.has(api.apiId) ? scheduleApiWeight : 1);
        const score = weighted + RANKING.operationFit.weight * (fits.get(api.apiId) ?? 0);
        return { apiId: api.apiId, score, fused: score };
      })
      .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId));
  }
}

/**
 * How well the best operations of the leading APIs do what the need asks (`operationFit`, the
 * best of each API's `RANKING.operationFit.operations` operations nearest the need): "refund a
 * card payment" is answered by an RPC named `RefundPayment` before a REST API that shares the
 * words. Without a vector (keyword mode), none.
 */
export async function bestOperationFits(
  snapshot: SearchSnapshot,
  query: Pick<UnderstoodQuery, 'action' | 'vector' | 'event'>,
  leaders: { apiId: string }[],
): Promise<Map<string, number>> {
  const { action: need, vector, event } = query;
  if (!vector || leaders.length === 0 || (need.actions.length === 0 && need.words.size === 0)) return new Map();
  const ids = leaders.map((api) => api.apiId);
  const fits = new Map<string, number>();
  for (const [apiId, rows] of groupByApi(await searchOperations(snapshot, ids, { vector, events: event }))) {
    const nearest = rows.sort((a, b) => b.similarity - a.similarity).slice(0, RANKING.operationFit.operations);
    fits.set(apiId, Math.max(...nearest.map((operation) => operationFit(need, operation, 'ranking'))));
  }
  return fits;
}

/**
 * The org's APIs whose live version is deprecated or retired (a few, if any; the partial index
 * `api_indexing_status_lifecycle_idx` finds them): search leaves the retired out and ranks the
 * deprecated lower.
 */
export async function endOfLife(snapshot: SearchSnapshot): Promise<Map<string, 'deprecated' | 'retired'>> {
  const rows: { apiId: string; lifecycle: 'deprecated' | 'retired' }[] = await snapshot.manager.query(
    `SELECT api_id AS "apiId", lifecycle FROM platform_ai.api_indexing_status WHERE org_id = $1 AND lifecycle IN ('deprecated', 'retired') AND NOT deleted`,
    [snapshot.scope.orgId],
  );
  return new Map(rows.map((row) => [row.apiId, row.lifecycle]));
}

/** Those of these APIs with an operation the predicate holds for (`deliversEvents`, `schedulesWork`): for a need that asks for one. */
export async function apisWith(snapshot: SearchSnapshot, apiIds: string[], operation: (alias: string, params: Params) => string): Promise<Set<string>> {
  if (apiIds.length === 0) return new Set();
  const params = new Params();
  const ids = params.add(apiIds);
  const model = params.add(snapshot.scope.model);
  const holds = operation('c', params);
  const rows: { apiId: string }[] = await snapshot.manager.query(
    `SELECT DISTINCT c.api_id AS "apiId" FROM platform_ai.api_chunks c
     WHERE c.api_id = ANY(${ids}) AND c.level = 'L2' AND c.model = ${model}
       AND ${holds} ${await snapshot.live('c', params)}`,
    params.values,
  );
  return new Set(rows.map((row) => row.apiId));
}
