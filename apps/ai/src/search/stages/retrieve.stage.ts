import { Injectable } from '@nestjs/common';
import type { ChunkRetriever } from '../chunk-retriever.js';
import { EVIDENCE_CHUNKS, unseenKeywordLeaders } from '../rank-fusion.js';
import { RANKING } from '../../ranking/ranking.config.js';
import type { Retrieved, SearchRun, UnderstoodQuery } from './search-run.js';

/** Stage 2: candidates by meaning (nearest chunks) and by words (APIs by BM25). */
@Injectable()
export class Retrieval {
  async retrieve(run: SearchRun, query: UnderstoodQuery, retriever: ChunkRetriever): Promise<Retrieved> {
    const { vector, keywords } = query;
    const nearest = vector ? await retriever.vectorCandidates(vector, RANKING.candidatesPerRetriever) : [];
    const apiKeywords = keywords ? await retriever.apiKeywordScores(keywords) : [];
    // APIs the words rank high but the nearest chunks missed: how near they come still counts.
    const unseen = vector ? unseenKeywordLeaders(apiKeywords, nearest, RANKING.unseenLeadersPerResult * run.maxResults) : [];
    const unseenChunks = vector ? await retriever.nearestChunksOf(vector, unseen, EVIDENCE_CHUNKS) : [];
    return { nearest, apiKeywords, unseenChunks };
  }
}
