import { Inject, Injectable } from '@nestjs/common';
import type { AiConfig } from '#config';
import { AI_CONFIG } from '../../ai.constants.js';
import { QueryVectors } from '../../embedding-models/query-vectors.js';
import { buildKeywordQuery } from '../keyword-query.js';
import { needAction } from '../operation-actions.js';
import { eventIntent, scheduleIntent } from '../query-intent.js';
import { namedOperations, namedThingTypes, nameWords, needText } from '../../ranking/query-normalizer.js';
import { SearchRepository } from '../search.repository.js';
import type { SearchRun, UnderstoodQuery } from './search-run.js';

/** Stage 1: what the query asks for, as each retriever takes it. */
@Injectable()
export class QueryUnderstanding {
  constructor(
    private readonly repository: SearchRepository,
    private readonly queryVectors: QueryVectors,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  async understand(run: SearchRun): Promise<UnderstoodQuery> {
    // "find me APIs that process payments": both searches look for "process payments".
    const need = needText(run.query);
    // Names as typed: a name that opened the need once the framing is gone is still one.
    const names = nameWords(run.query);
    let queryEmbeddingMs = 0;
    const embedding = async (): Promise<number[] | undefined> => {
      if (run.mode === 'keyword') return undefined;
      const started = performance.now();
      const vector = await this.queryVectors.of(run.embeddings, need);
      queryEmbeddingMs = performance.now() - started;
      return vector;
    };
    // The query's terms are looked up while the model embeds it (on its own thread): typo
    // look-ups cost as much as the embedding. They read the lexicon outside the search's
    // snapshot; an index change in between only shifts a word's rarity a little.
    const [vector, keywords] = await Promise.all([
      embedding(),
      run.mode !== 'vector' ? buildKeywordQuery(this.repository.manager, run.scope.orgId, need, names, this.config.search) : undefined,
    ]);
    // On the query as typed: "I want to know when…" is framing the need drops.
    const event = eventIntent(run.query);
    const action = needAction(need);
    return {
      namedOperations: namedOperations(run.query),
      vector,
      keywords,
      namesUnknownThing: keywords ? keywords.namesUnknownThing : names.size > 0,
      namedTypes: namedThingTypes(run.query),
      event,
      schedule: scheduleIntent(run.query),
      // "Notify me when a parcel ships" asks to be told, not to notify.
      action: event ? { ...action, actions: ['subscribe'] } : action,
      queryEmbeddingMs,
    };
  }
}
