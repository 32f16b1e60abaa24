import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { GatewayConfig } from '#config';
import { errorSummary } from '#api-specs';
import { PeriodicJobs } from '#database';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { ApiVersionsRepository } from '../registry/api-versions.repository.js';
import { ImportService } from './import.service.js';
import { ImportSlots } from './import-slots.js';

/** URLs refreshed per round: a round stays short, and the next takes the rest. */
export const REFRESH_BATCH = 20;
/** How often a round looks for URLs due (or IMPORT_REFRESH_INTERVAL_MS, when shorter). */
const ROUND_EVERY_MS = 60_000;

/**
 * With IMPORT_REFRESH_INTERVAL_MS set, fetches every imported URL again once its last fetch is
 * that old: each round takes the longest unfetched first, one at a time (a spec server is not
 * hammered), at most `REFRESH_BATCH`. One round at a time in this process, and across replicas
 * (`PeriodicJobs`). Each fetch takes a spare slot of the imports' bound (`ImportSlots`): when
 * people's imports leave none, the round ends there and the next takes the rest, longest unfetched
 * first. It never waits for one: that would hold the round's lease, and take the slot that frees
 * ahead of the next person.
 */
@Injectable()
export class ImportRefreshScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(ImportRefreshScheduler.name);

  constructor(
    private readonly repository: ApiVersionsRepository,
    private readonly imports: ImportService,
    private readonly jobs: PeriodicJobs,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly slots: ImportSlots,
  ) {}

  onApplicationBootstrap(): void {
    const interval = this.config.import.refreshIntervalMs;
    if (interval === 0) return;
    this.jobs.schedule({
      name: 'import-refresh',
      intervalMs: Math.min(interval, ROUND_EVERY_MS),
      run: () => this.refreshDue(),
      onError: (error) => this.logger.warn(`Import refresh round skipped: ${errorSummary(error)}`),
    });
  }

  private async refreshDue(): Promise<void> {
    const due = await this.repository.urlSourcesDue(this.config.import.refreshIntervalMs, REFRESH_BATCH);
    for (const [done, api] of due.entries()) {
      const slot = this.slots.acquireSpare();
      if (!slot) {
        this.logger.log(`Import refresh round ended after ${done} of ${due.length}: people's imports hold the slots (IMPORT_MAX_IN_FLIGHT)`);
        return;
      }
      // The outcome is on the record (`source.lastError`); an API deleted meanwhile is no matter.
      await this.imports
        .refreshApi(api)
        .catch((error: unknown) => this.logger.warn(`Refresh of API ${api.id} not recorded: ${errorSummary(error)}`))
        .finally(() => slot.release());
    }
  }
}
