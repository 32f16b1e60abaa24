import { DataSource, type MigrationInterface } from 'typeorm';
import { prepareDataSource } from '#database';
import { aiMigrations } from '../migrations/ai/index.js';
import { gatewayMigrations } from '../migrations/gateway/index.js';
import { IN_MEMORY } from './support/pglite-seed.js';

/**
 * Migrations ApiLabels of both apps on a throwaway PGlite: the column's default for rows written
 * before, the case-blind containment filter and its GIN index, and down and up again.
 * (test/postgres.e2e.spec.ts runs them on PostgreSQL when TEST_DATABASE_URL is set.)
 */
/** The migrations up to and including `last`: the ones after it are other tests' to check. */
function upTo(migrations: (new () => MigrationInterface)[], last: string) {
  return migrations.slice(0, migrations.findIndex((migration) => new migration().name === last) + 1);
}

describe.each([
  {
    app: 'ai',
    migrations: upTo(aiMigrations, 'ApiLabels1764680000018'),
    table: 'platform_ai.api_specs',
    fn: 'platform_ai.lower_labels',
    index: 'api_specs_labels_idx',
    last: 'ApiLabels1764680000018',
  },
  {
    app: 'gateway',
    migrations: upTo(gatewayMigrations, 'ApiLabels1764680000003'),
    table: 'platform_backend.apis',
    fn: 'platform_backend.lower_labels',
    index: 'apis_labels_idx',
    last: 'ApiLabels1764680000003',
  },
])('ApiLabels migration ($app, PGlite)', ({ migrations, table, fn, index, last }) => {
  let db: DataSource;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const prepared = await prepareDataSource({
      target: { ...IN_MEMORY, poolSize: 1, migrate: false },
      entities: [],
      migrations,
      migrationsTableName: 'labels_migrations',
    });
    db = new DataSource({ ...prepared.options, migrationsRun: false });
    await db.initialize();
    await db.runMigrations({ transaction: 'each' });
    close = async () => {
      await db.destroy();
      await prepared.pglite?.close();
    };
  }, 60_000);

  afterAll(async () => {
    await close?.();
  });

  const columns = async () =>
    (await db.query(`SELECT column_name AS name FROM information_schema.columns WHERE table_schema || '.' || table_name = $1`, [table])).map(
      (row: { name: string }) => row.name,
    );

  it('should filter on lower-cased values through the GIN index, and undo and redo', async () => {
    expect(await columns()).toContain('labels');
    const [matches] = await db.query(
      `SELECT ${fn}('{"tier": "Gold", "cost-center": "CC-1"}'::jsonb) @> '{"tier": "gold"}'::jsonb AS yes, ${fn}('{}'::jsonb) AS empty`,
    );
    expect(matches).toEqual({ yes: true, empty: {} });
    // Few rows: the planner may prefer a scan; with scans priced out the index must serve the filter.
    await db.query(`SET enable_seqscan = off`);
    const forced: { 'QUERY PLAN': string }[] = await db.query(`EXPLAIN SELECT 1 FROM ${table} WHERE ${fn}(labels) @> '{"tier": "gold"}'::jsonb`);
    await db.query(`SET enable_seqscan = on`);
    expect(forced.map((row) => row['QUERY PLAN']).join('\n')).toContain(index);

    const [lastRun]: { name: string }[] = await db.query(`SELECT name FROM labels_migrations ORDER BY timestamp DESC LIMIT 1`);
    expect(lastRun.name).toBe(last);
    await db.undoLastMigration({ transaction: 'each' });
    expect(await columns()).not.toContain('labels');
    await db.runMigrations({ transaction: 'each' });
    expect(await columns()).toContain('labels');
  });
});
