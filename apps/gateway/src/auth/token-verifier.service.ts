import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { errors, jwtVerify } from 'jose';
import type { GatewayConfig } from '#config';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { type Caller, type Role, ROLES } from './caller.js';

const CLOCK_TOLERANCE_SECONDS = 30;

/** Verifies bearer tokens (HS256 with the configured secret) and reads the caller's claims. */
@Injectable()
export class TokenVerifierService {
  private readonly secret: Uint8Array;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.secret = new TextEncoder().encode(config.jwtSecret);
  }

  async verify(token: string): Promise<Caller> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (error) {
      throw new UnauthorizedException(describeJoseError(error));
    }
    const orgs = payload.orgs;
    const roles = payload.roles;
    if (typeof payload.sub !== 'string' || !payload.sub) throw new UnauthorizedException('The token has no "sub" claim');
    if (!Array.isArray(orgs) || !orgs.every((org) => typeof org === 'string')) {
      throw new UnauthorizedException('The token\'s "orgs" claim must be an array of org ids');
    }
    if (!Array.isArray(roles) || !roles.every((role) => (ROLES as readonly unknown[]).includes(role))) {
      throw new UnauthorizedException(`The token's "roles" claim must be an array of ${ROLES.join(', ')}`);
    }
    return { sub: payload.sub, orgs, roles: roles as Role[] };
  }
}

function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The token has expired';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The token signature is invalid';
  if (error instanceof errors.JWTClaimValidationFailed) return `The token is not valid: ${error.message}`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The token is signed with an algorithm that is not accepted';
  return 'The token is malformed';
}
