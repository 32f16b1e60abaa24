import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ReplicaLeases } from '#database';
import { migratedAiDatabase } from './support/ai-database.js';

interface LeaseDatabase {
  db: DataSource;
  /** Where the leases are. */
  table: string;
  close(): Promise<void>;
}

const ENGINES: [string, () => Promise<LeaseDatabase>][] = [
  ['PGlite', async () => ({ ...(await migratedAiDatabase()), table: 'platform_ai.leases' })],
  ...(process.env.TEST_DATABASE_URL
    ? [['PostgreSQL', () => postgresWithLeases(process.env.TEST_DATABASE_URL!)] as [string, () => Promise<LeaseDatabase>]]
    : []),
];

/**
 * Periodic jobs led by one replica at a time, on the AI app's migrated schema: embedded PGlite
 * (one connection, as a single process has it) and, with TEST_DATABASE_URL, PostgreSQL with a
 * pool of its own, where replicas race for real.
 */
describe.each(ENGINES)('ReplicaLeases on %s', (_engine, open) => {
  let opened: LeaseDatabase | undefined;
  let db: DataSource;
  let table: string;

  beforeAll(async () => {
    opened = await open();
    ({ db, table } = opened);
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
  });

  const replicas = (count: number) => Array.from({ length: count }, () => new ReplicaLeases(db, table));
  const job = () => `job-${randomBytes(4).toString('hex')}`;
  const ran = (log: string[], name: string) => async () => void log.push(name);

  it('should let one of many replicas racing for a job lead it, and keep leading it', async () => {
    const name = job();
    const log: string[] = [];
    const racing = replicas(8);
    const led = await Promise.all(racing.map((replica, index) => replica.runIfLeader(name, 20_000, ran(log, `r${index}`))));
    expect(led.filter(Boolean)).toHaveLength(1);
    expect(log).toHaveLength(1);
    const leader = led.indexOf(true);
    // The next round: the leader again, nobody else.
    const again = await Promise.all(racing.map((replica, index) => replica.runIfLeader(name, 20_000, ran(log, `r${index}`))));
    expect(again.map((value, index) => value === (index === leader))).toEqual(racing.map(() => true));
  });

  it('should hand a job on when its leader gives it up, or its lease expires', async () => {
    const name = job();
    const [first, second] = replicas(2);
    await expect(first.runIfLeader(name, 20_000, async () => undefined)).resolves.toBe(true);
    await expect(second.runIfLeader(name, 20_000, async () => undefined)).resolves.toBe(false);
    await first.releaseAll();
    await expect(second.runIfLeader(name, 20_000, async () => undefined)).resolves.toBe(true);
    // The leader stops (killed): once its lease is past, the other takes over.
    await db.query(`UPDATE ${table} SET expires_at = clock_timestamp() - interval '1 second' WHERE job = $1`, [name]);
    await expect(first.runIfLeader(name, 20_000, async () => undefined)).resolves.toBe(true);
    await expect(second.runIfLeader(name, 20_000, async () => undefined)).resolves.toBe(false);
  });

  it('should renew the lease while a long round runs, so no one takes it meanwhile', async () => {
    const name = job();
    const [leader, other] = replicas(2);
    let tried: boolean | undefined;
    // Rounds of 0.5 s: a lease of 1.5 s renewed every 0.5 s; the other replica tries after 2 s, while the round still runs.
    await leader.runIfLeader(name, 500, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      tried = await other.runIfLeader(name, 500, async () => undefined);
    });
    expect(tried).toBe(false);
  });
});

/** A pool on the PostgreSQL server with a leases table like the apps' in a schema of its own (dropped after). */
async function postgresWithLeases(url: string): Promise<LeaseDatabase> {
  const schema = `leases_${randomBytes(4).toString('hex')}`;
  const db = await new DataSource({ type: 'postgres', url, extra: { max: 10 } }).initialize();
  await db.query(`CREATE SCHEMA ${schema}`);
  await db.query(`CREATE TABLE ${schema}.leases (job text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)`);
  return {
    db,
    table: `${schema}.leases`,
    close: async () => {
      await db.query(`DROP SCHEMA ${schema} CASCADE`);
      await db.destroy();
    },
  };
}
