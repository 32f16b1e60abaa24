import { Redis } from 'ioredis';
import { ConfigError } from './env.js';

/** BullMQ needs `maxRetriesPerRequest: null` on its connections. */
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
