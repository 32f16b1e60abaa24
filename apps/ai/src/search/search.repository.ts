import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { READ_DATA_SOURCE } from '#database';

/** Isolation of a search's transaction: every statement reads the snapshot its first one did. */
const SNAPSHOT = 'REPEATABLE READ';

/** Settings of a search's statements. */
export interface SearchSettings {
  /** HNSW candidates per scan (HNSW_EF_SEARCH). */
  efSearch: number;
  /** No statement outlives the search's time budget (SEARCH_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * Where search's SQL runs: the snapshot a search reads in, with its settings, and the org's index
 * and feedback versions for the result cache. The queries themselves are each stage's (see `stages/`), beside
 * it, and `LexiconRepository`'s (the words of a query). All of it reads the read replica when
 * there is one (`DATABASE_READ_URL`): the index, and the versions the cache is keyed by, are then
 * the replica's, so a cached answer is never older than what the replica serves.
 */
@Injectable()
export class SearchRepository {
  constructor(@Inject(READ_DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Outside a search's snapshot (the keyword step reads the lexicon while the query is embedded). */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * What an answer of the org's depends on, in one round trip. `index` changes whenever an
   * indexing job of the org commits: each rewrites its API's status row, and a rewritten row
   * carries the writing transaction's id (xmin); timestamps would not do, they are taken when a
   * transaction starts, not when it commits. `feedback` counts the org's signals and erasures.
   */
  async versions(orgId: string): Promise<{ index: string; feedback: number }> {
    const [row]: { index: string; feedback: string | null }[] = await this.dataSource.query(
      `SELECT (SELECT count(*) || '/' || coalesce(sum(xmin::text::bigint), 0) FROM platform_ai.api_indexing_status WHERE org_id = $1) AS index,
         (SELECT version FROM platform_ai.feedback_versions WHERE org_id = $1) AS feedback`,
      [orgId],
    );
    return { index: row.index, feedback: Number(row.feedback ?? 0) };
  }

  /**
   * Runs `work` in one snapshot (PostgreSQL's default gives each statement its own): an API whose
   * new chunks go live meanwhile is seen before or after, never half of each. With `settings`, the
   * vector search's: pgvector filters after the index scan, so it keeps scanning until enough rows
   * pass the org filter; and no statement outlives the time budget (PostgreSQL cancels it).
   */
  async inSnapshot<T>(work: (manager: EntityManager) => Promise<T>, settings?: SearchSettings): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // The snapshot and its settings in one round trip (a simple query of several statements),
      // not five: each costs a hand-off to the database, more so on a busy machine.
      const set = settings
        ? `; SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${Number(settings.efSearch)}; SET LOCAL statement_timeout = ${Number(settings.timeoutMs)}`
        : '';
      await runner.query(`BEGIN ISOLATION LEVEL ${SNAPSHOT}${set}`);
      try {
        const result = await work(runner.manager);
        await runner.query('COMMIT');
        return result;
      } catch (error) {
        await runner.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }
}
