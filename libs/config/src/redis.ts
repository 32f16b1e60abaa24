import { Redis } from 'ioredis';
import { ConfigError } from './env.js';

/** Reconnect attempts: quickly at first, then every second, for as long as Redis is away. */
const RECONNECT_MAX_DELAY_MS = 1000;

/**
 * BullMQ needs `maxRetriesPerRequest: null` on its connections. Reconnects come at most a second
 * apart, so that Redis coming back is seen within a second or two (BullMQ's own back-off grows to 20 s).
 */
export function redisConnectionOptions(redisUrl: string) {
  const parsed = new URL(redisUrl);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username || undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, RECONNECT_MAX_DELAY_MS),
  };
}

/** Fails fast with one clear line when Redis cannot be reached. */
export async function assertRedisReachable(redisUrl: string, timeoutMs = 3000): Promise<void> {
  const client = new Redis({
    ...redisConnectionOptions(redisUrl),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const safeUrl = redisUrl.replace(/\/\/[^@]*@/, '//***@');
    throw new ConfigError(`Redis is not reachable at ${safeUrl} (${(error as Error).message}); start it or set REDIS_URL`);
  } finally {
    client.disconnect();
  }
}
