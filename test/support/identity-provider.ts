import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { stoppable } from './leftovers.js';

type Alg = 'RS256' | 'ES256';

interface SigningKey {
  kid: string;
  alg: Alg;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  publicJwk: JWK;
}

export interface TokenOptions {
  sub?: string;
  orgs?: string[];
  roles?: string[];
  kid?: string;
  issuer?: string;
  audience?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  /** Seconds from now before which the token is not valid. */
  notBefore?: number;
}

/** A stand-in identity provider: key pairs, a JWKS endpoint served over HTTP, and token signing. */
export class TestIdentityProvider {
  readonly issuer = 'https://idp.test/';
  readonly audience = 'api-discovery-platform';
  private readonly keys = new Map<string, SigningKey>();
  private published: string[] = [];
  private server?: Server;
  private stopServer?: () => Promise<void>;
  fetches = 0;

  get jwksUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      if (request.url !== '/.well-known/jwks.json') return void response.writeHead(404).end();
      this.fetches += 1;
      const keys = this.published.map((kid) => this.keys.get(kid)!.publicJwk);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
    });
    this.server = server;
    this.stopServer = stoppable(() => new Promise<void>((resolve) => server.close(() => resolve())));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await this.stopServer?.();
  }

  /** Creates a key; it is published only when `publish` lists it. */
  async addKey(kid: string, alg: Alg): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    this.keys.set(kid, { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } });
  }

  publish(...kids: string[]): void {
    this.published = kids;
  }

  async sign(options: TokenOptions = {}): Promise<string> {
    const key = this.keys.get(options.kid ?? this.published[0])!;
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ orgs: options.orgs ?? [], roles: options.roles ?? [] })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setSubject(options.sub ?? 'idp-user')
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? this.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? 600));
    if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
    return jwt.sign(key.privateKey);
  }
}
