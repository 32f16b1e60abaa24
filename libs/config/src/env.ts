import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A reason not to start that the operator can fix: printed as one line, and the process stops. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** A configuration problem. */
export class ConfigError extends StartupError {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

export function str(env: Env, key: string, fallback?: string): string {
  const value = env[key]?.trim();
  if (value) return value;
  if (fallback === undefined) throw new ConfigError(`${key} is required`);
  return fallback;
}

export function optionalStr(env: Env, key: string): string | undefined {
  return env[key]?.trim() || undefined;
}

/** A comma-separated list; empty when unset. */
export function list(env: Env, key: string): string[] {
  return (env[key] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function int(env: Env, key: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  return number(env, key, fallback, { min, max, integer: true });
}

/** A number, fractions allowed (a retention of 0.0001 days is 8.6 s: what a test can wait for). */
export function num(env: Env, key: string, fallback: number, min = 0, max = Number.MAX_VALUE): number {
  return number(env, key, fallback, { min, max, integer: false });
}

function number(env: Env, key: string, fallback: number, bounds: { min: number; max: number; integer: boolean }): number {
  const raw = env[key]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  const { min, max, integer } = bounds;
  if (!(integer ? Number.isInteger(value) : Number.isFinite(value)) || value < min || value > max) {
    throw new ConfigError(`${key} must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

export function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${key} must be true or false, got "${raw}"`);
}

export function oneOf<T extends string>(env: Env, key: string, allowed: readonly T[], fallback: T): T {
  const raw = env[key]?.trim() || fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${key} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function url(env: Env, key: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const raw = env[key]?.trim() || fallback;
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${key} is not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${key} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

export function dataDir(env: Env): string {
  return resolve(str(env, 'DATA_DIR', './data'));
}

interface DevSecrets {
  jwtSecret: string;
  serviceToken: string;
}

/**
 * Secrets for development when none are configured: generated once and kept in the data
 * directory, so tokens survive restarts and both apps (and `npm run token`) agree on them.
 */
export function devSecrets(dir: string): DevSecrets {
  const file = join(dir, 'dev-secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DevSecrets;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secrets: DevSecrets = {
    jwtSecret: randomBytes(32).toString('base64url'),
    serviceToken: randomBytes(32).toString('base64url'),
  };
  // 'wx' fails if another process created it first; then read theirs.
  try {
    writeFileSync(file, JSON.stringify(secrets), { flag: 'wx', mode: 0o600 });
    return secrets;
  } catch {
    return JSON.parse(readFileSync(file, 'utf8')) as DevSecrets;
  }
}
