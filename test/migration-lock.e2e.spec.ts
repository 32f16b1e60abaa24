import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { MIGRATION_LOCK_SQL, prepareDataSource, runMigrationsLocked } from '#database';
import { aiMigrations } from '../migrations/ai/index.js';
import { gatewayMigrations } from '../migrations/gateway/index.js';
import { IN_MEMORY } from './support/pglite-seed.js';
import { scratchDatabase } from './support/scratch-database.js';

/**
 * Replicas started at once with DATABASE_MIGRATE=true (and `npm run migrate`) migrate one after
 * the other: `runMigrationsLocked` takes a transaction-scoped advisory lock in the transaction the
 * migrations run in. On PostgreSQL when TEST_DATABASE_URL is set, and through PgBouncer in
 * transaction mode when TEST_PGBOUNCER_URL is (.ci/run), where a session lock would not hold.
 */

/** Three migrations of a schema of their own: the first slow enough for two runs to overlap. */
function probeMigrations(schema: string): (new () => MigrationInterface)[] {
  return [
    class CreateProbe1700000000001 implements MigrationInterface {
      name = 'CreateProbe1700000000001';
      async up(runner: QueryRunner): Promise<void> {
        await runner.query(`CREATE SCHEMA ${schema}`);
        await runner.query(`CREATE TABLE ${schema}.runs (migration text NOT NULL)`);
        await runner.query(`SELECT pg_sleep(0.3)`);
        await runner.query(`INSERT INTO ${schema}.runs VALUES ('CreateProbe1700000000001')`);
      }
      async down(): Promise<void> {}
    },
    class AddColumn1700000000002 implements MigrationInterface {
      name = 'AddColumn1700000000002';
      async up(runner: QueryRunner): Promise<void> {
        await runner.query(`ALTER TABLE ${schema}.runs ADD COLUMN at timestamptz NOT NULL DEFAULT now()`);
        await runner.query(`INSERT INTO ${schema}.runs (migration) VALUES ('AddColumn1700000000002')`);
      }
      async down(): Promise<void> {}
    },
    class Seed1700000000003 implements MigrationInterface {
      name = 'Seed1700000000003';
      async up(runner: QueryRunner): Promise<void> {
        await runner.query(`INSERT INTO ${schema}.runs (migration) VALUES ('Seed1700000000003')`);
      }
      async down(): Promise<void> {}
    },
  ];
}

async function openPostgres(url: string, migrations: (new () => MigrationInterface)[], migrationsTableName: string): Promise<DataSource> {
  const prepared = await prepareDataSource({
    target: { url, pgliteDir: 'memory://', poolSize: 2, migrate: true },
    entities: [],
    migrations,
    migrationsTableName,
  });
  return new DataSource({ ...prepared.options, logging: ['warn'] }).initialize();
}

