import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { GatewayConfig } from '#config';
import { PeriodicJobs } from '#database';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { ConsumersRepository } from '../consumers/consumers.repository.js';
import { toldConsumers } from '../consumers/impact.js';
import { DomainEvent } from '../events/domain-event.js';
import { EventOutbox } from '../events/event-outbox.js';
import { ApiVersionsRepository } from './api-versions.repository.js';

/** Versions noticed per round: the rest wait for the next. */
const BATCH = 100;

/**
 * `api.sunset.approaching`, once per sunset date: a deprecated version whose sunset date is
 * SUNSET_NOTICE_DAYS away or less gets it with its consumers, and remembers the date it was sent
 * for (`api_versions.sunset_notified`), in the same transaction: a new date is noticed again.
 * One replica at a time (`PeriodicJobs`).
 */
@Injectable()
export class SunsetNotices implements OnApplicationBootstrap {
  private readonly logger = new Logger(SunsetNotices.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly versions: ApiVersionsRepository,
    private readonly consumers: ConsumersRepository,
    private readonly outbox: EventOutbox,
    private readonly jobs: PeriodicJobs,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.schedule({
      name: 'sunset-notices',
      intervalMs: this.config.sunsetNotice.intervalMs,
      runAtStart: true,
      run: async () => {
        await this.notice();
      },
      onError: (error) => this.logger.error(`Sunset notices failed: ${error.message}`),
    });
  }

  /** One round: every version due, each in its own transaction. */
  async notice(): Promise<number> {
    let sent = 0;
    for (;;) {
      const noticed = await this.dataSource.transaction(async (manager) => {
        const due = await this.versions.dueSunsets(manager, this.config.sunsetNotice.days, BATCH);
        const events: DomainEvent[] = [];
        for (const row of due) {
          const users = await this.consumers.ofVersion(row.api_id, row.version, row.version === row.recommended, manager);
          const api = { id: row.api_id, orgId: row.org_id, name: row.name, teamName: row.team_name };
          events.push(
            new DomainEvent('api.sunset.approaching', api, {
              version: row.version,
              sunsetDate: row.sunset_date,
              daysLeft: Number(row.days_left),
              ...toldConsumers(users),
            }),
          );
          await this.versions.markSunsetNoticed(manager, row.api_id, row.version);
        }
        await this.outbox.raise(manager, events);
        return due.length;
      });
      if (noticed > 0) this.outbox.committed();
      sent += noticed;
      if (noticed < BATCH) return sent;
    }
  }
}
