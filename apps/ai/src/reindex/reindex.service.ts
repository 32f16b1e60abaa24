import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown, ServiceUnavailableException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
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
import { throttledWarning } from '#http';
import { IndexStoreService } from '../indexing/index-store.service.js';

/** Fresh registrations go first: jobs without a priority are taken before prioritised ones. */
const REINDEX_PRIORITY = 10;
const MAX_FAILURES_LISTED = 100;
/**
 * How often, and after how long, the jobs of a run's unfinished APIs are sent again: Redis may
 * have lost them (restarted empty); one it still holds is not added twice (job ids).
 */
const RESEND_INTERVAL_MS = 60_000;
const RESEND_BATCH = 1000;

interface RunRow {
  id: string;
  org_ids: string[];
  requested_at: Date;
  finished_at: Date | null;
  total: number;
  queued: number;
  done: number;
  failed: number;
}

/**
 * Admin re-index runs: re-indexes APIs from the spec copies this app keeps (no call to the
 * registry), through the same queue and pipeline as registrations, and tracks each API's outcome.
 */
@Injectable()
export class ReindexService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReindexService.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectQueue(INDEXING_QUEUE) private readonly queue: Queue,
    private readonly store: IndexStoreService,
  ) {
    // This app's one queue connection: without a listener BullMQ prints every reconnect failure.
    const warn = throttledWarning(this.logger);
    this.queue.on('error', (error) => warn(`Indexing queue unavailable: ${error.message}`));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => void this.resend().catch((error: Error) => this.logger.warn(`Re-index jobs not re-sent (next try in ${RESEND_INTERVAL_MS / 1000} s): ${error.message}`)),
      RESEND_INTERVAL_MS,
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async start(request: InternalReindexRequest): Promise<ReindexAccepted> {
    const { reindexId, items } = await this.dataSource.transaction(async (manager) => {
      const apis: { api_id: string; org_id: string; revision: number }[] = await manager.query(
        `SELECT s.api_id, s.org_id, s.revision
         FROM platform_ai.api_indexing_status s
         JOIN platform_ai.api_specs p ON p.api_id = s.api_id AND p.revision = s.revision
         WHERE NOT s.deleted AND s.org_id = ANY($1) AND ($2::uuid[] IS NULL OR s.api_id = ANY($2::uuid[]))
         ORDER BY s.api_id`,
        [request.orgIds, request.apiIds ?? null],
      );
      // The run belongs to the orgs it touches: only a caller of all of them may read its progress.
      const orgIds = apis.length > 0 ? [...new Set(apis.map((api) => api.org_id))].sort() : request.orgIds;
      const [run]: { id: string }[] = await manager.query(
        `INSERT INTO platform_ai.reindex_runs (org_ids, requested_by) VALUES ($1, $2) RETURNING id`,
        [orgIds, request.requestedBy],
      );
      if (apis.length > 0) {
        await manager.query(
          `INSERT INTO platform_ai.reindex_items (reindex_id, api_id, revision)
           SELECT $1, api_id, revision FROM unnest($2::uuid[], $3::int[]) AS t(api_id, revision)`,
          [run.id, apis.map((api) => api.api_id), apis.map((api) => api.revision)],
        );
      }
      return { reindexId: run.id, items: apis };
    });

    try {
      await this.enqueue(items.map(({ api_id: apiId, revision }) => ({ reindexId, apiId, revision })));
    } catch (error) {
      await this.dataSource.query(`DELETE FROM platform_ai.reindex_runs WHERE id = $1`, [reindexId]);
      this.logger.error(`Re-index ${reindexId} could not be queued: ${(error as Error).message}`);
      throw new ServiceUnavailableException('The indexing queue (Redis) is unavailable; nothing was queued, try again');
    }
    this.logger.log(`Re-index ${reindexId} by ${request.requestedBy}: ${items.length} APIs queued`);
    return { reindexId, queued: items.length };
  }

  /** Sends again the jobs of runs' APIs not done a while after the run started. */
  async resend(): Promise<number> {
    const items: ReindexApiJob[] = await this.dataSource.query(
      `SELECT i.reindex_id AS "reindexId", i.api_id AS "apiId", i.revision
       FROM platform_ai.reindex_items i JOIN platform_ai.reindex_runs r ON r.id = i.reindex_id
       WHERE i.status = 'QUEUED' AND r.requested_at < now() - make_interval(secs => $1)
       LIMIT $2`,
      [RESEND_INTERVAL_MS / 1000, RESEND_BATCH],
    );
    await this.enqueue(items);
    return items.length;
  }

  private async enqueue(jobs: ReindexApiJob[]): Promise<void> {
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
    const [run]: RunRow[] = await this.dataSource.query(
      `SELECT r.id, r.org_ids, r.requested_at, max(i.finished_at) AS finished_at,
              count(i.api_id)::int AS total,
              count(*) FILTER (WHERE i.status = 'QUEUED')::int AS queued,
              count(*) FILTER (WHERE i.status = 'DONE')::int AS done,
              count(*) FILTER (WHERE i.status = 'FAILED')::int AS failed
       FROM platform_ai.reindex_runs r LEFT JOIN platform_ai.reindex_items i ON i.reindex_id = r.id
       WHERE r.id = $1 AND r.org_ids <@ $2::text[]
       GROUP BY r.id`,
      [reindexId, callerOrgs],
    );
    if (!run) throw new NotFoundException(`No re-index run ${reindexId}`);
    const failures: { apiId: string; error: string }[] = run.failed
      ? await this.dataSource.query(
          `SELECT api_id AS "apiId", error FROM platform_ai.reindex_items
           WHERE reindex_id = $1 AND status = 'FAILED' ORDER BY finished_at LIMIT $2`,
          [reindexId, MAX_FAILURES_LISTED],
        )
      : [];
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
    return this.store.keptSpec(job.apiId, job.revision, 'latest');
  }

  async finish(job: ReindexApiJob, outcome: { error?: string }): Promise<void> {
    await this.dataSource.query(
      `UPDATE platform_ai.reindex_items SET status = $3, error = $4, finished_at = now()
       WHERE reindex_id = $1 AND api_id = $2 AND status = 'QUEUED'`,
      [job.reindexId, job.apiId, outcome.error ? 'FAILED' : 'DONE', outcome.error?.slice(0, 2000) ?? null],
    );
  }
}
