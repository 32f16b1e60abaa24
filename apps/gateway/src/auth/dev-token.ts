import { SignJWT } from 'jose';
import { ConfigError, type GatewayConfig } from '#config';

export interface DevTokenClaims {
  sub: string;
  orgs: string[];
  roles: string[];
  ttlSeconds: number;
  /** An application's token (`client_id`): its MCP reads record it as an observed consumer. */
  client?: string;
  /** The teams of a person, for their notifications feed. */
  teams?: string[];
}

/** An HS256 token with the claims the gateway reads: development sign-in, `npm run token`, scripts and tests. */
export function signDevToken(secret: string, claims: DevTokenClaims): Promise<string> {
  return new SignJWT({
    orgs: claims.orgs,
    roles: claims.roles,
    ...(claims.client ? { client_id: claims.client } : {}),
    ...(claims.teams ? { teams: claims.teams } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${claims.ttlSeconds}s`)
    .sign(new TextEncoder().encode(secret));
}

/** The shared secret dev tokens are signed with; there is none when only an identity provider is trusted. */
export function devSigningSecret(config: GatewayConfig): string {
  if (!config.auth.jwtSecret) {
    throw new ConfigError('Dev tokens need AUTH_JWT_SECRET; with only AUTH_JWKS_URL set, get tokens from your identity provider');
  }
  return config.auth.jwtSecret;
}
