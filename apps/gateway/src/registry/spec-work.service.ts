import {
  BadRequestException,
  HttpException,
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  PayloadTooLargeException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ANSWER_MAX_CHARS, type ApiEndpoint, type ChangeReport, type LintReport } from '#contracts';
import type { GatewayConfig } from '#config';
import { fitJson, ServiceBusyException } from '#http';
import {
  type CheckedSpec,
  errorSummary,
  isRefusal,
  SPEC_FORMATS,
  SPEC_LIMITS,
  type SpecFormats,
  type SpecRefusal,
  type SpecRunOptions,
  type SpecTask,
  type SpecTaskInput,
  type SpecTaskOutput,
  SpecThreads,
  SpecThreadsBusyError,
  type StoredSpec,
} from '#api-specs';
import { GATEWAY_CONFIG } from '../gateway.constants.js';

/** Change reports kept: the pairs people are looking at, and those registrations just compared. */
const REPORTS_KEPT = 64;
/** Threads per pool: two, so that one org may hold one and another org always finds the other. */
const THREADS = 2;
/** A background lint waits this long for a thread at most; then it is left for the first reader to ask for. */
const BACKGROUND_MAX_WAIT_MS = 10 * 60_000;

/**
 * The registry's CPU-heavy work on specs, on spec threads: checking a registration (parse, safety
 * limits), listing operations, comparing two specs and linting one. Two pools, so that a lint or
 * a change report someone asked for (Spectral takes seconds on a large spec) never holds up a
 * registration: `checks` answers registrations, `analysis` the rest. In each, orgs take turns and
 * one org holds one thread of the two at most, so that no org's large specs hold up another's
 * (`SpecThreads`); a lint no one waits for yields to every other task. Every method takes the org
 * the spec belongs to.
 */
@Injectable()
export class SpecWork implements OnApplicationShutdown {
  private readonly logger = new Logger(SpecWork.name);
  private readonly checks: SpecThreads;
  private readonly analysis: SpecThreads;
  private readonly reports = new LRUCache<string, ChangeReport>({ max: REPORTS_KEPT });

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(SPEC_FORMATS) private readonly formats: SpecFormats,
  ) {
    // A spec waits for a thread up to SPEC_TIMEOUT_MS (then 503): at the head of its org's queue,
    // as long as the org's task ahead of it may run.
    const threads = { threads: THREADS, threadsPerTenant: THREADS - 1, timeoutMs: config.specTimeoutMs, formats: formats.all };
    // A 10 MB YAML text takes seconds to check; a burst beyond the threads waits, briefly.
    this.checks = new SpecThreads({ ...threads, queue: 32, queuePerTenant: 8 });
    // A lint of a large spec takes up to a minute. Queued background lints have a lane of their
    // own, so that they never fill the queue a person's change report or lint waits in.
    this.analysis = new SpecThreads({
      ...threads,
      queue: 16,
      queuePerTenant: 4,
      background: { queue: 16, queuePerTenant: 4, maxWaitMs: BACKGROUND_MAX_WAIT_MS },
    });
  }

  /**
   * A registration being checked finishes; a background lint is stopped: its report could not be
   * kept once the database closes, and a large spec's lint would hold the shutdown up to 60 s
   * (it is linted again on first request, see `LintScheduler`).
   */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.checks.close(), this.analysis.destroy()]);
  }

  /**
   * The checks the indexing worker repeats (size, a format that reads it, its safety limits), so
   * that a bad spec is refused at once: its text as the registry stores it, and its kind.
   */
  async check(orgId: string, { spec, format }: { spec: string | Record<string, unknown>; format?: string }): Promise<CheckedSpec> {
    if (format !== undefined && !this.formats.byKind(format)) {
      throw new BadRequestException(`format must be one of ${this.formats.kinds.join(', ')} (or left out to detect it)`);
    }
    const checked = await run(this.checks, 'checkRegistration', { spec, format, maxBytes: this.config.specMaxBytes }, { tenant: orgId });
    if (isRefusal(checked)) throw refused(checked);
    return checked;
  }

  /** Every operation of a registered spec, within the answer's size limit. */
  async operations(orgId: string, stored: StoredSpec): Promise<{ items: ApiEndpoint[]; cuts?: string[] }> {
    const read = await run(this.checks, 'operationsOf', stored, { tenant: orgId });
    if (isRefusal(read)) throw new UnprocessableEntityException(`The registered spec cannot be read: ${read.refused}`);
    const { value, cuts } = fitJson(read.operations, ANSWER_MAX_CHARS.endpoints, { items: SPEC_LIMITS.maxOperations });
    return { items: value, ...(cuts.length ? { cuts } : {}) };
  }

  /**
   * What changed from one kept revision to another (`key` names the pair: revisions never change,
   * so a report is kept). `forRegistration`: on the registrations' threads, as part of one.
   */
  async changes(orgId: string, key: string, from: StoredSpec, to: StoredSpec, forRegistration = false): Promise<ChangeReport> {
    const kept = this.reports.get(key);
    if (kept) return kept;
    const report = await this.compare(orgId, from, to, forRegistration);
    this.reports.set(key, report);
    return report;
  }

  /** What changed from a kept revision to a spec being registered. */
  compare(orgId: string, from: StoredSpec, to: StoredSpec, forRegistration: boolean): Promise<ChangeReport> {
    const input = { from, to, maxChars: this.config.operationDetailMaxChars };
    return run(forRegistration ? this.checks : this.analysis, 'changeReportOf', input, { tenant: orgId }).then((report) => {
      if (isRefusal(report)) throw new UnprocessableEntityException(`The specs cannot be compared: ${report.refused}`);
      return report;
    });
  }

  /** The spec's lint findings (Spectral, or its format's own rules). */
  async lint(orgId: string, stored: StoredSpec, background = false): Promise<LintReport> {
    const report = await run(this.analysis, 'lintOf', stored, { tenant: orgId, background });
    if (isRefusal(report)) throw new UnprocessableEntityException(`The spec cannot be linted: ${report.refused}`);
    return report;
  }

  /**
   * Lints in the background, after every task someone waits for; when the threads stay busy
   * (BACKGROUND_MAX_WAIT_MS) it is left for the first reader to ask for (`undefined`).
   */
  async lintQuietly(orgId: string, stored: StoredSpec, what: string): Promise<LintReport | undefined> {
    try {
      return await this.lint(orgId, stored, true);
    } catch (error) {
      if (!(error instanceof ServiceBusyException)) this.logger.warn(`Lint of ${what} failed: ${errorSummary(error)}`);
      return undefined;
    }
  }
}

/** Runs a task in the org's turn; busy is a 503 whose Retry-After is what the queue ahead is expected to take. */
async function run<K extends SpecTask>(threads: SpecThreads, task: K, input: SpecTaskInput<K>, options: SpecRunOptions): Promise<SpecTaskOutput<K>> {
  try {
    return await threads.run(task, input, options);
  } catch (error) {
    if (error instanceof SpecThreadsBusyError)
      throw new ServiceBusyException(`${error.message}; try again in ${error.retryAfterSeconds} s`, error.retryAfterSeconds);
    throw error;
  }
}

function refused(refusal: SpecRefusal): HttpException {
  return refusal.tooLarge ? new PayloadTooLargeException(refusal.refused) : new UnprocessableEntityException(refusal.refused);
}
