import { Inject, Injectable } from '@nestjs/common';
import { Counter, Histogram, type Registry } from 'prom-client';
import { METRICS_REGISTRY } from '#http';

/** What the indexing worker reports to Prometheus. */
@Injectable()
export class IndexingMetrics {
  readonly jobs: Counter<'kind' | 'outcome'>;
  readonly duration: Histogram<'kind'>;
  readonly embeddingBatch: Histogram;
  readonly embeddingSeconds: Histogram;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    this.jobs = new Counter({
      name: 'indexing_jobs_total',
      help: 'Indexing job attempts by kind and outcome (completed, skipped, failed for good, error: retried)',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'indexing_duration_seconds',
      help: 'Time from a job starting to its API being indexed (or failed)',
      labelNames: ['kind'],
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [registry],
    });
    this.embeddingBatch = new Histogram({
      name: 'embedding_batch_size',
      help: 'Texts sent to the embedding provider in one call (after the content-hash cache)',
      buckets: [0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500],
      registers: [registry],
    });
    this.embeddingSeconds = new Histogram({
      name: 'embedding_duration_seconds',
      help: 'Time the embedding provider took for one call',
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    });
  }
}
