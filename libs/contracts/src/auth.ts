/** `GET /auth/info`: how the gateway signs callers in. */
export interface AuthInfo {
  devLogin: boolean;
}

/** `POST /auth/dev-token` (development stacks only). */
export interface DevTokenRequest {
  orgs: string[];
  roles: ('reader' | 'publisher' | 'admin')[];
  sub?: string;
}

export interface DevTokenResponse {
  token: string;
  expiresIn: number;
}
