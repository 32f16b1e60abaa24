import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { TableStatsService } from './table-stats.service.js';

describe('TableStatsService', () => {
  let analyses: number;
  let chunkRows: number;
  let stats: TableStatsService;

  beforeEach(async () => {
    jest.useFakeTimers();
    analyses = 0;
    chunkRows = 0;
    const query = async (sql: string) => {
      if (sql.startsWith('ANALYZE')) analyses++;
      return [{ rows: chunkRows }];
    };
    stats = new TableStatsService({ query } as unknown as DataSource);
    await stats.onApplicationBootstrap();
  });

  afterEach(() => {
    stats.onApplicationShutdown();
    jest.useRealTimers();
  });

  /** One job of `rows` chunks, then `ms` until the next one. */
  const job = async (rows: number, ms: number) => {
    stats.recordChanges(rows);
    await jest.advanceTimersByTimeAsync(ms);
  };

  it('should analyse at startup, then not before enough rows changed', async () => {
    expect(analyses).toBe(1);
    await job(40, 60_000);
    expect(analyses).toBe(1);
    await job(20, 6_000);
    expect(analyses).toBe(2);
  });

  it('should analyse during a steady stream of jobs, not only when it stops', async () => {
    // A job every 2 s for two minutes: never a quiet moment of 5 s.
    for (let i = 0; i < 60; i++) await job(100, 2_000);
    expect(analyses).toBeGreaterThanOrEqual(5);
  });

  it('should wait for a tenth of the chunk table to change once it is large', async () => {
    chunkRows = 100_000;
    await job(500, 6_000); // analyses with 0 chunk rows known: 50 is enough, and learns the size
    expect(analyses).toBe(2);
    await job(9_000, 6_000);
    expect(analyses).toBe(2);
    await job(1_000, 6_000);
    expect(analyses).toBe(3);
  });
});
