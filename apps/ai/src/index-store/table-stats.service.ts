import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Re-analyse once this many chunk rows changed since the last time, or this share of the chunk
 * table if that is more (autovacuum's rule and defaults: `analyze_threshold` + `analyze_scale_factor`)…
 * A small first catalogue must be analysed too: with the statistics of the empty tables the start
 * left, the planner took a spec's 3k postings for one row and rescanned them for each of its
 * operations (740 ms a search with one 133-chunk API instead of a few).
 */
const MIN_CHANGED_ROWS = 50;
const CHANGED_SHARE = 0.1;
/** …a few seconds later, so the jobs of a burst that land meanwhile cost the same ANALYZE. */
const DELAY_MS = 5000;

/**
 * Keeps planner statistics fresh. Without them the planner believes the chunk table is tiny and
 * scans every row instead of using the HNSW index (200 ms instead of 10 ms at 27k chunks), and
 * the writes of indexing slow down as the tables grow (measured: 18 → 169 ms of store per chunk
 * over 20 minutes of registrations into an empty database). PostgreSQL's autovacuum does this
 * too; embedded PGlite has no autovacuum.
 */
@Injectable()
export class TableStatsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TableStatsService.name);
  private changedRows = 0;
  private chunkRows = 0;
  private timer?: NodeJS.Timeout;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.analyze();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }

  /**
   * Called after chunks were written or removed. The timer is never pushed back: a steady
   * stream of jobs (every job within the delay of the last) must not put the ANALYZE off for
   * ever, which is what a debounce did.
   */
  recordChanges(rows: number): void {
    this.changedRows += rows;
    if (this.timer || this.changedRows < Math.max(MIN_CHANGED_ROWS, CHANGED_SHARE * this.chunkRows)) return;
    this.timer = setTimeout(() => void this.analyze(), DELAY_MS);
    this.timer.unref();
  }

  private async analyze(): Promise<void> {
    this.timer = undefined;
    this.changedRows = 0;
    try {
      await this.dataSource.query(
        `ANALYZE platform_ai.api_chunks, platform_ai.chunk_terms, platform_ai.api_terms, platform_ai.lexicon, platform_ai.api_indexing_status, platform_ai.api_specs`,
      );
      const [{ rows }]: { rows: number }[] = await this.dataSource.query(
        `SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'platform_ai.api_chunks'::regclass`,
      );
      this.chunkRows = Math.max(0, Number(rows));
    } catch (error) {
      this.logger.warn(`ANALYZE failed: ${(error as Error).message}`);
    }
  }
}
