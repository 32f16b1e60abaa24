import { Redis } from 'ioredis';
import { closeWithoutRedis, endRedisClient } from './redis-shutdown.js';
import { redisConnectionOptions } from './redis.js';

/** Nothing listens there: a client keeps reconnecting (test/support/stack.ts's `withoutRedis`). */
const AWAY_URL = 'redis://127.0.0.1:6390';

function client(url: string): Redis {
  const redis = new Redis(redisConnectionOptions(url));
  redis.on('error', () => undefined);
  return redis;
}

function status(redis: Redis, wanted: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (redis.status === wanted ? resolve() : setTimeout(check, 10));
    check();
  });
}

const ended = (redis: Redis) => new Promise<string>((resolve) => redis.once('end', () => resolve('end')));
const after = (ms: number) => new Promise<string>((resolve) => setTimeout(resolve, ms, `nothing after ${ms} ms`));

describe(endRedisClient.name, () => {
  it('should end a client between two reconnect attempts and fail the command it holds', async () => {
    const redis = client(AWAY_URL);
    await status(redis, 'reconnecting');
    const held = redis.get('key');
    const end = ended(redis);

    endRedisClient(redis);

    await expect(Promise.race([end, after(2000)])).resolves.toBe('end');
    await expect(held).rejects.toThrow('Connection is closed');
  });

  // Why `endRedisClient` exists: if ioredis ever ends such a client itself, it can go.
  it('should be needed: disconnect() alone leaves such a client short of its end', async () => {
    const redis = client(AWAY_URL);
    await status(redis, 'reconnecting');
    const end = ended(redis);

    redis.disconnect();

    await expect(Promise.race([end, after(1500)])).resolves.toBe('nothing after 1500 ms');
    expect(redis.status).toBe('reconnecting');
    endRedisClient(redis);
    await end;
  });

  it('should close a connected client', async () => {
    const redis = client(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    await status(redis, 'ready');
    const end = ended(redis);

    endRedisClient(redis);

    await expect(Promise.race([end, after(2000)])).resolves.toBe('end');
  });

  // BullMQ's reset of a timed-out blocking wait calls connect() on the client it finds ended.
  it('should keep an ended client ended when something calls connect() on it later, Redis there', async () => {
    const redis = client(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    await status(redis, 'ready');
    const end = ended(redis);
    endRedisClient(redis);
    await end;

    await expect(redis.connect()).rejects.toThrow('ended at shutdown');
    await expect(Promise.race([status(redis, 'ready').then(() => 'ready'), after(500)])).resolves.toBe('nothing after 500 ms');
    expect(redis.status).toBe('end');
  });
});

describe(closeWithoutRedis.name, () => {
  it('should end a client away from Redis past the bound, so that a close awaiting its end completes', async () => {
    const redis = client(AWAY_URL);
    await status(redis, 'reconnecting');
    const started = Date.now();

    await expect(closeWithoutRedis(ended(redis), [redis], 300)).resolves.toBe(false);

    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('should wait for a close while its client is connected, then end the client', async () => {
    const redis = client(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    await status(redis, 'ready');
    let statusWhenClosed = '';
    const closing = after(500).then(() => (statusWhenClosed = redis.status));
    const end = ended(redis);

    await expect(closeWithoutRedis(closing, [redis], 200)).resolves.toBe(true);

    expect(statusWhenClosed).toBe('ready');
    await expect(Promise.race([end, after(2000)])).resolves.toBe('end');
  });
});