describe('Migration lock (PGlite)', () => {
  it('should hold the advisory lock in the transaction the migrations run in, and release it with it', async () => {
    const held: unknown[] = [];
    class LockProbe implements MigrationInterface {
      name = 'LockProbe9999999999999';
      async up(runner: QueryRunner): Promise<void> {
        held.push(
          ...(await runner.query(
            `SELECT classid::int = hashtext('api-discovery-platform') AS platform, objid::int = hashtext('migrations') AS migrations, objsubid, granted
             FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`,
          )),
        );
      }
      async down(): Promise<void> {}
    }
    const prepared = await prepareDataSource({
      target: { ...IN_MEMORY, poolSize: 1, migrate: true },
      entities: [],
      migrations: [...gatewayMigrations, LockProbe],
      migrationsTableName: 'gateway_migrations',
    });
    const gateway = await new DataSource({ ...prepared.options, logging: ['warn'] }).initialize();
    try {
      const applied = await runMigrationsLocked(gateway);
      const again = await runMigrationsLocked(gateway);
      const locksLeft = await gateway.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`);

      expect(applied.map((migration) => migration.name)).toEqual([...gatewayMigrations.map((migration) => new migration().name), 'LockProbe9999999999999']);
      expect(again).toEqual([]);
      // The two-key lock (objsubid 2), granted to the migrating session inside its transaction…
      expect(held).toEqual([{ platform: true, migrations: true, objsubid: 2, granted: true }]);
      // …and released with it: nothing outlives the run.
      expect(locksLeft).toEqual([{ n: 0 }]);
    } finally {
      await gateway.destroy();
      await prepared.pglite?.close();
    }
  }, 60_000);
});

const databases = [
  { name: 'PostgreSQL (TEST_DATABASE_URL)', url: process.env.TEST_DATABASE_URL },
  { name: 'PostgreSQL through PgBouncer in transaction mode (TEST_PGBOUNCER_URL)', url: process.env.TEST_PGBOUNCER_URL },
];

for (const { name, url } of databases) {
  const describeWithPostgres = url ? describe : describe.skip;

  describeWithPostgres(`Migration lock on ${name}`, () => {
    // A schema and migrations table of this run's: the database may be another suite's.
    const schema = `migration_lock_${randomUUID().slice(0, 8)}`;
    const table = `${schema}_migrations`;
    const migrations = probeMigrations(schema);
    const opened: DataSource[] = [];
    const open = async () => {
      const dataSource = await openPostgres(url!, migrations, table);
      opened.push(dataSource);
      return dataSource;
    };

    afterAll(async () => {
      const admin = opened[0];
      await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await admin?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
      await Promise.all(opened.map((dataSource) => dataSource.destroy()));
    });

    it('should let two replicas migrating at once both succeed, each migration applied and recorded once', async () => {
      const [first, second] = await Promise.all([open(), open()]);

      const [a, b] = await Promise.all([runMigrationsLocked(first), runMigrationsLocked(second)]);

      // One run applied all three; the other waited for it, then found nothing to do.
      expect([a.length, b.length].sort()).toEqual([0, 3]);
      await expect(first.query(`SELECT name FROM ${table} ORDER BY id`)).resolves.toEqual([
        { name: 'CreateProbe1700000000001' },
        { name: 'AddColumn1700000000002' },
        { name: 'Seed1700000000003' },
      ]);
      await expect(first.query(`SELECT migration FROM ${schema}.runs ORDER BY migration`)).resolves.toEqual([
        { migration: 'AddColumn1700000000002' },
        { migration: 'CreateProbe1700000000001' },
        { migration: 'Seed1700000000003' },
      ]);
    });

    it('should wait while another transaction holds the lock', async () => {
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(MIGRATION_LOCK_SQL);
        let done = false;
        const run = runMigrationsLocked(await open()).finally(() => (done = true));
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(done).toBe(false);
        await holder.query('COMMIT');
        await expect(run).resolves.toEqual([]);
      } finally {
        await holder.end();
      }
    });
  });
}

// The apps' own migrations, from empty, by four replicas at once (two of each app): a database of
// its own on the server of TEST_DATABASE_URL.
const serverUrl = process.env.TEST_DATABASE_URL;
(serverUrl ? describe : describe.skip)("Migration lock: both apps' migrations from four replicas at once (TEST_DATABASE_URL)", () => {
  const database = scratchDatabase(serverUrl, 'migration_lock');

  beforeAll(() => database.create());
  afterAll(() => database.drop());

  it('should apply every migration once, each replica succeeding', async () => {
    const apps = [
      { migrations: gatewayMigrations, table: 'gateway_migrations' },
      { migrations: aiMigrations, table: 'ai_migrations' },
    ];
    const replicas = await Promise.all([...apps, ...apps].map(({ migrations, table }) => openPostgres(database.url, migrations, table)));
    try {
      const applied = await Promise.all(replicas.map((replica) => runMigrationsLocked(replica)));

      expect(applied.map((run) => run.length).sort((a, b) => a - b)).toEqual([0, 0, gatewayMigrations.length, aiMigrations.length].sort((a, b) => a - b));
      for (const { migrations, table } of apps) {
        const rows: { name: string }[] = await replicas[0].query(`SELECT name FROM ${table} ORDER BY id`);
        expect(rows.map((row) => row.name)).toEqual(migrations.map((migration) => new migration().name));
      }
    } finally {
      await Promise.all(replicas.map((replica) => replica.destroy()));
    }
  });
});
