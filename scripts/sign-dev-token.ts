import { SignJWT } from 'jose';

export interface DevTokenClaims {
  sub: string;
  orgs: string[];
  roles: string[];
  ttlSeconds: number;
}

/** An HS256 token with the claims the gateway reads, for development and tests. */
export function signDevToken(secret: string, claims: DevTokenClaims): Promise<string> {
  return new SignJWT({ orgs: claims.orgs, roles: claims.roles })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${claims.ttlSeconds}s`)
    .sign(new TextEncoder().encode(secret));
}
