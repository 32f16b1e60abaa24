import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

// Re-analyse once this many chunk rows changed since the last time…
const CHANGED_ROWS_THRESHOLD = 500;
// …waiting for a quiet moment, so a burst of jobs costs one ANALYZE.
const DEBOUNCE_MS = 5000;

/**
 * Keeps planner statistics fresh. Without them the planner believes the chunk table is tiny and
 * scans every row instead of using the HNSW index (200 ms instead of 10 ms at 27k chunks).
 * PostgreSQL's autovacuum does this too; embedded PGlite has no autovacuum.
 */
@Injectable()
export class TableStatsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TableStatsService.name);
  private changedRows = 0;
  private timer?: NodeJS.Timeout;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.analyze();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }

  /** Called after chunks were written or removed. */
  recordChanges(rows: number): void {
    this.changedRows += rows;
    if (this.changedRows < CHANGED_ROWS_THRESHOLD) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.analyze(), DEBOUNCE_MS);
    this.timer.unref();
  }

  private async analyze(): Promise<void> {
    this.changedRows = 0;
    try {
      await this.dataSource.query(
        `ANALYZE platform_ai.api_chunks, platform_ai.chunk_terms, platform_ai.api_terms, platform_ai.lexicon, platform_ai.api_indexing_status, platform_ai.api_specs`,
      );
    } catch (error) {
      this.logger.warn(`ANALYZE failed: ${(error as Error).message}`);
    }
  }
}
