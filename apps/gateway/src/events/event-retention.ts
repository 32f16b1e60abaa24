import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { GatewayConfig } from '#config';
import { PeriodicJobs } from '#database';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { EventOutbox } from './event-outbox.js';

const PURGE_EVERY_MS = 3_600_000;
/** Events purged per statement: a long backlog goes in short transactions. */
const BATCH = 1000;

/**
 * The outbox is also the feed's and the deliveries' history: an event goes EVENT_RETENTION_DAYS
 * after it was written, once dispatched and no delivery of it is still being tried (its
 * deliveries go with it). One replica at a time.
 */
@Injectable()
export class EventRetention implements OnApplicationBootstrap {
  private readonly logger = new Logger(EventRetention.name);

  constructor(
    private readonly outbox: EventOutbox,
    private readonly jobs: PeriodicJobs,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.schedule({
      name: 'event-retention',
      intervalMs: PURGE_EVERY_MS,
      runAtStart: true,
      run: async () => {
        await this.purge();
      },
      onError: (error) => this.logger.error(`Event purge failed: ${error.message}`),
    });
  }

  async purge(): Promise<number> {
    let purged = 0;
    for (;;) {
      const count = await this.outbox.purge(this.config.eventRetentionDays, BATCH);
      purged += count;
      if (count < BATCH) return purged;
    }
  }
}
