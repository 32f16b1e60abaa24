import { describe, expect, it, jest } from '@jest/globals';
import { UnrecoverableError } from 'bullmq';
import { Registry } from 'prom-client';
import type { AiConfig } from '#config';
import { IndexingJobName } from '#contracts';
import type { SpecThreads } from '#api-specs';
import type { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';
import type { ReindexService } from '../reindex/reindex.service.js';
import type { ApiSpecsRepository } from '../index-store/api-specs.repository.js';
import type { IndexStoreRepository } from '../index-store/index-store.repository.js';
import { IndexingMetrics } from './indexing-metrics.js';
import { indexingFailure, IndexingProcessor, SpecProcessingError } from './indexing.processor.js';
import type { TableStatsService } from '../index-store/table-stats.service.js';

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
    const onFailed = (job: ReturnType<typeof failedJob>, error: Error) =>
      processor.onFailed(job as unknown as Parameters<IndexingProcessor['onFailed']>[0], error);
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
    expect(finish).toHaveBeenCalledWith(expect.objectContaining({ apiId: 'api-1' }), {
      error: 'Indexing failed after 1 attempt: job stalled more than allowable limit',
    });
  });

  it('should leave the status to the worker still on the API when BullMQ gave up on its job', async () => {
    const { markFailed, held, onFailed } = setup();
    held.add('api-1');
    await onFailed(failedJob(IndexingJobName.Index, 1, Date.now()), new UnrecoverableError('job stalled more than allowable limit'));
    expect(markFailed).not.toHaveBeenCalled();
  });
});

/** What a spec thread throws when @asyncapi/parser runs out of string length: its stack names the server's files. */
function threadRangeError(): RangeError {
  const error = new RangeError('Invalid string length');
  error.stack = [
    'RangeError: Invalid string length',
    '    at JSON.stringify (<anonymous>)',
    '    at toJSON (/work/main/node_modules/@asyncapi/parser/cjs/document.js:41:25)',
    '    at file:///work/main/dist/libs/api-specs/src/formats/asyncapi/validate-asyncapi.js:44:37',
    '    at async Promise.all (index 0)',
  ].join('\n');
  return error;
}

describe(indexingFailure.name, () => {
  it('should make a RangeError thrown while processing the spec one line, with no stack frame and no path', () => {
    const status = indexingFailure(3, new SpecProcessingError(threadRangeError()));
    expect(status).toBe('Indexing failed after 3 attempts: the spec could not be processed (RangeError: Invalid string length)');
  });

  it('should keep a message that names no path as it is, and take server paths and stacks out of one that does', () => {
    expect(indexingFailure(1, new Error('provider down'))).toBe('Indexing failed after 1 attempt: provider down');
    const missing = new Error("ENOENT: no such file or directory, open '/work/main/data/models/x.onnx'\n    at open (node:internal/fs/promises:639:25)");
    expect(indexingFailure(2, missing)).toBe("Indexing failed after 2 attempts: ENOENT: no such file or directory, open '…'");
    const crash = new TypeError("Cannot read properties of undefined (reading 'x') at fn (C:\\app\\node_modules\\lib\\index.js:1:2)");
    expect(indexingFailure(1, new SpecProcessingError(crash))).toBe(
      "Indexing failed after 1 attempt: the spec could not be processed (TypeError: Cannot read properties of undefined (reading 'x'))",
    );
  });

  it('should cap a long message', () => {
    const status = indexingFailure(3, new SpecProcessingError(new Error('w'.repeat(5000))));
    expect(status.length).toBeLessThan(300);
    expect(status).toMatch(/^Indexing failed after 3 attempts: the spec could not be processed \(w+…\)$/);
  });
});

describe('IndexingProcessor, when a spec thread throws', () => {
  it('should fail the job with the spec named as what could not be processed, and record one line as the status', async () => {
    const markFailed = jest.fn<(apiId: string, revision: number, reason: string) => Promise<void>>();
    const specs = { run: jest.fn(async () => Promise.reject(threadRangeError())) } as unknown as SpecThreads;
    const processor = new IndexingProcessor(
      { markFailed } as unknown as IndexStoreRepository,
      {} as ApiSpecsRepository,
      {} as TableStatsService,
      {} as ReindexService,
      new IndexingMetrics(new Registry()),
      {} as EmbeddingModelsService,
      specs,
      { indexLimits: {} } as AiConfig,
    );
    Object.assign(processor, { locks: { isHeld: async () => false } });
    const chunk = (processor as unknown as { chunk: (spec: string, facts: object) => Promise<unknown> }).chunk.bind(processor);
    const error = await chunk('asyncapi: 2.6.0', { name: 'Events', version: '1' }).then(
      () => new Error('chunked'),
      (reason: Error) => reason,
    );
    expect(error).toBeInstanceOf(SpecProcessingError);
    await processor.onFailed(failedJob(IndexingJobName.Index, 3, Date.now()) as unknown as Parameters<IndexingProcessor['onFailed']>[0], error);
    expect(markFailed).toHaveBeenCalledWith(
      'api-1',
      3,
      'Indexing failed after 3 attempts: the spec could not be processed (RangeError: Invalid string length)',
    );
  });
});
