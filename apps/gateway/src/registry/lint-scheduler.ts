import { Injectable, Logger } from '@nestjs/common';
import type { LintReport } from '#contracts';
import { errorSummary } from '#api-specs';
import { ApiVersionsRepository } from './api-versions.repository.js';
import { SpecWork } from './spec-work.service.js';

/**
 * Each revision is linted once: in the background as soon as it is registered, or, when the
 * threads were busy then (or the process stopped first), the first time someone asks for it.
 */
@Injectable()
export class LintScheduler {
  private readonly logger = new Logger(LintScheduler.name);

  constructor(
    private readonly versions: ApiVersionsRepository,
    private readonly specs: SpecWork,
  ) {}

  /** Lints a new revision in the background (`orgId`: the API's, whose turn at the spec threads it takes). */
  schedule(orgId: string, apiId: string, version: string, revision: number): void {
    void this.lintKept(orgId, apiId, version, revision, true).catch((error: unknown) =>
      this.logger.warn(`Lint of API ${apiId} version ${version} r${revision} not kept: ${errorSummary(error)}`),
    );
  }

  /** The revision's lint report, linted now if it has none yet (`undefined` when the revision is not kept). */
  async report(orgId: string, apiId: string, version: string, revision: number): Promise<LintReport | undefined> {
    return this.lintKept(orgId, apiId, version, revision, false);
  }

  private async lintKept(orgId: string, apiId: string, version: string, revision: number, quietly: boolean): Promise<LintReport | undefined> {
    const kept = await this.versions.revision(apiId, version, revision);
    if (!kept) return undefined;
    if (kept.lint) return kept.lint;
    const stored = { text: kept.spec, format: kept.kind };
    const report = quietly ? await this.specs.lintQuietly(orgId, stored, `API ${apiId} version ${version} r${revision}`) : await this.specs.lint(orgId, stored);
    if (report) await this.versions.saveLint(apiId, version, revision, report);
    return report;
  }
}
