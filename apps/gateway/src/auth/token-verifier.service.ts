import { Inject, Injectable, Logger, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { createRemoteJWKSet, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { AuthConfig, GatewayConfig } from '#config';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { type Role, ROLES } from '#contracts';
import type { Caller } from './caller.js';

/** Signature algorithms accepted from an identity provider's published keys. */
const JWKS_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];
const JWKS_OPTIONS = {
  timeoutDuration: 5000,
  // A token signed with a key we have not seen refetches the set, at most this often (key rotation).
  cooldownDuration: 30_000,
  cacheMaxAge: 10 * 60_000,
};

/**
 * Verifies bearer tokens — HS256 with the shared secret, and/or RS256/ES256 with the keys of an
 * identity provider (`AUTH_JWKS_URL`) — checks issuer, audience, expiry and not-before, and
 * reads the caller's claims.
 */
@Injectable()
export class TokenVerifierService {
  private readonly logger = new Logger(TokenVerifierService.name);
  private readonly auth: AuthConfig;
  private readonly secret?: Uint8Array;
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;
  private readonly algorithms: string[];

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.auth = config.auth;
    this.secret = config.auth.jwtSecret ? new TextEncoder().encode(config.auth.jwtSecret) : undefined;
    this.jwks = config.auth.jwksUrl ? createRemoteJWKSet(new URL(config.auth.jwksUrl), JWKS_OPTIONS) : undefined;
    this.algorithms = [...(this.secret ? ['HS256'] : []), ...(this.jwks ? JWKS_ALGORITHMS : [])];
  }

  async verify(token: string): Promise<Caller> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.keyFor, {
        algorithms: this.algorithms,
        issuer: this.auth.issuer,
        audience: this.auth.audience,
        clockTolerance: this.auth.clockSkewSeconds,
      }));
    } catch (error) {
      if (isKeySetUnavailable(error)) {
        this.logger.error(`Identity provider keys unavailable from ${this.auth.jwksUrl}: ${(error as Error).message}`);
        throw new ServiceUnavailableException('The identity provider could not be reached to verify the token; try again shortly');
      }
      throw new UnauthorizedException(describeJoseError(error));
    }
    return readClaims(payload);
  }

  /** HS256 tokens are checked with the shared secret, the others with the identity provider's keys. */
  private readonly keyFor: JWTVerifyGetKey = (header, token) => {
    if (header.alg === 'HS256' && this.secret) return this.secret;
    if (header.alg !== 'HS256' && this.jwks) return this.jwks(header, token);
    throw new errors.JOSEAlgNotAllowed(`"alg" ${header.alg} is not accepted`);
  };
}

function readClaims(payload: Record<string, unknown>): Caller {
  const { sub, orgs, roles, azp, client_id: clientId, teams } = payload;
  if (typeof sub !== 'string' || !sub) throw new UnauthorizedException('The token has no "sub" claim');
  if (!Array.isArray(orgs) || !orgs.every((org) => typeof org === 'string')) {
    throw new UnauthorizedException('The token\'s "orgs" claim must be an array of org ids');
  }
  if (!Array.isArray(roles) || !roles.every((role) => (ROLES as readonly unknown[]).includes(role))) {
    throw new UnauthorizedException(`The token's "roles" claim must be an array of ${ROLES.join(', ')}`);
  }
  const client = [azp, clientId].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const teamNames = Array.isArray(teams) ? teams.filter((team): team is string => typeof team === 'string' && team.trim() !== '').slice(0, 50) : [];
  return { sub, orgs, roles: roles as Role[], ...(client ? { client: client.trim() } : {}), ...(teamNames.length ? { teams: teamNames } : {}) };
}

/** The identity provider's key set could not be fetched or read — its fault, not the token's. */
function isKeySetUnavailable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return true;
  // Refused, DNS… (by name: fetch's TypeError may come from another realm)
  if ((error as Error)?.name === 'TypeError' && (error as Error).message === 'fetch failed') return true;
  return error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC' && error.message.includes('JSON Web Key Set');
}

function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The token has expired';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The token signature is invalid';
  if (error instanceof errors.JWKSNoMatchingKey) return 'The token is signed with a key the identity provider does not publish';
  if (error instanceof errors.JWTClaimValidationFailed) return `The token is not valid: ${error.message}`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The token is signed with an algorithm that is not accepted';
  return 'The token is malformed';
}
