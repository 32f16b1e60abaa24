import { type CanActivate, type ExecutionContext, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { GatewayConfig } from '#config';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { SHARED_REDIS } from '../shared-state/shared-state.module.js';
import type { AuthenticatedRequest } from './caller.js';

/**
 * Per-caller rate limit (RATE_LIMIT_PER_MINUTE per token subject, whatever address it calls
 * from), with `RateLimit-*` headers and `Retry-After` on 429. Runs after authentication; public
 * routes (health probes) are not limited. The counters live in Redis, so that every gateway
 * replica counts the same minute: three gateways allow the limit, not three times it. While
 * Redis is unreachable each gateway counts on its own, in memory (the insurance limiter), and a
 * caller is never refused because Redis is down.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiter: RateLimiterRedis;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(SHARED_REDIS) redis: Redis,
  ) {
    const limits = { points: config.rateLimitPerMinute, duration: 60 };
    this.limiter = new RateLimiterRedis({
      ...limits,
      storeClient: redis,
      keyPrefix: `${config.redis.queuePrefix}:rate-limit`,
      insuranceLimiter: new RateLimiterMemory(limits),
    });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const caller = http.getRequest<AuthenticatedRequest>().caller;
    if (!caller) return true;
    const response = http.getResponse<Response>();
    try {
      const state = await this.limiter.consume(caller.sub);
      this.setHeaders(response, state);
      return true;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = this.setHeaders(response, rejection);
      response.setHeader('Retry-After', String(retryAfter));
      throw new HttpException(
        `Rate limit exceeded: at most ${this.config.rateLimitPerMinute} requests per minute per caller; retry in ${retryAfter} s`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
  }

  /** Returns the seconds until the window resets. */
  private setHeaders(response: Response, state: RateLimiterRes): number {
    const reset = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    response.setHeader('RateLimit-Limit', String(this.config.rateLimitPerMinute));
    response.setHeader('RateLimit-Remaining', String(Math.max(0, state.remainingPoints)));
    response.setHeader('RateLimit-Reset', String(reset));
    return reset;
  }
}
