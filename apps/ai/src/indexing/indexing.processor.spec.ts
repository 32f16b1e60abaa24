import { describe, expect, it, jest } from '@jest/globals';
import { UnrecoverableError } from 'bullmq';
import { Registry } from 'prom-client';
import type { AiConfig } from '#config';
import { IndexingJobName } from '#contracts';
import type { SpecThreads } from '#spec';
import type { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';
import type { ReindexService } from '../reindex/reindex.service.js';
import type { ApiSpecsRepository } from './api-specs.repository.js';
import type { IndexStoreRepository } from './index-store.repository.js';
import { IndexingMetrics } from './indexing-metrics.js';
import { IndexingProcessor } from './indexing.processor.js';
import type { TableStatsService } from './table-stats.service.js';

/** What `onFailed` reads of a BullMQ job after `moveToFailed`: `finishedOn` is set only when no retry follows. */
function failedJob(name: string, attemptsMade: number, finishedOn?: number) {
  return { name, data: { apiId: 'api-1', orgId: 'acme', revision: 3 }, opts: { attempts: 5 }, attemptsMade, finishedOn };
}

describe('IndexingProcessor.onFailed', () => {
  const setup = () => {
    const markFailed = jest.fn<(apiId: string, revision: number, reason: string) => Promise<void>>();
    const finish = jest.fn<(job: unknown, result: { error?: string }) => Promise<void>>();
    const metrics = new IndexingMetrics(new Registry());
    const processor = new IndexingProcessor(
      { markFailed } as unknown as IndexStoreRepository,
      {} as ApiSpecsRepository,
      {} as TableStatsService,
      { finish } as unknown as ReindexService,
      metrics,
      {} as EmbeddingModelsService,
      {} as SpecThreads,
      {} as AiConfig,
    );
    // Set up by onApplicationBootstrap in the app: here, whether a worker still holds the API.
    const held = new Set<string>();
    Object.assign(processor, { locks: { isHeld: async (apiId: string) => held.has(apiId) } });
    const onFailed = (job: ReturnType<typeof failedJob>, error: Error) => processor.onFailed(job as unknown as Parameters<IndexingProcessor['onFailed']>[0], error);
    return { markFailed, finish, held, onFailed };
  };

  it('should leave the status alone while BullMQ will retry the job', async () => {
    const { markFailed, onFailed } = setup();
    await onFailed(failedJob(IndexingJobName.Index, 1), new Error('database is restarting'));
    expect(markFailed).not.toHaveBeenCalled();
  });

  it('should record the reason after the last attempt', async () => {
    const { markFailed, onFailed } = setup();
    await onFailed(failedJob(IndexingJobName.Index, 5, Date.now()), new Error('database is restarting'));
    expect(markFailed).toHaveBeenCalledWith('api-1', 3, 'Indexing failed after 5 attempts: database is restarting');
  });

  it('should record a job BullMQ gave up on after its worker stalled, although attempts remain', async () => {
    const { markFailed, finish, onFailed } = setup();
    await onFailed(failedJob(IndexingJobName.Reindex, 1, Date.now()), new UnrecoverableError('job stalled more than allowable limit'));
    expect(markFailed).toHaveBeenCalledWith('api-1', 3, 'Indexing failed after 1 attempt: job stalled more than allowable limit');
    expect(finish).toHaveBeenCalledWith(expect.objectContaining({ apiId: 'api-1' }), { error: 'Indexing failed after 1 attempt: job stalled more than allowable limit' });
  });

  it('should leave the status to the worker still on the API when BullMQ gave up on its job', async () => {
    const { markFailed, held, onFailed } = setup();
    held.add('api-1');
    await onFailed(failedJob(IndexingJobName.Index, 1, Date.now()), new UnrecoverableError('job stalled more than allowable limit'));
    expect(markFailed).not.toHaveBeenCalled();
  });
});
