import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { prepareDataSource, type PreparedDataSource } from './data-source-options.js';
import { PeriodicJobs, type RoundOutcome } from './periodic-jobs.js';
import { ReplicaLeases } from './replica-leases.js';

/** A round that runs until `finish` is called, counting how many started. */
function gatedRounds() {
  let finish = () => {};
  const rounds = { started: 0, finish: () => finish() };
  const run = () => {
    rounds.started += 1;
    return new Promise<void>((resolve) => (finish = resolve));
  };
  return { rounds, run };
}

/** Resolves once `condition` holds, checking every few milliseconds (real timers). */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms: ${condition.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe(PeriodicJobs.name, () => {
  describe('on a replica that leads', () => {
    let released: number;
    const leader = {
      runIfLeader: async (_job: string, _everyMs: number, work: () => Promise<void>) => {
        await work();
        return true;
      },
      releaseAll: async () => void (released += 1),
    };
    const scheduler = () => {
      released = 0;
      return new PeriodicJobs(leader as unknown as ReplicaLeases);
    };

    beforeAll(() => void jest.useFakeTimers());
    afterAll(() => void jest.useRealTimers());

    it('should skip the ticks that come while a round still runs', async () => {
      const jobs = scheduler();
      const { rounds, run } = gatedRounds();
      jobs.schedule({ name: 'overlap', intervalMs: 1000, run, onError: () => undefined });
      await jest.advanceTimersByTimeAsync(1000);
      expect(rounds.started).toBe(1);
      await jest.advanceTimersByTimeAsync(5000);
      expect(rounds.started).toBe(1);
      rounds.finish();
      await jest.advanceTimersByTimeAsync(1000);
      expect(rounds.started).toBe(2);
      rounds.finish();
      await jobs.beforeApplicationShutdown();
    });

    it('should tell of a failed round and try again at the next tick', async () => {
      const jobs = scheduler();
      const errors: string[] = [];
      const outcomes: RoundOutcome[] = [];
      jobs.schedule({
        name: 'failing',
        intervalMs: 1000,
        runAtStart: true,
        run: async () => Promise.reject(new Error('database away')),
        onError: (error) => errors.push(error.message),
        onRound: (outcome) => outcomes.push(outcome),
      });
      await jest.advanceTimersByTimeAsync(1000);
      expect(errors).toEqual(['database away', 'database away']);
      expect(outcomes).toEqual(['failed', 'failed']);
      await jobs.beforeApplicationShutdown();
    });

    it('should stop its timers on shutdown, wait for the round under way, then give up its leases', async () => {
      const jobs = scheduler();
      const { rounds, run } = gatedRounds();
      jobs.schedule({ name: 'long', intervalMs: 1000, runAtStart: true, run, onError: () => undefined });
      let stopped = false;
      const stopping = jobs.beforeApplicationShutdown().then(() => (stopped = true));
      await jest.advanceTimersByTimeAsync(5000);
      expect(stopped).toBe(false);
      expect(released).toBe(0);
      rounds.finish();
      await stopping;
      expect(rounds.started).toBe(1);
      expect(released).toBe(1);
    });
  });

  describe('on replicas sharing a database', () => {
    let prepared: PreparedDataSource;
    let db: DataSource;
    const table = 'public.leases';
    const stopping: PeriodicJobs[] = [];
    const replica = () => {
      const jobs = new PeriodicJobs(new ReplicaLeases(db, table));
      stopping.push(jobs);
      return jobs;
    };

    beforeAll(async () => {
      prepared = await prepareDataSource({
        target: { pgliteDir: 'memory://', poolSize: 1, migrate: false },
        entities: [],
        migrations: [],
        migrationsTableName: 'migrations',
      });
      db = await new DataSource({ ...prepared.options, migrationsRun: false }).initialize();
      await db.query(`CREATE TABLE ${table} (job text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)`);
    }, 60_000);

    afterEach(async () => {
      await Promise.all(stopping.splice(0).map((jobs) => jobs.beforeApplicationShutdown()));
    });

    afterAll(async () => {
      await db?.destroy();
      await prepared?.pglite?.close();
    });

    it('should run a job on one replica only, until that replica gives its lease up', async () => {
      const first = replica();
      const { rounds, run } = gatedRounds();
      first.schedule({ name: 'shared', intervalMs: 1000, runAtStart: true, run, onError: () => undefined });
      await until(() => rounds.started === 1);

      const second = replica();
      const outcomes: RoundOutcome[] = [];
      second.schedule({
        name: 'shared',
        intervalMs: 1000,
        runAtStart: true,
        run: async () => undefined,
        onError: () => undefined,
        onRound: (outcome) => outcomes.push(outcome),
      });
      await until(() => outcomes.length === 2);
      expect(outcomes).toEqual(['elsewhere', 'elsewhere']);

      rounds.finish();
      await first.beforeApplicationShutdown();
      await until(() => outcomes.includes('done'));
      expect(rounds.started).toBe(1);
    });
  });
});
