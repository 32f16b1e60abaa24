import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { EmbeddingProvider } from '#embeddings';
import { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';
import { needText } from '../ranking/query-normalizer.js';
import { RANKING } from '../ranking/ranking.config.js';
import { FeedbackRepository } from './feedback.repository.js';
import { NEED_CALIBRATION_SET } from './need-calibration-set.js';
import { backgroundOf, fitNeedMatching, type NeedMatching, normalised } from './need-matching.js';

/** Signals measured again per round after a new fit. */
const MEASURE_BATCH = 500;

/**
 * Each embedding model's need matching (`fitNeedMatching` on `NEED_CALIBRATION_SET`), fitted once
 * per process when the model first has signals to weigh (embedding the set's 957 phrasings:
 * seconds with the local model) and kept in memory. Every replica fits the same model alike. A
 * new fit (another model, set or setting) measures the stored signals' needs again; a model
 * switch leaves the old model's signals behind, as search compares vectors of one model only.
 */
@Injectable()
export class NeedMatchings implements OnApplicationBootstrap {
  private readonly logger = new Logger(NeedMatchings.name);
  private readonly fits = new Map<string, Promise<NeedMatching>>();
  private readonly ready = new Map<string, NeedMatching>();

  constructor(
    private readonly repository: FeedbackRepository,
    private readonly models: EmbeddingModelsService,
  ) {}

  /** Fits the serving model's matching in the background when there are signals to weigh. */
  onApplicationBootstrap(): void {
    void (async () => {
      const model = await this.models.serving();
      if (await this.repository.hasSignals(model.modelId)) await this.of(model);
    })().catch((error: Error) => this.logger.warn(`Need matching not fitted at start (fitted on first use): ${error.message}`));
  }

  /** The model's need matching, fitted first if need be. */
  of(model: EmbeddingProvider): Promise<NeedMatching> {
    let fit = this.fits.get(model.modelId);
    if (!fit) {
      fit = this.fit(model);
      this.fits.set(model.modelId, fit);
      // A failed fit (the provider was down) is tried again on the next use.
      fit.catch(() => this.fits.delete(model.modelId));
    }
    return fit;
  }

  /** The model's need matching if it is fitted, without starting a fit. */
  fitted(modelId: string): NeedMatching | undefined {
    return this.ready.get(modelId);
  }

  /**
   * The model's need matching if fitted; otherwise starts the fit (of the serving model) and
   * answers undefined: a search does not wait for it.
   */
  peek(modelId: string): NeedMatching | undefined {
    const matching = this.ready.get(modelId);
    if (!matching && !this.fits.has(modelId)) {
      this.models
        .serving()
        .then((model) => (model.modelId === modelId ? this.of(model) : undefined))
        .catch((error: Error) => this.logger.warn(`Need matching for ${modelId} not fitted: ${error.message}`));
    }
    return matching;
  }

  /** How close a need is to needs in general, under the matching (`needMatch`). */
  background(matching: NeedMatching, vector: number[]): number {
    return backgroundOf(normalised(vector), matching.references, matching.neighbours);
  }

  private async fit(model: EmbeddingProvider): Promise<NeedMatching> {
    const started = Date.now();
    const texts = NEED_CALIBRATION_SET.flatMap((domain) => domain.needs.flatMap((need) => need.map(needText)));
    const vectors = await model.embedDocuments(texts);
    const { needNeighbours: neighbours, falseMatchRate, minRecall } = RANKING.feedback;
    const matching = await fitNeedMatching(model.modelId, NEED_CALIBRATION_SET, vectors, { neighbours, falseMatchRate, minRecall });
    this.ready.set(model.modelId, matching);
    this.logger.log(
      `Need matching for ${model.modelId} (${Date.now() - started} ms): threshold ${matching.threshold.toFixed(3)}, ` +
        `${(matching.recall * 100).toFixed(1)}% of ${matching.pairs.same} paraphrase pairs match, ${(matching.falseMatchRate * 100).toFixed(2)}% of ${matching.pairs.different} other pairs ` +
        `(${(matching.sameDomainFalseMatchRate * 100).toFixed(2)}% of one domain)${matching.reason ? `; ${matching.reason}` : ''}`,
    );
    // Until they are measured, the stored signals count for the same need only.
    await this.measureStoredNeeds(matching).catch((error: Error) =>
      this.logger.warn(`Stored needs not measured for ${model.modelId} (again at the next start): ${error.message}`),
    );
    return matching;
  }

  /** Measures the model's stored needs under the new fit, a batch at a time. */
  private async measureStoredNeeds(matching: NeedMatching): Promise<void> {
    for (;;) {
      const needs = await this.repository.unmeasuredNeeds(matching.model, matching.version, MEASURE_BATCH);
      await this.repository.measureNeeds(
        matching.version,
        needs.map(({ key, embedding }) => ({ key, background: this.background(matching, embedding) })),
      );
      if (needs.length < MEASURE_BATCH) return;
    }
  }
}
