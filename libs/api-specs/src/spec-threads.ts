import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { SpecFormat } from './formats/spec-format.js';
import { withoutInternals } from './error-summary.js';
import { type BusyReason, FairQueue, FairQueueBusyError, type Lane, type LaneLimits } from './fair-queue.js';
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
  /** Specs that may wait for a thread, in all; one more is refused at once (`SpecThreadsBusyError`). */
  queue: number;
  /** Specs of one tenant (org) that may wait for a thread; one more is refused at once (default: `queue`). */
  queuePerTenant?: number;
  /**
   * Threads one tenant may hold at once (default: every thread). Below `threads`, another tenant
   * always finds a thread free, even while this one's specs take a minute each.
   */
  threadsPerTenant?: number;
  /** A spec that waited this long for a thread is refused as busy, never run (default: `timeoutMs`). */
  maxWaitMs?: number;
  /**
   * The lower lane, for work no one waits for (`run(…, { background: true })`): it runs only when
   * no other task can start, on `threads - 1` threads at most (so that work someone waits for
   * always finds one), with these bounds on waiting (default: the others').
   */
  background?: { queue: number; queuePerTenant?: number; maxWaitMs: number };
  /** A spec a thread has not finished within this long is refused, and its thread replaced (SPEC_TIMEOUT_MS); waiting for a thread does not count. */
  timeoutMs: number;
  /** The formats specs are read in (`SPEC_FORMATS`); threads load each from its `moduleUrl`. */
  formats: readonly SpecFormat[];
}

/** Whose spec a task reads, and whether someone waits for it. */
export interface SpecRunOptions {
  /** The org the spec belongs to: tenants take turns at the threads (one default tenant when left out). */
  tenant?: string;
  /** No one waits for the answer (a lint after a registration): it yields to every other task. */
  background?: boolean;
}

/** Every thread is busy and the queue is full, or the spec waited too long: the caller should try again in `retryAfterSeconds`. */
export class SpecThreadsBusyError extends Error {
  override name = 'SpecThreadsBusyError';

  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
  }
}

// Room for swagger-parser's recursion through long `$ref` chains (MAX_REF_DEPTH), and a ceiling on
// what one spec may take of the process's memory: a thread that reaches it ends, not the app.
const RESOURCE_LIMITS = { stackSizeMb: 32, maxOldGenerationSizeMb: 1024 };
// Spec threads yield the cores to request handling and search.
const NICE_INCREMENT = 10;
const IDLE_MS = 60_000;
const DEFAULT_TENANT = '';

/**
 * Runs the CPU-heavy work on specs (parse, safety walk, dereference, chunk) in worker threads,
 * so that a large or hostile spec never holds up the thread that answers requests, with a time
 * budget per spec and a bounded queue. Tenants (orgs) take turns at the threads (`FairQueue`),
 * so that one org's large specs never hold up another's small ones.
 */
export class SpecThreads {
  private readonly pool: Piscina;
  /** Hands a thread to one task at a time, only when one is free: piscina never queues. */
  private readonly queue: FairQueue;
  private readonly limits: Record<Lane, LaneLimits>;

  constructor(private readonly options: SpecThreadsOptions) {
    const threads = Math.max(1, Math.min(options.threads, availableParallelism()));
    const interactive = { queue: options.queue, queuePerTenant: options.queuePerTenant ?? options.queue, maxWaitMs: options.maxWaitMs ?? options.timeoutMs };
    const background = options.background
      ? { ...options.background, queuePerTenant: options.background.queuePerTenant ?? options.background.queue }
      : interactive;
    this.limits = { interactive, background };
    this.queue = new FairQueue({
      slots: threads,
      slotsPerTenant: Math.max(1, Math.min(options.threadsPerTenant ?? threads, threads)),
      interactive,
      background: { ...background, slots: Math.max(1, threads - 1) },
    });
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
   * Runs one task when its tenant's turn comes. A spec's own problem (unreadable, over a limit,
   * too slow, too large to hold in memory) comes back as a `SpecRefusal`, in words its publisher
   * may read: a reason that quotes a library's error loses any stack frame and server path in it
   * (`withoutInternals`). A full queue, or a wait past `maxWaitMs`, throws `SpecThreadsBusyError`;
   * any other failure of the task throws its error as it was, for the caller to log (and to word
   * with `errorSummary` wherever a user sees it).
   */
  async run<K extends SpecTask>(
    task: K,
    input: SpecTaskInput<K>,
    { tenant = DEFAULT_TENANT, background = false }: SpecRunOptions = {},
  ): Promise<SpecTaskOutput<K>> {
    const lane: Lane = background ? 'background' : 'interactive';
    const release = await this.queue.acquire(tenant, lane).catch((error: unknown) => {
      if (error instanceof FairQueueBusyError) throw new SpecThreadsBusyError(this.busyReason(lane, error.reason), error.retryAfterSeconds);
      throw error;
    });
    try {
      // A thread started for the task (none was running, or the last was stopped) loads the
      // formats first: seconds on a busy machine, and not the spec's doing, so not timed.
      await this.pool.run(null, { name: 'ready' });
      // The time limit starts now, with a thread free for the task: its wait is not the spec's doing.
      const output: SpecTaskOutput<K> = await this.pool.run(input, { name: task, signal: AbortSignal.timeout(this.options.timeoutMs) });
      const { refused } = output as Partial<SpecRefusal>;
      return typeof refused === 'string' ? { ...output, refused: withoutInternals(refused) } : output;
    } catch (error) {
      const refusal = refusalOf(error as Error, this.options.timeoutMs);
      if (refusal) return refusal as SpecTaskOutput<K>;
      throw error;
    } finally {
      release();
    }
  }

  /** Waits for the tasks running (those waiting are refused as busy), then stops the threads. */
  async close(): Promise<void> {
    this.queue.close(stopping());
    await this.pool.close({ force: true });
  }

  /** Stops the threads now: for work whose result no one will wait for once the app stops. */
  async destroy(): Promise<void> {
    this.queue.close(stopping());
    await this.pool.destroy();
  }

  private busyReason(lane: Lane, reason: BusyReason): string {
    const { queue, queuePerTenant, maxWaitMs } = this.limits[lane];
    if (reason === 'queue') return `Every spec thread is busy and ${queue} specs are waiting for one`;
    if (reason === 'tenant-queue') return `Every spec thread this org may use is busy and ${queuePerTenant} of its specs are waiting for one`;
    return `No spec thread was free within ${maxWaitMs / 1000} s`;
  }
}

function stopping(): SpecThreadsBusyError {
  return new SpecThreadsBusyError('The spec threads are stopping', 1);
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
