import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { ReplicaLeases } from './replica-leases.js';

/** How a round ended: run here, led by another replica, or failed (told through `onError`). */
export type RoundOutcome = 'done' | 'elsewhere' | 'failed';

/** Work that recurs, led by one replica at a time (the holder of the lease named after it). */
export interface PeriodicJob {
  /** The job's lease row: keep it stable, so that replicas of two versions race for the same one. */
  name: string;
  /** Time between rounds; a leader's lease lasts three of them, renewed every one while a round runs. */
  intervalMs: number;
  /** The first round at once, at the start, rather than one interval later. */
  runAtStart?: boolean;
  /** One round, on the leader only. */
  run(): Promise<void>;
  /** Tells of a round that threw; the next tick tries again. */
  onError(error: Error): void;
  /** Each round's outcome, for metrics. */
  onRound?(outcome: RoundOutcome): void;
}

/**
 * The one owner of recurring work (Backstage's scheduler is the model): a timer per job, a round
 * only on the replica holding the job's lease (`ReplicaLeases`), never two rounds of a job at once
 * (a tick that finds one under way is skipped), and errors told, never thrown. On shutdown the
 * timers stop, the rounds under way are awaited, and then the leases are given up. That happens
 * before any `onApplicationShutdown`, so a round never outlives the connections it uses.
 */
export class PeriodicJobs implements BeforeApplicationShutdown {
  private readonly timers: NodeJS.Timeout[] = [];
  /** Rounds under way, by job name. */
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(private readonly leases: ReplicaLeases) {}

  /** Runs `job` every `intervalMs` from now until the app stops. */
  schedule(job: PeriodicJob): void {
    const timer = setInterval(() => this.tick(job), job.intervalMs);
    timer.unref();
    this.timers.push(timer);
    if (job.runAtStart) this.tick(job);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.timers.forEach(clearInterval);
    await Promise.all(this.running.values());
    await this.leases.releaseAll().catch(() => undefined);
  }

  private tick(job: PeriodicJob): void {
    if (this.stopped || this.running.has(job.name)) return;
    this.running.set(
      job.name,
      this.round(job).finally(() => this.running.delete(job.name)),
    );
  }

  private async round(job: PeriodicJob): Promise<void> {
    let outcome: RoundOutcome;
    try {
      outcome = (await this.leases.runIfLeader(job.name, job.intervalMs, () => job.run())) ? 'done' : 'elsewhere';
    } catch (error) {
      outcome = 'failed';
      job.onError(error as Error);
    }
    job.onRound?.(outcome);
  }
}
