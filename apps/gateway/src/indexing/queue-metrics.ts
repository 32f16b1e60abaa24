import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Gauge, type Registry } from 'prom-client';
import { INDEXING_QUEUE } from '#contracts';
import { METRICS_REGISTRY } from '#http';

const STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'] as const;

/** Indexing queue depth by job state, read from Redis when Prometheus scrapes. */
@Injectable()
export class QueueMetrics {
  constructor(@Inject(METRICS_REGISTRY) registry: Registry, @InjectQueue(INDEXING_QUEUE) queue: Queue) {
    new Gauge({
      name: 'indexing_queue_jobs',
      help: 'Jobs in the indexing queue by state',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        // Redis down: report nothing rather than fail the scrape.
        const counts = await queue.getJobCounts(...STATES).catch(() => undefined);
        if (counts) for (const state of STATES) this.set({ state }, counts[state] ?? 0);
      },
    });
  }
}
