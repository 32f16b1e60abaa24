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
