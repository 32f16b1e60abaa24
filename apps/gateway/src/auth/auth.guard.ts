import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PUBLIC_KEY, ROLE_KEY } from './auth.decorators.js';
import type { Role } from '#contracts';
import { type AuthenticatedRequest, hasRole } from './caller.js';
import { TokenVerifierService } from './token-verifier.service.js';

/** Global: every route needs a valid bearer token unless marked `@Public()`, and its role. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: TokenVerifierService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const [scheme, token] = (request.header('authorization') ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) {
      throw new UnauthorizedException('Missing bearer token: send "Authorization: Bearer <JWT>"');
    }
    const caller = await this.verifier.verify(token);
    request.caller = caller;

    const required = this.reflector.getAllAndOverride<Role>(ROLE_KEY, targets) ?? 'reader';
    if (!hasRole(caller, required)) {
      throw new ForbiddenException(`This needs the "${required}" role; the token has: ${caller.roles.join(', ') || 'none'}`);
    }
    return true;
  }
}
