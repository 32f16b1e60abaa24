import { Injectable } from '@nestjs/common';
import type { ChunkRetriever } from '../chunk-retriever.js';
import { calibratedRelevance, calibrationFor, inRankingOrder, termCoverage } from '../relevance.js';
import type { UsageEvidence } from '../usage-evidence.js';
import type { CalibratedApi, RankedApi, Retrieved, SearchRun, UnderstoodQuery } from './search-run.js';
import { round } from '../../ranking/rounding.js';

/**
 * Stage 5: each card's evidence (see `RelevanceEvidence`) and the chance that it answers the query,
 * never above the card before it. Its similarity is its nearest chunk's, looked up for a card none
 * of whose chunks the vector step saw.
 */
@Injectable()
export class Calibration {
  async calibrate(run: SearchRun, query: UnderstoodQuery, top: RankedApi[], retrieved: Retrieved, usage: UsageEvidence, retriever: ChunkRetriever): Promise<CalibratedApi[]> {
    const { vector, keywords } = query;
    const similarity = new Map<string, number>();
    if (vector) {
      const nearest = [...retrieved.nearest, ...retrieved.unseenChunks];
      const seen = new Set(nearest.map((chunk) => chunk.apiId));
      const unseen = top.filter((api) => !seen.has(api.apiId)).map((api) => api.apiId);
      for (const chunk of [...nearest, ...(await retriever.nearestChunksOf(vector, unseen, 1))]) {
        similarity.set(chunk.apiId, Math.max(similarity.get(chunk.apiId) ?? -1, chunk.score));
      }
    }
    const coverage = run.mode !== 'vector';
    const inOneChunk = keywords ? await retriever.bestChunkTermWeights(keywords, top.map((api) => api.apiId)) : new Map<string, number>();
    const calibration = calibrationFor(run.embeddings.modelId, { similarity: Boolean(vector), coverage });
    const cards = top.map((api) => {
      const feedback = usage.apis.get(api.apiId);
      const evidence: CalibratedApi['evidence'] = {
        relative: round(Math.min(1, api.fused)),
        ...(vector ? { similarity: round(similarity.get(api.apiId) ?? 0) } : {}),
        ...(coverage ? { termCoverage: keywords ? round(termCoverage(keywords.terms, keywords.unknownWeight, inOneChunk.get(api.apiId) ?? 0)) : 0 } : {}),
        ...(feedback ? { feedback } : {}),
      };
      return { ...api, evidence, relevance: calibratedRelevance(evidence, calibration) };
    });
    const ordered = inRankingOrder(cards.map((card) => card.relevance));
    return cards.map((card, index) => ({ ...card, relevance: ordered[index] }));
  }
}
