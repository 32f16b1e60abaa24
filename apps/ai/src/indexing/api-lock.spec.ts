import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { REDIS_URL, until } from '../../../../test/support/stack.js';
import { ApiLocks } from './api-lock.js';

describe(ApiLocks.name, () => {
  const redis = new Redis(REDIS_URL);
  const prefix = `test-locks-${randomUUID().slice(0, 8)}`;

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('should give an API to one holder at a time, and to the next once released', async () => {
    const workerA = new ApiLocks(redis, prefix, 5000);
    const workerB = new ApiLocks(redis, prefix, 5000);
    const lease = await workerA.acquire('api-1');
    expect(lease).toBeDefined();
    expect(await workerB.acquire('api-1')).toBeUndefined();
    expect(await workerB.acquire('api-2')).toBeDefined();
    await lease!.release();
    expect(await workerB.acquire('api-1')).toBeDefined();
  });

  it('should keep a lease alive while held, and free it when its holder dies', async () => {
    const holder = new ApiLocks(redis, prefix, 300);
    const lease = await holder.acquire('api-3');
    // Renewed: the key outlives its first 300 ms, seen by its time to live going up again.
    const started = Date.now();
    let previous = await redis.pttl(`${prefix}:api-lock:api-3`);
    const renewed = async () => {
      const ttl = await redis.pttl(`${prefix}:api-lock:api-3`);
      const up = ttl > previous;
      previous = ttl;
      return up && Date.now() - started > 300;
    };
    await until(renewed, (done) => done, 5000, 20);
    expect(await new ApiLocks(redis, prefix, 300).acquire('api-3')).toBeUndefined();
    await lease!.release();

    // A holder that stops renewing (a killed worker): the lease runs out by itself.
    await redis.set(`${prefix}:api-lock:api-4`, 'dead-worker', 'PX', 300);
    expect(await holder.acquire('api-4')).toBeUndefined();
    expect(
      await until(
        () => holder.acquire('api-4'),
        (taken) => taken !== undefined,
        5000,
        20,
      ),
    ).toBeDefined();
  });
});
