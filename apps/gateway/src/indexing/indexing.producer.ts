import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { Repository } from 'typeorm';
import { type GatewayConfig, withTimeout } from '#config';
import { PeriodicJobs } from '#database';
import { throttledWarning } from '#http';
import { type DeleteApiJob, type IndexApiJob, INDEXING_JOB_OPTIONS, INDEXING_QUEUE, indexingJobId, IndexingJobName } from '#contracts';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { ApiEntity } from '../registry/api.entity.js';
import { ApiVersionsRepository } from '../registry/api-versions.repository.js';

const ENQUEUE_TIMEOUT_MS = 5000;
const SWEEP_BATCH = 100;

/**
 * Delivers registry changes to the indexing queue. The registry row is the outbox: a change is
 * durable once committed, and is re-sent until a job for its revision reaches Redis, so a
 * registration made while Redis is down is indexed once it is back. Job ids are per revision,
 * so sending twice is harmless. Each replica sends its own changes at once; one at a time
 * (`PeriodicJobs`) sweeps the outbox for what was left.
 */
@Injectable()
export class IndexingProducer implements OnApplicationBootstrap {
  private readonly logger = new Logger(IndexingProducer.name);

  constructor(
    @InjectQueue(INDEXING_QUEUE) private readonly queue: Queue,
    @InjectRepository(ApiEntity) private readonly apis: Repository<ApiEntity>,
    private readonly versions: ApiVersionsRepository,
    private readonly jobs: PeriodicJobs,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    // Without a listener BullMQ prints every reconnect failure; one line per interval is enough.
    const warn = throttledWarning(this.logger);
    this.queue.on('error', (error) => warn(`Indexing queue unavailable (requests are kept and re-sent): ${error.message}`));
  }

  onApplicationBootstrap(): void {
    // Re-sends everything not yet queued (Redis was down, or the process stopped mid-way).
    this.jobs.schedule({
      name: 'outbox-sweep',
      intervalMs: this.config.outboxIntervalMs,
      runAtStart: true,
      run: () => this.sendPending(),
      onError: (error) => this.logger.error(`Outbox sweep failed: ${error.message}`),
    });
  }

  /** Sends the newest revision of one API; returns false when it must wait for the next sweep. */
  async deliver(apiId: string): Promise<boolean> {
    const api = await this.apis.findOneBy({ id: apiId });
    if (!api || api.queuedRevision >= api.revision) return true;
    try {
      await withTimeout(this.enqueue(api), ENQUEUE_TIMEOUT_MS, `queue did not answer within ${ENQUEUE_TIMEOUT_MS} ms`);
    } catch (error) {
      this.logger.warn(`Indexing request for API ${apiId} r${api.revision} not queued yet: ${(error as Error).message}`);
      return false;
    }
    // A tombstone stays until the index confirms the deletion (`IndexReconciler`).
    await this.apis
      .createQueryBuilder()
      .update()
      .set({ queuedRevision: api.revision, queuedAt: () => 'now()', updatedAt: () => 'updated_at' })
      .where('id = :id AND queued_revision < :revision', { id: api.id, revision: api.revision })
      .execute();
    return true;
  }

  private async sendPending(): Promise<void> {
    const pending = await this.apis
      .createQueryBuilder('api')
      .select('api.id', 'id')
      .where('api.queued_revision < api.revision')
      .orderBy('api.updated_at', 'ASC')
      .limit(SWEEP_BATCH)
      .getRawMany<{ id: string }>();
    for (const { id } of pending) {
      if (!(await this.deliver(id))) break;
    }
  }

  /** Sends the job of the API's current revision (a no-op in Redis when that job is already there). */
  async enqueue(api: ApiEntity): Promise<void> {
    if (api.deletedAt) {
      const job: DeleteApiJob = { apiId: api.id, orgId: api.orgId, revision: api.revision };
      await this.queue.add(IndexingJobName.Delete, job, {
        ...INDEXING_JOB_OPTIONS,
        jobId: indexingJobId(api.id, api.revision, IndexingJobName.Delete),
      });
      return;
    }
    const indexed = await this.versions.forIndex(api);
    // A newer change deleted the version between the two reads: its own revision is sent next.
    if (!indexed) throw new Error(`API ${api.id} r${api.revision}: its recommended version "${api.version}" changed while it was sent`);
    const job: IndexApiJob = {
      apiId: api.id,
      orgId: api.orgId,
      revision: api.revision,
      name: api.name,
      version: api.version,
      ...(api.teamName ? { teamName: api.teamName } : {}),
      ...(api.description ? { description: api.description } : {}),
      labels: api.labels ?? {},
      spec: indexed.spec,
      format: api.kind,
      lifecycle: api.lifecycle,
      ...(api.sunsetDate ? { sunsetDate: api.sunsetDate } : {}),
      versions: indexed.versions,
    };
    await this.queue.add(IndexingJobName.Index, job, {
      ...INDEXING_JOB_OPTIONS,
      jobId: indexingJobId(api.id, api.revision, IndexingJobName.Index),
    });
  }
}
