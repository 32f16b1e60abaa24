import { BadRequestException, HttpException, Inject, Injectable, Logger, type OnApplicationShutdown, PayloadTooLargeException, UnprocessableEntityException } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ANSWER_MAX_CHARS, type ApiEndpoint, type ChangeReport, type LintReport } from '#contracts';
import type { GatewayConfig } from '#config';
import { fitJson, ServiceBusyException } from '#http';
import { type CheckedSpec, errorSummary, isRefusal, SPEC_FORMATS, SPEC_LIMITS, type SpecFormats, type SpecRefusal, type SpecTask, type SpecTaskInput, type SpecTaskOutput, SpecThreads, SpecThreadsBusyError, type StoredSpec } from '#api-specs';
import { GATEWAY_CONFIG } from '../gateway.constants.js';

/** Change reports kept: the pairs people are looking at, and those registrations just compared. */
const REPORTS_KEPT = 64;

/**
 * The registry's CPU-heavy work on specs, on spec threads: checking a registration (parse, safety
 * limits), listing operations, comparing two specs and linting one. Two pools, so that a lint or
 * a change report someone asked for (Spectral takes seconds on a large spec) never holds up a
 * registration: `checks` answers registrations, `analysis` the rest.
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
    const threads = { timeoutMs: config.specTimeoutMs, formats: formats.all };
    // Two threads check specs (a 10 MB YAML text takes seconds); a burst beyond them waits, briefly.
    this.checks = new SpecThreads({ ...threads, threads: 2, queue: 32 });
    this.analysis = new SpecThreads({ ...threads, threads: 1, queue: 16 });
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
  async check({ spec, format }: { spec: string | Record<string, unknown>; format?: string }): Promise<CheckedSpec> {
    if (format !== undefined && !this.formats.byKind(format)) {
      throw new BadRequestException(`format must be one of ${this.formats.kinds.join(', ')} (or left out to detect it)`);
    }
    const checked = await run(this.checks, 'checkRegistration', { spec, format, maxBytes: this.config.specMaxBytes });
    if (isRefusal(checked)) throw refused(checked);
    return checked;
  }

  /** Every operation of a registered spec, within the answer's size limit. */
  async operations(stored: StoredSpec): Promise<{ items: ApiEndpoint[]; cuts?: string[] }> {
    const read = await run(this.checks, 'operationsOf', stored);
    if (isRefusal(read)) throw new UnprocessableEntityException(`The registered spec cannot be read: ${read.refused}`);
    const { value, cuts } = fitJson(read.operations, ANSWER_MAX_CHARS.endpoints, { items: SPEC_LIMITS.maxOperations });
    return { items: value, ...(cuts.length ? { cuts } : {}) };
  }

  /**
   * What changed from one kept revision to another (`key` names the pair: revisions never change,
   * so a report is kept). `forRegistration`: on the registrations' threads, as part of one.
   */
  async changes(key: string, from: StoredSpec, to: StoredSpec, forRegistration = false): Promise<ChangeReport> {
    const kept = this.reports.get(key);
    if (kept) return kept;
    const report = await this.compare(from, to, forRegistration);
    this.reports.set(key, report);
    return report;
  }

  /** What changed from a kept revision to a spec being registered. */
  compare(from: StoredSpec, to: StoredSpec, forRegistration: boolean): Promise<ChangeReport> {
    return run(forRegistration ? this.checks : this.analysis, 'changeReportOf', { from, to, maxChars: this.config.operationDetailMaxChars }).then((report) => {
      if (isRefusal(report)) throw new UnprocessableEntityException(`The specs cannot be compared: ${report.refused}`);
      return report;
    });
  }

  /** The spec's lint findings (Spectral, or its format's own rules). */
  async lint(stored: StoredSpec): Promise<LintReport> {
    const report = await run(this.analysis, 'lintOf', stored);
    if (isRefusal(report)) throw new UnprocessableEntityException(`The spec cannot be linted: ${report.refused}`);
    return report;
  }

  /** Lints in the background; when the threads are busy it is left for the first reader to ask for (`undefined`). */
  async lintQuietly(stored: StoredSpec, what: string): Promise<LintReport | undefined> {
    try {
      return await this.lint(stored);
    } catch (error) {
      if (!(error instanceof ServiceBusyException)) this.logger.warn(`Lint of ${what} failed: ${errorSummary(error)}`);
      return undefined;
    }
  }
}

async function run<K extends SpecTask>(threads: SpecThreads, task: K, input: SpecTaskInput<K>): Promise<SpecTaskOutput<K>> {
  try {
    return await threads.run(task, input);
  } catch (error) {
    if (error instanceof SpecThreadsBusyError) throw new ServiceBusyException(`${error.message}: many specs are being read right now`, 2);
    throw error;
  }
}

function refused(refusal: SpecRefusal): HttpException {
  return refusal.tooLarge ? new PayloadTooLargeException(refusal.refused) : new UnprocessableEntityException(refusal.refused);
}
