import { connect, createServer, type Server } from 'node:net';
import { DatabaseUnavailableError, waitForDatabase } from './wait-for-database.js';

const FAST = { attempts: 4, initialDelayMs: 100, maxDelayMs: 400 };
// The machine's PostgreSQL (trust auth): the database that "comes up" late.
const POSTGRES = { host: '127.0.0.1', port: 5432 };

describe(waitForDatabase.name, () => {
  it('should give up with one line naming the database (never its password) and the reason', async () => {
    const started = Date.now();
    const waiting = waitForDatabase('postgres://app:s3cret@127.0.0.1:1/platform', FAST);
    await expect(waiting).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(waiting).rejects.toThrow(/^Cannot reach the database at 127\.0\.0\.1:1\/platform after 4 attempts: .*ECONNREFUSED/);
    await waiting.catch((error: Error) => expect(error.message).not.toContain('s3cret'));
    // Backoff: 100 + 200 + 400 ms between the four attempts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });

  it('should wait for a database that comes up while it retries', async () => {
    const probe = await canReach(POSTGRES.port);
    if (!probe) return console.warn('No PostgreSQL on 127.0.0.1:5432: skipped');
    // A proxy to PostgreSQL on a port that opens only after the first attempts failed.
    let proxy: Server | undefined;
    const port = 40000 + Math.floor(Math.random() * 10000);
    const opening = setTimeout(() => {
      proxy = createServer((socket) => socket.pipe(connect(POSTGRES.port, POSTGRES.host)).pipe(socket)).listen(port, '127.0.0.1');
    }, 250);
    try {
      await expect(waitForDatabase(`postgres://postgres@127.0.0.1:${port}/postgres`, { ...FAST, attempts: 6 })).resolves.toBeUndefined();
    } finally {
      clearTimeout(opening);
      await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
    }
  });
});

function canReach(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
