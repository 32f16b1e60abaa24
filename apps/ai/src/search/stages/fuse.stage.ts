import { Injectable } from '@nestjs/common';
import type { ChunkRetriever } from '../chunk-retriever.js';
import { byLifecycle, fuseApis, rankApis, scaleSimilarities } from '../rank-fusion.js';
import { RANKING } from '../../ranking/ranking.config.js';
import type { RankedApi, Retrieved, SearchRun, UnderstoodQuery } from './search-run.js';

/** APIs near the top whose operations are looked at for a need phrased as an event. */
const EVENT_CANDIDATES = 100;

/**
 * Stage 3: one score per API from both retrievers, then the lifecycle (retired out, deprecated
 * lower) and, for a need phrased as an event, the APIs that deliver events higher.
 */
@Injectable()
export class Fusion {
  async fuse(run: SearchRun, query: UnderstoodQuery, retrieved: Retrieved, retriever: ChunkRetriever): Promise<RankedApi[]> {
    const floorSpans = query.keywords ? RANKING.similarityFloorSpans : 0;
    const byVector = query.vector ? rankApis(scaleSimilarities(retrieved.nearest, retrieved.unseenChunks, floorSpans)) : undefined;
    const ranked = byLifecycle(fuseApis(byVector, run.mode !== 'vector' ? retrieved.apiKeywords : undefined, RANKING.fusion), await retriever.endOfLife(), RANKING.deprecatedWeight);
    const events = query.event ? await retriever.deliveringEvents(ranked.slice(0, EVENT_CANDIDATES).map((api) => api.apiId)) : new Set<string>();
    return ranked
      .map((api) => {
        const score = events.has(api.apiId) ? api.score * RANKING.intent.eventApiWeight : api.score;
        return { apiId: api.apiId, score, fused: score };
      })
      .sort((a, b) => b.score - a.score || a.apiId.localeCompare(b.apiId));
  }
}
