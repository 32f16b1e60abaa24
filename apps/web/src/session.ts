import { type Role, ROLES } from '../../../libs/contracts/src/auth.js';

export interface Claims {
  sub: string;
  orgs: string[];
  roles: Role[];
  exp?: number;
}

const TOKEN_KEY = 'api-discovery.token';
const ORG_KEY = 'api-discovery.org';

/** The signed-in caller: the token (kept in this browser's storage) and the org being worked in. */
export class Session {
  constructor(
    readonly token: string,
    readonly claims: Claims,
    public org: string,
  ) {}

  static restore(): Session | undefined {
    const token = localStorage.getItem(TOKEN_KEY);
    if (!token) return undefined;
    const claims = readClaims(token);
    if (!claims || (claims.exp !== undefined && claims.exp * 1000 < Date.now())) {
      Session.clear();
      return undefined;
    }
    const saved = localStorage.getItem(ORG_KEY);
    return new Session(token, claims, saved && claims.orgs.includes(saved) ? saved : (claims.orgs[0] ?? ''));
  }

  /** Keeps a token whose claims can be read; the gateway still verifies it on every call. */
  static start(token: string): Session {
    const claims = readClaims(token);
    if (!claims) throw new Error('This does not look like a token: paste the whole JWT (three parts separated by dots).');
    if (claims.exp !== undefined && claims.exp * 1000 < Date.now()) throw new Error('This token has expired; get a new one.');
    if (claims.orgs.length === 0) throw new Error('This token lists no orgs ("orgs" claim), so there is nothing to show.');
    localStorage.setItem(TOKEN_KEY, token);
    const session = new Session(token, claims, claims.orgs[0]);
    session.switchOrg(claims.orgs[0]);
    return session;
  }

  static clear(): void {
    localStorage.removeItem(TOKEN_KEY);
  }

  switchOrg(org: string): void {
    this.org = org;
    localStorage.setItem(ORG_KEY, org);
  }

  can(role: Role): boolean {
    return this.claims.roles.some((held) => ROLES.indexOf(held) >= ROLES.indexOf(role));
  }
}

function readClaims(token: string): Claims | undefined {
  const [, payload] = token.trim().split('.');
  if (!payload) return undefined;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as Partial<Claims>;
    return {
      sub: String(claims.sub ?? ''),
      orgs: Array.isArray(claims.orgs) ? claims.orgs.map(String) : [],
      roles: Array.isArray(claims.roles) ? claims.roles.filter((r): r is Role => (ROLES as readonly unknown[]).includes(r)) : [],
      exp: typeof claims.exp === 'number' ? claims.exp : undefined,
    };
  } catch {
    return undefined;
  }
}
