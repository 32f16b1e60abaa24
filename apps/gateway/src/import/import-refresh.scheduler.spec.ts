import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ApiRefreshResult } from '#contracts';
import type { GatewayConfig } from '#config';
import { PeriodicJobs, type ReplicaLeases } from '#database';
import type { ApiEntity } from '../registry/api.entity.js';
import type { ApiVersionsRepository } from '../registry/api-versions.repository.js';
import { ImportRefreshScheduler, REFRESH_BATCH } from './import-refresh.scheduler.js';
import type { ImportService } from './import.service.js';
import { ImportSlots } from './import-slots.js';

describe(ImportRefreshScheduler.name, () => {
  const config = { import: { refreshIntervalMs: 3_600_000, maxInFlight: 3, maxInFlightPerCaller: 2 } } as GatewayConfig;
  /** A round a minute: the refresh interval (an hour) is longer. */
  const ROUND_EVERY_MS = 60_000;

  beforeEach(() => void jest.useFakeTimers());
  afterEach(() => void jest.useRealTimers());

  /** A scheduled refresh whose fetches wait for `release`, recording what ran and how many at once. */
  function scheduler(options: { anotherReplicaRuns?: boolean; slots?: ImportSlots } = {}) {
    const apis = ['a', 'b', 'c'].map((id) => ({ id }) as ApiEntity);
    const log = { rounds: [] as [string, number][], refreshed: [] as string[], due: [] as [number, number][], atOnce: 0, most: 0, slotsInUse: 0 };
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let lastRound: Promise<boolean> = Promise.resolve(true);
    const leases = {
      runIfLeader: (job: string, roundEveryMs: number, work: () => Promise<void>) => {
        log.rounds.push([job, roundEveryMs]);
        lastRound = options.anotherReplicaRuns ? Promise.resolve(false) : work().then(() => true);
        return lastRound;
      },
      releaseAll: async () => undefined,
    } as unknown as ReplicaLeases;
    const repository = {
      urlSourcesDue: async (olderThanMs: number, limit: number) => {
        log.due.push([olderThanMs, limit]);
        return apis;
      },
    } as unknown as ApiVersionsRepository;
    const slots = options.slots ?? new ImportSlots(config);
    const imports = {
      refreshApi: async (api: ApiEntity): Promise<ApiRefreshResult> => {
        log.most = Math.max(log.most, ++log.atOnce);
        log.slotsInUse = Math.max(log.slotsInUse, slots.count());
        await released;
        log.atOnce -= 1;
        log.refreshed.push(api.id);
        return { outcome: 'unchanged', apiId: api.id };
      },
    } as unknown as ImportService;
    const jobs = new PeriodicJobs(leases);
    new ImportRefreshScheduler(repository, imports, jobs, config, slots).onApplicationBootstrap();
    /** The next tick's round, run to its end. */
    const round = async () => {
      await jest.advanceTimersByTimeAsync(ROUND_EVERY_MS);
      await lastRound;
    };
    return { jobs, round, log, release };
  }

  it('should refresh the due APIs one at a time, and not start a second round while one runs', async () => {
    const { jobs, log, release } = scheduler();
    await jest.advanceTimersByTimeAsync(2 * ROUND_EVERY_MS);
    release();
    await jobs.beforeApplicationShutdown();
    expect(log.rounds).toEqual([['import-refresh', ROUND_EVERY_MS]]);
    expect(log.due).toEqual([[3_600_000, REFRESH_BATCH]]);
    expect(log.refreshed).toEqual(['a', 'b', 'c']);
    expect(log.most).toBe(1);
    expect(log.slotsInUse).toBe(1);
  });

  it("should end the round, not wait, when people's imports leave no spare slot, and free every slot it took", async () => {
    const slots = new ImportSlots(config);
    const people = [slots.acquire('ann'), slots.acquire('bob')];
    const { round, log, release } = scheduler({ slots });
    release();
    await round();
    expect(log.refreshed).toEqual([]);
    people.forEach((slot) => slot.release());
    const held = slots.acquire('ann');
    await round();
    expect(log.refreshed).toEqual(['a', 'b', 'c']);
    expect(log.slotsInUse).toBe(2);
    held.release();
    expect(slots.count()).toBe(0);
  });

  it('should skip the round when another replica leads the refreshes', async () => {
    const { round, log, release } = scheduler({ anotherReplicaRuns: true });
    release();
    await round();
    expect(log.rounds).toHaveLength(1);
    expect(log.due).toEqual([]);
    expect(log.refreshed).toEqual([]);
  });
});
