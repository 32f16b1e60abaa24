import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { endRedisClient, type GatewayConfig, redisConnectionOptions } from '#config';
import { GATEWAY_CONFIG } from '../gateway.constants.js';

/**
 * The Redis client of state every gateway replica must share (rate-limit counters, agents' recent
 * searches), under `QUEUE_PREFIX`. No offline queue and one try: while Redis is away a command
 * fails at once and its user falls back, instead of a request waiting for Redis.
 */
export const SHARED_REDIS = Symbol('SHARED_REDIS');

@Injectable()
class SharedRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(SHARED_REDIS) private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    // `disconnect()` alone leaves a client caught between reconnect attempts short of its end.
    endRedisClient(this.redis);
  }
}

@Global()
@Module({
  providers: [
    {
      provide: SHARED_REDIS,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => {
        const redis = new Redis({ ...redisConnectionOptions(config.redis.url), enableOfflineQueue: false, maxRetriesPerRequest: 1 });
        // ioredis reports a lost connection as an error event; each user's fallback is the answer to it.
        redis.on('error', () => undefined);
        return redis;
      },
    },
    SharedRedisCloser,
  ],
  exports: [SHARED_REDIS],
})
export class SharedStateModule {}
