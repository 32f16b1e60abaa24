import { Logger } from '@nestjs/common';
import pg from 'pg';
import { StartupError } from '#config';

export class DatabaseUnavailableError extends StartupError {
  override name = 'DatabaseUnavailableError';
}

export interface WaitOptions {
  attempts: number;
  /** First delay; doubles after each failure, up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_WAIT: WaitOptions = { attempts: 8, initialDelayMs: 500, maxDelayMs: 15_000 };

/**
 * A database that is not up yet (starting with the rest of a deployment) is waited for, with
 * exponential backoff; one that never comes ends in a one-line error naming where and why.
 */
export async function waitForDatabase(url: string, options: WaitOptions = DEFAULT_WAIT): Promise<void> {
  const logger = new Logger('Database');
  const where = describe(url);
  let delay = options.initialDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      const reason = (error as Error).message || (error as { code?: string }).code || String(error);
      if (attempt >= options.attempts) {
        throw new DatabaseUnavailableError(`Cannot reach the database at ${where} after ${attempt} attempts: ${reason}`);
      }
      logger.warn(`Database at ${where} unavailable (${reason}); retrying in ${Math.round(delay / 100) / 10} s (attempt ${attempt}/${options.attempts})`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, options.maxDelayMs);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** host:port/database, never the password. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}
