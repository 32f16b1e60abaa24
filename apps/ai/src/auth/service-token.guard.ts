import { type CanActivate, type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { AiConfig } from '#config';
import { InternalHeader } from '#contracts';
import { AI_CONFIG } from '../ai.constants.js';

// Probes and Prometheus; the app listens on loopback (or a private network) only.
const PUBLIC_PATHS = new Set(['/healthz', '/metrics']);

/** The AI app answers only the gateway (and its own health probe). */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(AI_CONFIG) config: AiConfig) {
    this.expected = Buffer.from(config.serviceToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (PUBLIC_PATHS.has(request.path)) return true;
    const given = Buffer.from(request.header(InternalHeader.ServiceToken) ?? '');
    if (given.length !== this.expected.length || !timingSafeEqual(given, this.expected)) {
      throw new UnauthorizedException('This is an internal service: call it through the gateway');
    }
    return true;
  }
}
