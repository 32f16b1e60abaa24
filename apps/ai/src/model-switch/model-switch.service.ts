import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { INDEXING_JOB_OPTIONS, INDEXING_QUEUE, IndexingJobName, type ReembedApiJob, reembedJobId } from '#contracts';
import { PeriodicJobs } from '#database';
import { IndexStoreRepository } from '../index-store/index-store.repository.js';
import { VectorIndexService } from '../index-store/vector-index.service.js';
import { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';

/** How often a worker looks for a switch to drive (or finish) and for retired vectors to delete. */
const SWITCH_POLL_MS = 5000;
/** After registrations (no priority) and admin re-indexes (10): a switch never delays fresh work. */
const REEMBED_PRIORITY = 20;
/** A job queued this long ago whose API still lacks the new vectors is sent again: Redis may have lost it (re-sending one it holds is a no-op). */
const RESEND_AFTER_MS = 60_000;

/**
 * Drives a model switch from the worker side: queues a re-embedding job for every indexed API
 * that lacks the new model's vectors (through the same queue, leases and retries as indexing),
 * makes the new model active once none lacks them, then deletes the old model's vectors.
 * One worker at a time drives it (`PeriodicJobs`); job ids and the activation check make a
 * step idempotent all the same.
 */
@Injectable()
export class ModelSwitchService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ModelSwitchService.name);
  /** When this process queued each job (re-adding one is a no-op in Redis, but costs a round trip). */
  private readonly queuedAt = new Map<string, number>();

  constructor(
    private readonly models: EmbeddingModelsService,
    private readonly store: IndexStoreRepository,
    private readonly vectorIndex: VectorIndexService,
    private readonly jobs: PeriodicJobs,
    @InjectQueue(INDEXING_QUEUE) private readonly queue: Queue,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.schedule({
      name: 'model-switch',
      intervalMs: SWITCH_POLL_MS,
      runAtStart: true,
      run: () => this.step(),
      onError: (error) => this.logger.warn(`Model switch step failed (retried in ${SWITCH_POLL_MS / 1000} s): ${error.message}`),
    });
  }

  private async step(): Promise<void> {
    const target = await this.models.building();
    if (target) {
      const missing = await this.models.missingApis(target.modelId);
      if (missing.length === 0) {
        if (await this.models.activate(target.modelId)) this.logger.log(`Embedding model ${target.modelId} is active: every API has its vectors`);
      } else {
        await this.enqueue(target.modelId, missing);
      }
    }
    await this.deleteRetired();
  }

  private async enqueue(model: string, missing: { apiId: string; revision: number }[]): Promise<void> {
    const jobs = missing
      .map(({ apiId, revision }) => ({ id: reembedJobId(model, apiId, revision), data: { apiId, revision, model } satisfies ReembedApiJob }))
      .filter((job) => Date.now() - (this.queuedAt.get(job.id) ?? 0) > RESEND_AFTER_MS);
    if (jobs.length === 0) return;
    await this.queue.addBulk(
      jobs.map((job) => ({ name: IndexingJobName.Reembed, data: job.data, opts: { ...INDEXING_JOB_OPTIONS, jobId: job.id, priority: REEMBED_PRIORITY } })),
    );
    jobs.forEach((job) => this.queuedAt.set(job.id, Date.now()));
    this.logger.log(`Model switch to ${model}: ${jobs.length} APIs queued for re-embedding`);
  }

  /** Retired models' vectors, one API per transaction (so the lexicon stays exact), then their index. */
  private async deleteRetired(): Promise<void> {
    const retired = await this.models.retiredModels();
    if (retired.length === 0) return;
    const apis = await this.store.apisWithModels(retired);
    let removed = 0;
    for (const { apiId, orgId } of apis) removed += await this.store.removeModelChunks(apiId, orgId, retired);
    for (const model of retired) {
      await this.vectorIndex.drop(model);
      await this.models.forget(model);
    }
    if (removed > 0) this.logger.log(`Deleted ${removed} vectors of retired models (${retired.join(', ')})`);
  }
}
