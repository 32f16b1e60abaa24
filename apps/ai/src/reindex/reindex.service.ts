import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, NotFoundException, type OnApplicationBootstrap, ServiceUnavailableException } from '@nestjs/common';
import type { Queue } from 'bullmq';
import {
  type IndexApiJob,
  INDEXING_JOB_OPTIONS,
  INDEXING_QUEUE,
  IndexingJobName,
  type InternalReindexRequest,
  type ReindexAccepted,
  type ReindexApiJob,
  type ReindexProgress,
  reindexJobId,
} from '#contracts';
import { queueConnected } from '#config';
import { PeriodicJobs } from '#database';
import { throttledWarning } from '#http';
import { ApiSpecsRepository } from '../index-store/api-specs.repository.js';
import { ReindexRunsRepository } from './reindex-runs.repository.js';

/** Fresh registrations go first: jobs without a priority are taken before prioritised ones. */
const REINDEX_PRIORITY = 10;
const MAX_FAILURES_LISTED = 100;
/**
 * How often, and after how long, the jobs of a run's unfinished APIs are sent again: Redis may
 * have lost them (restarted empty); one it still holds is not added twice (job ids).
 */
const RESEND_INTERVAL_MS = 60_000;
const RESEND_BATCH = 1000;
/** How long a run waits for the queue's first connection before it is refused as unavailable. */
const QUEUE_CONNECT_MS = 2000;

/**
 * Admin re-index runs: re-indexes APIs from the spec copies this app keeps (no call to the
 * registry), through the same queue and pipeline as registrations, and tracks each API's outcome.
 */
@Injectable()
export class ReindexService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ReindexService.name);

  constructor(
    private readonly runs: ReindexRunsRepository,
    private readonly specs: ApiSpecsRepository,
    private readonly jobs: PeriodicJobs,
    @InjectQueue(INDEXING_QUEUE) private readonly queue: Queue,
  ) {
    // This app's one queue connection: without a listener BullMQ prints every reconnect failure.
    const warn = throttledWarning(this.logger);
    this.queue.on('error', (error) => warn(`Indexing queue unavailable: ${error.message}`));
  }

  onApplicationBootstrap(): void {
    this.jobs.schedule({
      name: 'reindex-resend',
      intervalMs: RESEND_INTERVAL_MS,
      run: async () => void (await this.resend()),
      onError: (error) => this.logger.warn(`Re-index jobs not re-sent (next try in ${RESEND_INTERVAL_MS / 1000} s): ${error.message}`),
    });
  }

  async start(request: InternalReindexRequest): Promise<ReindexAccepted> {
    const { reindexId, items } = await this.runs.create(request);

    try {
      await this.enqueue(items);
    } catch (error) {
      await this.runs.delete(reindexId);
      this.logger.error(`Re-index ${reindexId} could not be queued: ${(error as Error).message}`);
      throw new ServiceUnavailableException('The indexing queue (Redis) is unavailable; nothing was queued, try again');
    }
    this.logger.log(`Re-index ${reindexId} by ${request.requestedBy}: ${items.length} APIs queued`);
    return { reindexId, queued: items.length };
  }

  /** Sends again the jobs of runs' APIs not done a while after the run started. */
  async resend(): Promise<number> {
    const items = await this.runs.queuedItems(RESEND_INTERVAL_MS / 1000, RESEND_BATCH);
    await this.enqueue(items);
    return items.length;
  }

  private async enqueue(jobs: ReindexApiJob[]): Promise<void> {
    // A command sent while the connection is down waits in ioredis's offline queue for as long as
    // Redis stays away: the admin would wait for the gateway's time-out instead of a 503 now.
    if (!(await queueConnected(this.queue, QUEUE_CONNECT_MS))) throw new Error('Redis is not connected');
    await this.queue.addBulk(
      jobs.map((job) => ({
        name: IndexingJobName.Reindex,
        data: job,
        opts: { ...INDEXING_JOB_OPTIONS, jobId: reindexJobId(job.reindexId, job.apiId), priority: REINDEX_PRIORITY },
      })),
    );
  }

  /** Progress of a run, if every org it touches is one of the caller's (otherwise it does not exist for them). */
  async progress(reindexId: string, callerOrgs: string[]): Promise<ReindexProgress> {
    const run = await this.runs.run(reindexId, callerOrgs);
    if (!run) throw new NotFoundException(`No re-index run ${reindexId}`);
    const failures = run.failed ? await this.runs.failures(reindexId, MAX_FAILURES_LISTED) : [];
    const running = run.queued > 0;
    return {
      reindexId: run.id,
      status: running ? 'RUNNING' : 'COMPLETED',
      orgIds: run.org_ids,
      requestedAt: run.requested_at.toISOString(),
      ...(!running ? { finishedAt: (run.finished_at ?? run.requested_at).toISOString() } : {}),
      total: run.total,
      queued: run.queued,
      done: run.done,
      failed: run.failed,
      failures,
    };
  }

  /** The indexing job for the run's revision, from the kept spec copy; none if the API was deleted or moved on. */
  async indexJobFor(job: ReindexApiJob): Promise<IndexApiJob | undefined> {
    return this.specs.keptSpec(job.apiId, job.revision, 'latest');
  }

  async finish(job: ReindexApiJob, outcome: { error?: string }): Promise<void> {
    await this.runs.finish(job, outcome.error);
  }
}
