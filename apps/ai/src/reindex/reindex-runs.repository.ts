import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { InternalReindexRequest, ReindexApiJob } from '#contracts';
import { apiNotDeleted } from '../scope/live.js';

export interface RunRow {
  id: string;
  org_ids: string[];
  requested_at: Date;
  finished_at: Date | null;
  total: number;
  queued: number;
  done: number;
  failed: number;
}

/** The SQL of `platform_ai.reindex_runs` and their items (one per API re-indexed). */
@Injectable()
export class ReindexRunsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A run over the requested APIs of these orgs that have a kept spec copy of their newest
   * revision (not deleted), with an item for each; returns the run and its items as jobs.
   */
  create(request: InternalReindexRequest): Promise<{ reindexId: string; items: ReindexApiJob[] }> {
    return this.dataSource.transaction(async (manager) => {
      const apis: { api_id: string; org_id: string; revision: number }[] = await manager.query(
        `SELECT s.api_id, s.org_id, s.revision
         FROM platform_ai.api_indexing_status s
         JOIN platform_ai.api_specs p ON p.api_id = s.api_id AND p.revision = s.revision
         WHERE ${apiNotDeleted('s')} AND s.org_id = ANY($1) AND ($2::uuid[] IS NULL OR s.api_id = ANY($2::uuid[]))
         ORDER BY s.api_id`,
        [request.orgIds, request.apiIds ?? null],
      );
      // The run belongs to the orgs it touches: only a caller of all of them may read its progress.
      const orgIds = apis.length > 0 ? [...new Set(apis.map((api) => api.org_id))].sort() : request.orgIds;
      const [run]: { id: string }[] = await manager.query(`INSERT INTO platform_ai.reindex_runs (org_ids, requested_by) VALUES ($1, $2) RETURNING id`, [
        orgIds,
        request.requestedBy,
      ]);
      if (apis.length > 0) {
        await manager.query(
          `INSERT INTO platform_ai.reindex_items (reindex_id, api_id, revision)
           SELECT $1, api_id, revision FROM unnest($2::uuid[], $3::int[]) AS t(api_id, revision)`,
          [run.id, apis.map((api) => api.api_id), apis.map((api) => api.revision)],
        );
      }
      return { reindexId: run.id, items: apis.map((api) => ({ reindexId: run.id, apiId: api.api_id, revision: api.revision })) };
    });
  }

  async delete(reindexId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM platform_ai.reindex_runs WHERE id = $1`, [reindexId]);
  }

  /** Items still queued of runs requested more than `olderThanSeconds` ago (the first `limit`). */
  queuedItems(olderThanSeconds: number, limit: number): Promise<ReindexApiJob[]> {
    return this.dataSource.query(
      `SELECT i.reindex_id AS "reindexId", i.api_id AS "apiId", i.revision
       FROM platform_ai.reindex_items i JOIN platform_ai.reindex_runs r ON r.id = i.reindex_id
       WHERE i.status = 'QUEUED' AND r.requested_at < now() - make_interval(secs => $1)
       LIMIT $2`,
      [olderThanSeconds, limit],
    );
  }

  /** A run with its items counted, if every org it touches is one of `callerOrgs`. */
  async run(reindexId: string, callerOrgs: string[]): Promise<RunRow | undefined> {
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
    return run;
  }

  /** The run's failed items, first failed first. */
  failures(reindexId: string, limit: number): Promise<{ apiId: string; error: string }[]> {
    return this.dataSource.query(
      `SELECT api_id AS "apiId", error FROM platform_ai.reindex_items
       WHERE reindex_id = $1 AND status = 'FAILED' ORDER BY finished_at LIMIT $2`,
      [reindexId, limit],
    );
  }

  /** Records an item's outcome, once. */
  async finish(job: ReindexApiJob, error: string | undefined): Promise<void> {
    await this.dataSource.query(
      `UPDATE platform_ai.reindex_items SET status = $3, error = $4, finished_at = now()
       WHERE reindex_id = $1 AND api_id = $2 AND status = 'QUEUED'`,
      [job.reindexId, job.apiId, error ? 'FAILED' : 'DONE', error?.slice(0, 2000) ?? null],
    );
  }
}
