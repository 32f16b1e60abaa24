import { Injectable } from '@nestjs/common';
import { deliversEvents } from '../api-cards.js';
import { byLifecycle, fuseApis, rankApis, scaleSimilarities } from '../rank-fusion.js';
import { RANKING } from '../../ranking/ranking.config.js';
import { Params, type SearchSnapshot } from '../search-snapshot.js';
import type { RankedApi, RetrievedSearch } from './search-run.js';

/** APIs near the top whose operations are looked at for a need phrased as an event. */
const EVENT_CANDIDATES = 100;

/**
 * Stage 3: one score per API from both retrievers, then the lifecycle (retired out, deprecated
 * lower) and, for a need phrased as an event, the APIs that deliver events higher.
 */
@Injectable()
export class Fusion {
  async fuse({ run, query, retrieved, snapshot }: RetrievedSearch): Promise<RankedApi[]> {
    const floorSpans = query.keywords ? RANKING.similarityFloorSpans : 0;
    const byVector = query.vector ? rankApis(scaleSimilarities(retrieved.nearest, retrieved.unseenChunks, floorSpans)) : undefined;
    const fused = fuseApis(byVector, run.mode !== 'vector' ? retrieved.apiKeywords : undefined, RANKING.fusion);
    const ranked = byLifecycle(fused, await endOfLife(snapshot), RANKING.deprecatedWeight);
    const events = query.event
      ? await deliveringEvents(
          snapshot,
          ranked.slice(0, EVENT_CANDIDATES).map((api) => api.apiId),
        )
      : new Set<string>();
    return ranked
      .map((api) => {
        const score = events.has(api.apiId) ? api.score * RANKING.intent.eventApiWeight : api.score;
        return { apiId: api.apiId, score, fused: score };
      })
      .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId));
  }
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

/** Those of these APIs with an operation that delivers events (see `EVENT_DELIVERY`): for a need phrased as an event. */
export async function deliveringEvents(snapshot: SearchSnapshot, apiIds: string[]): Promise<Set<string>> {
  if (apiIds.length === 0) return new Set();
  const params = new Params();
  const ids = params.add(apiIds);
  const model = params.add(snapshot.scope.model);
  const events = deliversEvents('c', params);
  const rows: { apiId: string }[] = await snapshot.manager.query(
    `SELECT DISTINCT c.api_id AS "apiId" FROM platform_ai.api_chunks c
     WHERE c.api_id = ANY(${ids}) AND c.level = 'L2' AND c.model = ${model}
       AND ${events} ${await snapshot.live('c', params)}`,
    params.values,
  );
  return new Set(rows.map((row) => row.apiId));
}
