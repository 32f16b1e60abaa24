import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { type BeforeApplicationShutdown, Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { type AiConfig, closeWithoutRedis, redisConnectionOptions, withTimeout } from '#config';
import { throttledWarning } from '#http';
import { type DeleteApiJob, type IndexApiJob, INDEXING_QUEUE, IndexingJobName, type ReembedApiJob, type ReindexApiJob } from '#contracts';
import type { EmbeddingProvider } from '#embeddings';
import { type ApiFacts, contentHash, errorSummary, isRefusal, type SpecChunk, SpecThreads, SpecThreadsBusyError } from '#api-specs';
import { AI_CONFIG } from '../ai.constants.js';
import { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';
import { ApiLocks } from './api-lock.js';
import { IndexingMetrics } from './indexing-metrics.js';
import { ReindexService } from '../reindex/reindex.service.js';
import type { EmbeddedChunk } from '../index-store/chunk-rows.js';
import { ApiSpecsRepository } from '../index-store/api-specs.repository.js';
import { IndexStoreRepository } from '../index-store/index-store.repository.js';
import { TableStatsService } from '../index-store/table-stats.service.js';

type IndexingJob =
  | Job<IndexApiJob, unknown, typeof IndexingJobName.Index>
  | Job<DeleteApiJob, unknown, typeof IndexingJobName.Delete>
  | Job<ReindexApiJob, unknown, typeof IndexingJobName.Reindex>
  | Job<ReembedApiJob, unknown, typeof IndexingJobName.Reembed>;

type IndexOutcome = { chunks: number } | { skipped: string } | { failed: string };

/** A job whose API another worker holds waits this long before it tries again. */
const API_BUSY_DELAY_MS = 1000;

/** Reading, modelling or chunking the spec failed unexpectedly (a bug, or a library that gave up on it): `cause` is what was thrown. */
export class SpecProcessingError extends Error {
  override name = 'SpecProcessingError';
  constructor(override readonly cause: unknown) {
    super(`the spec could not be processed (${errorSummary(cause)})`, { cause });
  }
}

/**
 * The status text of a job that failed for good: one line that every reader of the API may see,
 * so no stack and no path of this server, and the error in at most 200 characters (`errorSummary`):
 * `Indexing failed after 3 attempts: the spec could not be processed (RangeError: Invalid string length)`.
 * The error itself goes to the log.
 */
export function indexingFailure(attempts: number, error: unknown): string {
  const what = error instanceof SpecProcessingError ? error.message : errorSummary(error);
  return `Indexing failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${what}`;
}

/** The indexing pipeline: parse → chunk → embed → store → status. Started once configured (below). */
@Processor(INDEXING_QUEUE, { autorun: false })
export class IndexingProcessor extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IndexingProcessor.name);
  private locks!: ApiLocks;
  private lockRedis?: Redis;
  private readonly warnOfQueue = throttledWarning(this.logger);

  constructor(
    private readonly store: IndexStoreRepository,
    private readonly specCopies: ApiSpecsRepository,
    private readonly tableStats: TableStatsService,
    private readonly reindexRuns: ReindexService,
    private readonly metrics: IndexingMetrics,
    private readonly models: EmbeddingModelsService,
    private readonly specs: SpecThreads,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    const lockMs = this.config.indexingLockMs;
    // Worker options from the validated config. The worker's lock manager copied the default lock
    // times when the worker was built: it is built again, or a job's first lock (lockMs) would be
    // renewed only after the default 15 s, and a job longer than a shorter lock would run twice.
    Object.assign(this.worker.opts, { lockDuration: lockMs, stalledInterval: lockMs, lockRenewTime: lockMs / 2 });
    (this.worker as unknown as { createLockManager(): void }).createLockManager();
    this.worker.concurrency = this.config.indexingConcurrency;
    this.lockRedis = new Redis(redisConnectionOptions(this.config.redis.url));
    // Redis down is reported once per interval by the worker's error handler (below), not per retry.
    this.lockRedis.on('error', () => undefined);
    this.locks = new ApiLocks(this.lockRedis, `${this.config.redis.queuePrefix}:${INDEXING_QUEUE}`, lockMs);
    void this.worker.run().catch((error: Error) => this.logger.error(`Indexing worker stopped: ${error.message}`));
  }

  /**
   * Lets the job in flight finish before the database closes (on `onApplicationShutdown`). A
   * connection away from Redis for a while is given up instead of waited for, so the app stops
   * with Redis gone too: the job it held is taken over once its lock lapses, as a killed worker's.
   */
  async beforeApplicationShutdown(): Promise<void> {
    // The worker's connections, once it has made them (never while Redis was away since the start).
    const clients = await withTimeout(Promise.all([this.worker.backend.client, this.worker.backend.blockingClient]), 1000).catch(() => []);
    const watched = [...clients, this.lockRedis].filter((client) => client !== undefined);
    if (!(await closeWithoutRedis(this.worker.close(), watched))) {
      this.logger.warn('Indexing worker stopped without Redis: a job it held is taken over by another worker once its lock lapses');
    }
  }

  /** One API is never worked on by two jobs at once, in this process or any other. */
  async process(job: IndexingJob, token?: string): Promise<IndexOutcome | void> {
    // A deletion takes effect before the API's lease is free: the job indexing it must not make it live again.
    if (job.name === IndexingJobName.Delete) await this.store.markDeleted(job.data as DeleteApiJob);
    const lease = await this.locks.acquire(job.data.apiId);
    if (!lease) {
      await job.moveToDelayed(Date.now() + API_BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
    const timer = this.metrics.duration.startTimer({ kind: job.name });
    try {
      const outcome = await this.run(job);
      this.metrics.jobs.inc({ kind: job.name, outcome: outcome && 'failed' in outcome ? 'failed' : outcome && 'skipped' in outcome ? 'skipped' : 'completed' });
      return outcome;
    } catch (error) {
      this.metrics.jobs.inc({ kind: job.name, outcome: 'error' });
      throw error;
    } finally {
      timer();
      await lease.release();
    }
  }

  private async run(job: IndexingJob): Promise<IndexOutcome | void> {
    switch (job.name) {
      case IndexingJobName.Delete:
        this.tableStats.recordChanges(await this.store.deleteApi(job.data as DeleteApiJob));
        return;
      case IndexingJobName.Reindex:
        return this.reindex(job.data as ReindexApiJob);
      case IndexingJobName.Reembed:
        return this.reembed(job.data as ReembedApiJob);
      default:
        return this.index(job.data as IndexApiJob);
    }
  }

  /** An admin re-index: the same pipeline, from the spec copy kept for that revision. */
  private async reindex(job: ReindexApiJob): Promise<IndexOutcome> {
    const indexJob = await this.reindexRuns.indexJobFor(job);
    // Deleted, or a newer revision superseded it (and is indexed by its own job): nothing to redo.
    const outcome: IndexOutcome = indexJob ? await this.index(indexJob) : { skipped: 'the API was deleted or has a newer revision' };
    await this.reindexRuns.finish(job, { error: 'failed' in outcome ? outcome.failed : undefined });
    return outcome;
  }

  private async index(job: IndexApiJob): Promise<IndexOutcome> {
    const started = Date.now();
    if (!(await this.store.beginRevision(job))) return { skipped: 'a newer revision exists' };

    const chunked = await this.chunk(job.spec, job);
    if (isRefusal(chunked)) {
      // A bad spec is the publisher's to fix: record why, do not retry.
      await this.store.markFailed(job.apiId, job.revision, chunked.refused);
      this.logger.warn(`API ${job.apiId} r${job.revision} FAILED: ${chunked.refused}`);
      return { failed: chunked.refused };
    }
    const { kind, chunks, description, warnings } = chunked;

    const parsed = Date.now();
    const { active, building } = await this.models.inUse();
    const embedded = [{ model: active.modelId, chunks: await this.embed(active, chunks) }];
    // During a model switch the new model's vectors are made too; if its provider fails, the API
    // is still indexed (search uses the active model) and the switch re-embeds it later.
    if (building) {
      try {
        embedded.push({ model: building.modelId, chunks: await this.embed(building, chunks) });
      } catch (error) {
        this.logger.warn(`API ${job.apiId} r${job.revision}: ${building.modelId} failed (${(error as Error).message}); the model switch will re-embed it`);
      }
    }
    const embeddedAt = Date.now();
    const replaced = await this.store.replaceChunks(job, embedded, { kind, specDescription: description, warnings });
    if (replaced === undefined) return { skipped: 'a newer revision arrived, or the API was deleted, while indexing' };
    const written = embedded.reduce((sum, set) => sum + set.chunks.length, 0);
    this.tableStats.recordChanges(replaced + written);
    this.logger.log(
      `API ${job.apiId} r${job.revision} indexed: ${chunks.length} chunks in ${Date.now() - started} ms ` +
        `(parse ${parsed - started} ms, embed ${embeddedAt - parsed} ms, store ${Date.now() - embeddedAt} ms)`,
    );
    return { chunks: chunks.length };
  }

  /** Model switch: the live revision's chunks, embedded by the new model beside the old model's. */
  private async reembed(job: ReembedApiJob): Promise<IndexOutcome> {
    const target = await this.models.building();
    if (target?.modelId !== job.model) return { skipped: 'the switch to this model is over' };
    const live = await this.specCopies.keptSpec(job.apiId, job.revision, 'indexed');
    if (!live) return { skipped: 'the revision is no longer live' };
    const chunked = await this.chunk(live.spec, live);
    if (isRefusal(chunked)) {
      await this.models.recordFailure(job.model, job.apiId, chunked.refused);
      return { failed: chunked.refused };
    }
    const embedded = await this.embed(target, chunked.chunks);
    if (!(await this.store.addModelChunks(live, { model: target.modelId, chunks: embedded }))) return { skipped: 'the revision is no longer live' };
    await this.models.recordFailure(job.model, job.apiId);
    this.tableStats.recordChanges(embedded.length);
    return { chunks: embedded.length };
  }

  /**
   * Parse → chunk, on a spec thread (seconds of CPU for a large spec), within the index limits; as
   * the format it was registered as (`format`), or the one that recognises it (jobs of older versions).
   */
  private async chunk(spec: string, { name, version, teamName, description, format }: ApiFacts & { format?: string }) {
    try {
      return await this.specs.run('chunksOf', { spec, format, facts: { name, version, teamName, description }, limits: this.config.indexLimits });
    } catch (error) {
      // Busy threads are the platform's, and pass; anything else went wrong with this spec.
      if (error instanceof SpecThreadsBusyError) throw error;
      throw new SpecProcessingError(error);
    }
  }

  private async embed(provider: EmbeddingProvider, chunks: SpecChunk[]): Promise<EmbeddedChunk[]> {
    const model = provider.modelId;
    const hashed = chunks.map((chunk) => ({ ...chunk, contentHash: contentHash(`${model}\n${chunk.embedText}`) }));
    const vectors = await this.store.findEmbeddings(model, [...new Set(hashed.map((chunk) => chunk.contentHash))]);
    const missing = [...new Map(hashed.filter((c) => !vectors.has(c.contentHash)).map((c) => [c.contentHash, c.embedText]))];
    this.metrics.embeddingBatch.observe(missing.length);
    const timer = this.metrics.embeddingSeconds.startTimer();
    const fresh = await provider.embedDocuments(missing.map(([, text]) => text));
    timer();
    missing.forEach(([hash], index) => vectors.set(hash, fresh[index]));
    return hashed.map((chunk) => ({ ...chunk, embedding: vectors.get(chunk.contentHash)! }));
  }

  /**
   * Redis errors (down, restarted): BullMQ retries on its own; without a handler it prints each
   * one with its stack. One line per interval says what is going on.
   */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.warnOfQueue(`Indexing worker: ${error.message} (jobs resume once Redis answers; one whose record Redis lost is queued again by the gateway)`);
  }

  /**
   * A job that failed for good leaves its reason in the status. For good means BullMQ set
   * `finishedOn` instead of scheduling a retry: after the last attempt, and also at once when it
   * gives up on a job whose worker stalled too often (an unrecoverable error, whatever attempts
   * remain). That happens too when a worker's event loop was held up past the lock while it went
   * on with the job: then the worker still holds the API and writes the outcome itself.
   */
  @OnWorkerEvent('failed')
  async onFailed(job: IndexingJob | undefined, error: Error): Promise<void> {
    if (!job || job.name === IndexingJobName.Delete) return;
    const { apiId, revision } = job.data as IndexApiJob | ReindexApiJob | ReembedApiJob;
    // The whole error, stack included, in the server's log only; the status gets one line (`indexingFailure`).
    const thrown = error instanceof SpecProcessingError ? error.cause : error;
    this.logger.error(
      `API ${apiId} r${revision} ${job.name} attempt ${job.attemptsMade}/${job.opts.attempts ?? 1} failed: ${error.message}`,
      (thrown as Error | undefined)?.stack ?? String(thrown),
    );
    if (!job.finishedOn || (await this.locks.isHeld(apiId))) return;
    const reason = indexingFailure(job.attemptsMade, error);
    this.metrics.jobs.inc({ kind: job.name, outcome: 'failed' });
    // A failed re-embedding holds up the model switch, not the API: its live index keeps serving.
    if (job.name === IndexingJobName.Reembed) return this.models.recordFailure((job.data as ReembedApiJob).model, apiId, reason);
    await this.store.markFailed(apiId, revision, reason);
    if (job.name === IndexingJobName.Reindex) await this.reindexRuns.finish(job.data as ReindexApiJob, { error: reason });
  }
}
