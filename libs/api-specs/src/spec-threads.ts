import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { SpecFormat } from './formats/spec-format.js';
import { withoutInternals } from './error-summary.js';
import type { SpecRefusal } from './spec-tasks.js';
import type { changeReportOf, checkRegistration, chunksOf, lintOf, operationsOf, specDocumentOf } from './spec-worker.js';

/** Tasks a spec thread runs (see spec-tasks.ts). */
interface Tasks {
  checkRegistration: typeof checkRegistration;
  operationsOf: typeof operationsOf;
  chunksOf: typeof chunksOf;
  specDocumentOf: typeof specDocumentOf;
  changeReportOf: typeof changeReportOf;
  lintOf: typeof lintOf;
}
export type SpecTask = keyof Tasks;
export type SpecTaskInput<K extends SpecTask> = Parameters<Tasks[K]>[0];
export type SpecTaskOutput<K extends SpecTask> = Awaited<ReturnType<Tasks[K]>>;

export interface SpecThreadsOptions {
  /** Threads at most; each takes one spec at a time. */
  threads: number;
  /** Specs that may wait for a busy thread; one more is refused at once (`SpecThreadsBusyError`). */
  queue: number;
  /** A spec a thread has not finished within this long is refused, and its thread replaced (SPEC_TIMEOUT_MS). */
  timeoutMs: number;
  /** The formats specs are read in (`SPEC_FORMATS`); threads load each from its `moduleUrl`. */
  formats: readonly SpecFormat[];
}

/** Every thread is busy and the queue is full: the caller should try again shortly. */
export class SpecThreadsBusyError extends Error {
  override name = 'SpecThreadsBusyError';
}

// Room for swagger-parser's recursion through long `$ref` chains (MAX_REF_DEPTH), and a ceiling on
// what one spec may take of the process's memory: a thread that reaches it ends, not the app.
const RESOURCE_LIMITS = { stackSizeMb: 32, maxOldGenerationSizeMb: 1024 };
// Spec threads yield the cores to request handling and search.
const NICE_INCREMENT = 10;
const IDLE_MS = 60_000;

/**
 * Runs the CPU-heavy work on specs (parse, safety walk, dereference, chunk) in worker threads,
 * so that a large or hostile spec never holds up the thread that answers requests, with a time
 * budget per spec and a bounded queue.
 */
export class SpecThreads {
  private readonly pool: Piscina;
  private readonly capacity: number;
  /** Tasks running or waiting (piscina's own queue bound does not count tasks that wait for a thread to start). */
  private inFlight = 0;

  constructor(private readonly options: SpecThreadsOptions) {
    const threads = Math.max(1, Math.min(options.threads, availableParallelism()));
    this.capacity = threads + options.queue;
    this.pool = new Piscina({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_MS,
      resourceLimits: RESOURCE_LIMITS,
      niceIncrement: NICE_INCREMENT,
      workerData: { formatModules: options.formats.map((format) => runnable(format.moduleUrl)) },
    });
  }

  /**
   * Runs one task. A spec's own problem (unreadable, over a limit, too slow, too large to hold in
   * memory) comes back as a `SpecRefusal`, in words its publisher may read: a reason that quotes a
   * library's error loses any stack frame and server path in it (`withoutInternals`). A full queue
   * throws `SpecThreadsBusyError`; any other failure of the task throws its error as it was, for
   * the caller to log (and to word with `errorSummary` wherever a user sees it).
   */
  async run<K extends SpecTask>(task: K, input: SpecTaskInput<K>): Promise<SpecTaskOutput<K>> {
    if (this.inFlight >= this.capacity) throw new SpecThreadsBusyError('Every spec thread is busy; try again shortly');
    this.inFlight += 1;
    try {
      const output: SpecTaskOutput<K> = await this.pool.run(input, { name: task, signal: AbortSignal.timeout(this.options.timeoutMs) });
      const { refused } = output as Partial<SpecRefusal>;
      return typeof refused === 'string' ? { ...output, refused: withoutInternals(refused) } : output;
    } catch (error) {
      const refusal = refusalOf(error as Error, this.options.timeoutMs);
      if (refusal) return refusal as SpecTaskOutput<K>;
      throw error;
    } finally {
      this.inFlight -= 1;
    }
  }

  /** Waits for the tasks running (queued ones are dropped), then stops the threads. */
  async close(): Promise<void> {
    await this.pool.close({ force: true });
  }

  /** Stops the threads now: for work whose result no one will wait for once the app stops. */
  async destroy(): Promise<void> {
    await this.pool.destroy();
  }
}

/** What a failure of the thread (not of the task's own code) means for the spec in it. */
function refusalOf(error: Error & { code?: string }, timeoutMs: number): SpecRefusal | undefined {
  if (error.name === 'AbortError') {
    return { refused: `Reading the spec took longer than ${timeoutMs / 1000} s (SPEC_TIMEOUT_MS): it is too large or too complex to index` };
  }
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return { refused: `Reading the spec needed more than ${RESOURCE_LIMITS.maxOldGenerationSizeMb} MB of memory: it is too large or too complex to index` };
  }
  return undefined;
}

/**
 * The thread's entry module. A worker thread is plain Node: under Jest, which runs this module
 * from its TypeScript source, the thread runs the build instead (`npm test` builds first).
 */
function workerFile(): string {
  return fileURLToPath(runnable(new URL('spec-worker.js', import.meta.url).href));
}

/** A module's URL as plain Node runs it: a TypeScript source's build under `dist/`. */
function runnable(moduleUrl: string): string {
  const path = fileURLToPath(moduleUrl);
  if (path.endsWith('.js') && existsSync(path)) return moduleUrl;
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
  return pathToFileURL(join(root, 'dist', relative(root, path)).replace(/\.ts$/, '.js')).href;
}
