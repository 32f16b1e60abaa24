import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { Counter, Gauge, type Registry } from 'prom-client';
import { Repository } from 'typeorm';
import type { GatewayConfig } from '#config';
import { INDEXING_QUEUE, indexingJobId, IndexingJobName, type IndexState } from '#contracts';
import { PeriodicJobs } from '#database';
import { METRICS_REGISTRY } from '#http';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { AiClient } from '../ai-client/ai-client.js';
import { ApiEntity } from '../registry/api.entity.js';
import { DomainEvent } from '../events/domain-event.js';
import { EventOutbox } from '../events/event-outbox.js';
import { IndexingProducer } from './indexing.producer.js';

/** APIs checked per round (the AI app's status batch). */
const BATCH = 500;
/** Job states in which a job is still on its way to the index. */
const ON_ITS_WAY = new Set(['waiting', 'prioritized', 'delayed', 'active', 'waiting-children']);

type Outcome = 'settled' | 'purged' | 'requeued';

/**
 * Makes sure every registry revision reaches the index, whatever happened to Redis. The outbox
 * (`IndexingProducer`) stops once Redis accepted a job; if Redis then loses it (restarted without
 * persistence, a failover to an empty replica, FLUSHALL), nothing else would ever bring it back,
 * and the AI app cannot notice: it knows only the APIs whose jobs reached it. So, at start and
 * every RECONCILE_INTERVAL_MS, each revision queued more than RECONCILE_GRACE_MS ago that the
 * index has not reached is looked for in Redis and queued again if it is not there. Job ids are
 * per revision, so this never runs a job twice that Redis still holds. A revision the index
 * reached (indexed, failed for good, deleted) is marked settled and not looked at again.
 * One replica reconciles at a time (`PeriodicJobs`); the others count their rounds `elsewhere`.
 */
@Injectable()
export class IndexReconciler implements OnApplicationBootstrap {
  private readonly logger = new Logger(IndexReconciler.name);
  private readonly outcomes: Counter<'outcome'>;
  private readonly rounds: Counter<'result'>;
  private readonly unsettled: Gauge;

  constructor(
    @InjectRepository(ApiEntity) private readonly apis: Repository<ApiEntity>,
    @InjectQueue(INDEXING_QUEUE) private readonly queue: Queue,
    private readonly producer: IndexingProducer,
    private readonly ai: AiClient,
    private readonly outbox: EventOutbox,
    private readonly jobs: PeriodicJobs,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.outcomes = new Counter({
      name: 'reconcile_revisions_total',
      help: 'Registry revisions the reconciliation settled (the index reached them), purged (deletion confirmed) or queued again (Redis had lost the job)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.rounds = new Counter({
      name: 'reconcile_rounds_total',
      help: 'Reconciliation rounds: done, skipped (the AI app or Redis could not answer), or elsewhere (another replica leads the reconciliation)',
      labelNames: ['result'],
      registers: [registry],
    });
    this.unsettled = new Gauge({
      name: 'reconcile_unsettled_revisions',
      help: 'Registry revisions queued longer than the grace period that the index had not reached at the last round',
      registers: [registry],
    });
  }

  onApplicationBootstrap(): void {
    const { intervalMs } = this.config.reconcile;
    this.jobs.schedule({
      name: 'index-reconcile',
      intervalMs,
      runAtStart: true,
      run: () => this.round(),
      onError: (error) => this.logger.warn(`Reconciliation skipped (next round in ${intervalMs / 1000} s): ${error.message}`),
      onRound: (outcome) => this.rounds.inc({ result: outcome === 'failed' ? 'skipped' : outcome }),
    });
  }

  private async round(): Promise<void> {
    const waiting = await this.apis
      .createQueryBuilder('api')
      .where('api.settled_revision < api.revision AND api.queued_revision = api.revision')
      .andWhere(`api.queued_at <= now() - make_interval(secs => :grace)`, { grace: this.config.reconcile.graceMs / 1000 })
      .orderBy('api.queued_at', 'ASC')
      .limit(BATCH)
      .getMany();
    if (waiting.length === 0) {
      this.unsettled.set(0);
      return;
    }
    // The jobs first, then the index: a job that completes in between has committed before it
    // completed, so it is never taken for one that ended without reaching the index.
    const jobs = await Promise.all(waiting.map((api) => this.queue.getJobState(jobIdOf(api))));
    const states = await this.ai.indexStates(waiting);
    let unsettled = 0;
    for (const [index, api] of waiting.entries()) {
      const outcome = await this.check(api, states.get(api.id), jobs[index]);
      if (outcome) this.outcomes.inc({ outcome });
      if (outcome !== 'settled' && outcome !== 'purged') unsettled += 1;
    }
    this.unsettled.set(unsettled);
  }

  private async tellFailed(api: ApiEntity): Promise<void> {
    const status = (await this.ai.indexingStatuses([api])).get(api.id);
    const error = status?.error ?? `see GET /api-management/ai/indexing-status/${api.id}`;
    await this.outbox.publish([new DomainEvent('api.indexing.failed', api, { version: api.version, revision: api.revision, error })]);
  }

  private async check(api: ApiEntity, state: IndexState | undefined, jobState: string): Promise<Outcome | undefined> {
    const reached = state !== undefined && state.revision >= api.revision;
    if (api.deletedAt) {
      // Deleted in the index, or never indexed at all: nothing of it can be found.
      if (!state || (reached && state.deleted)) {
        await this.apis.delete({ id: api.id, revision: api.revision });
        return 'purged';
      }
    } else if (reached && (state.status === 'COMPLETED' || state.status === 'FAILED')) {
      // Told before it is settled: a crash in between tells twice (at least once), never not at all.
      if (state.status === 'FAILED' && state.revision === api.revision) await this.tellFailed(api);
      await this.apis.update({ id: api.id, revision: api.revision }, { settledRevision: api.revision, updatedAt: () => 'updated_at' });
      return 'settled';
    }
    if (ON_ITS_WAY.has(jobState)) return undefined;
    // Gone (Redis lost it), or ended without the index showing it (its outcome was lost): again.
    if (jobState !== 'unknown') await this.queue.remove(jobIdOf(api));
    await this.producer.enqueue(api);
    this.logger.warn(
      `API ${api.id} r${api.revision}: its indexing job was ${jobState === 'unknown' ? 'missing from Redis' : jobState} but the index has not reached it; queued again`,
    );
    return 'requeued';
  }
}

/** The job that carries the API's current revision to the index. */
function jobIdOf(api: ApiEntity): string {
  return indexingJobId(api.id, api.revision, api.deletedAt ? IndexingJobName.Delete : IndexingJobName.Index);
}
