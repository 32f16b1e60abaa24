/** Each role includes what the roles before it may do. */
export const ROLES = ['reader', 'publisher', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** `GET /auth/info`: how the gateway signs callers in. */
export interface AuthInfo {
  devLogin: boolean;
}

/** `POST /auth/dev-token` (development stacks only). */
export interface DevTokenRequest {
  orgs: string[];
  roles: Role[];
  sub?: string;
}

export interface DevTokenResponse {
  token: string;
  expiresIn: number;
}

/** An org's id: what every org-scoped route accepts. */
export const ORG_ID = /^[A-Za-z0-9][\w.-]{0,99}$/;
/** What `ORG_ID` allows, in words. */
export const ORG_ID_RULE = '1-100 letters, digits, ".", "_" or "-"';
export const ORG_ID_MESSAGE = `orgId must be ${ORG_ID_RULE}`;
