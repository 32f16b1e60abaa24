import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Deletes / extends the key only while it still holds our token (another holder may have it since). */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const EXTEND = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export interface Lease {
  release(): Promise<void>;
}

/**
 * One holder per API across every worker process: a Redis key with a lease that the holder
 * keeps extending, so a worker killed mid-job frees the API within `ttlMs`.
 */
export class ApiLocks {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly ttlMs: number,
  ) {}

  async acquire(apiId: string): Promise<Lease | undefined> {
    const redis = this.redis;
    const key = this.key(apiId);
    const token = randomUUID();
    if ((await redis.set(key, token, 'PX', this.ttlMs, 'NX')) !== 'OK') return undefined;
    const renew = setInterval(() => void redis.eval(EXTEND, 1, key, token, String(this.ttlMs)).catch(() => undefined), this.ttlMs / 3);
    renew.unref();
    return {
      release: async () => {
        clearInterval(renew);
        await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
      },
    };
  }

  /** Whether some worker, in any process, is on this API now. */
  async isHeld(apiId: string): Promise<boolean> {
    return (await this.redis.exists(this.key(apiId))) === 1;
  }

  private key(apiId: string): string {
    return `${this.keyPrefix}:api-lock:${apiId}`;
  }
}
