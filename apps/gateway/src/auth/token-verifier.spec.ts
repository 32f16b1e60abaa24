import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { HttpException } from '@nestjs/common';
import type { GatewayConfig } from '#config';
import { TestIdentityProvider } from '../../../../test/support/identity-provider.js';
import { signDevToken } from './dev-token.js';
import { TokenVerifierService } from './token-verifier.service.js';

const SECRET = 'a-shared-secret-of-at-least-32-characters';

function verifierFor(auth: Partial<GatewayConfig['auth']>): TokenVerifierService {
  return new TokenVerifierService({ auth: { clockSkewSeconds: 30, ...auth } } as GatewayConfig);
}

/** The HTTP status a verification ends with: 200 for a valid token. */
async function statusOf(verifier: TokenVerifierService, token: string): Promise<number> {
  try {
    await verifier.verify(token);
    return 200;
  } catch (error) {
    if (error instanceof HttpException) return error.getStatus();
    throw error;
  }
}

describe('TokenVerifierService', () => {
  const idp = new TestIdentityProvider();
  let verifier: TokenVerifierService;

  beforeAll(async () => {
    await idp.start();
    await idp.addKey('rsa-1', 'RS256');
    await idp.addKey('ec-1', 'ES256');
    await idp.addKey('rsa-2', 'RS256');
    idp.publish('rsa-1', 'ec-1');
    verifier = verifierFor({ jwksUrl: idp.jwksUrl, issuer: idp.issuer, audience: idp.audience });
  });

  afterAll(() => idp.stop());

  it('should accept RS256 and ES256 tokens of the identity provider and read their claims', async () => {
    const caller = await verifier.verify(await idp.sign({ kid: 'rsa-1', sub: 'ana', orgs: ['acme'], roles: ['publisher'] }));
    expect(caller).toEqual({ sub: 'ana', orgs: ['acme'], roles: ['publisher'] });
    expect(await statusOf(verifier, await idp.sign({ kid: 'ec-1', orgs: ['acme'], roles: ['reader'] }))).toBe(200);
  });

  it('should refuse a wrong issuer or audience, an expired token and one not valid yet, beyond the clock skew', async () => {
    expect(await statusOf(verifier, await idp.sign({ issuer: 'https://evil.test/' }))).toBe(401);
    expect(await statusOf(verifier, await idp.sign({ audience: 'another-service' }))).toBe(401);
    expect(await statusOf(verifier, await idp.sign({ expiresIn: -60 }))).toBe(401);
    expect(await statusOf(verifier, await idp.sign({ notBefore: 120 }))).toBe(401);
    // Within the 30 s skew both ways.
    expect(await statusOf(verifier, await idp.sign({ expiresIn: -10 }))).toBe(200);
    expect(await statusOf(verifier, await idp.sign({ notBefore: 10 }))).toBe(200);
  });

  it('should refuse a token signed by a key the provider does not publish, and HS256 when no secret is set', async () => {
    expect(await statusOf(verifier, await idp.sign({ kid: 'rsa-2' }))).toBe(401);
    const hs256 = await signDevToken(SECRET, { sub: 'x', orgs: [], roles: [], ttlSeconds: 60 });
    expect(await statusOf(verifier, hs256)).toBe(401);
  });

  it('should pick up a rotated key set once the cooldown has passed', async () => {
    idp.publish('rsa-2');
    const rotated = await idp.sign({ kid: 'rsa-2' });
    // Date only: fetch and its timeouts keep real timers.
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        'queueMicrotask',
        'hrtime',
        'performance',
      ],
    });
    try {
      jest.setSystemTime(Date.now() + 31_000);
      const fetches = idp.fetches;
      expect(await statusOf(verifier, rotated)).toBe(200);
      expect(idp.fetches).toBe(fetches + 1);
      // The retired key is gone with the old set.
      expect(await statusOf(verifier, await idp.sign({ kid: 'rsa-1' }))).toBe(401);
    } finally {
      jest.useRealTimers();
      idp.publish('rsa-1', 'ec-1');
    }
  });

  it('should answer 503, not 401, when the identity provider cannot be reached', async () => {
    const offline = verifierFor({ jwksUrl: 'http://127.0.0.1:9/jwks.json' });
    expect(await statusOf(offline, await idp.sign())).toBe(503);
  });

  it('should accept both HS256 dev tokens and provider tokens when both are configured', async () => {
    const both = verifierFor({ jwtSecret: SECRET, jwksUrl: idp.jwksUrl });
    const hs256 = await signDevToken(SECRET, { sub: 'dev', orgs: ['acme'], roles: ['admin'], ttlSeconds: 60 });
    expect(await both.verify(hs256)).toEqual({ sub: 'dev', orgs: ['acme'], roles: ['admin'] });
    expect(await statusOf(both, await idp.sign({ orgs: ['acme'], roles: ['reader'] }))).toBe(200);
    const forged = await signDevToken('another-secret-of-at-least-32-characters!', { sub: 'x', orgs: [], roles: [], ttlSeconds: 60 });
    expect(await statusOf(both, forged)).toBe(401);
  });
});
