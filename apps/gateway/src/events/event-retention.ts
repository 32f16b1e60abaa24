import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { GatewayConfig } from '#config';
import { PeriodicJobs } from '#database';
import { GATEWAY_CONFIG } from '../gateway.constants.js';

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
    @InjectDataSource() private readonly dataSource: DataSource,
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
      const rows: unknown[] = await this.dataSource.query(
        `DELETE FROM platform_backend.events WHERE id IN (
           SELECT e.id FROM platform_backend.events e
            WHERE e.created_at < now() - make_interval(days => $1) AND e.dispatched_at IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM platform_backend.webhook_deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
            ORDER BY e.seq LIMIT $2)
         RETURNING id`,
        [this.config.eventRetentionDays, BATCH],
      );
      purged += rows.length;
      if (rows.length < BATCH) return purged;
    }
  }
}
