import { DataSource, type MigrationInterface } from 'typeorm';
import { prepareDataSource } from '#database';
import { aiMigrations } from '../migrations/ai/index.js';
import { gatewayMigrations } from '../migrations/gateway/index.js';
import { IN_MEMORY } from './support/pglite-seed.js';

type Migration = new () => MigrationInterface;

/** Runs the migrations before `name` on a throwaway PGlite, then lets the test write rows as they were, then runs `name`. */
async function migratedTo(migrations: Migration[], name: string): Promise<{ db: DataSource; next: () => Promise<void>; close: () => Promise<void> }> {
  const at = migrations.findIndex((migration) => new migration().name === name);
  const prepared = await prepareDataSource({
    target: { ...IN_MEMORY, poolSize: 1, migrate: false },
    entities: [],
    migrations: migrations.slice(0, at),
    migrationsTableName: 'versions_migrations',
  });
  let db = new DataSource({ ...prepared.options, migrationsRun: false });
  await db.initialize();
  await db.runMigrations({ transaction: 'each' });
  return {
    get db() {
      return db;
    },
    // The same database with one more migration known: the data written in between is what an older version left.
    next: async () => {
      await db.destroy();
      db = new DataSource({ ...prepared.options, migrations: migrations.slice(0, at + 1), migrationsRun: false });
      await db.initialize();
      await db.runMigrations({ transaction: 'each' });
    },
    close: async () => {
      await db.destroy();
      await prepared.pglite?.close();
    },
  };
}

const API = '0b6c0d3a-8f5e-4a4e-9a57-6f3f0f8e2a11';
const TOMBSTONE = '1c7d1e4b-9a6f-4b5f-8b68-7a4a1a9f3b22';
const SPEC = '{"openapi":"3.0.3","info":{"title":"Pets","version":"1.2.0"},"paths":{}}';

/**
 * Upgrading a data directory to versions (issue #30), on PGlite (test/postgres.e2e.spec.ts runs
 * every migration on PostgreSQL): each API becomes one production version holding its spec as
 * the revision it had, so nothing is re-indexed; the index's facts get their stage.
 */
describe('ApiVersions migration (gateway)', () => {
  let stage: Awaited<ReturnType<typeof migratedTo>>;

  beforeAll(async () => {
    stage = await migratedTo(gatewayMigrations, 'ApiVersions1764680000004');
    await stage.db.query(
      `INSERT INTO platform_backend.apis (id, org_id, name, version, spec, kind, revision, queued_revision, settled_revision, labels)
       VALUES ($1, 'acme', 'Pets', '1.2.0', $3, 'openapi', 3, 3, 3, '{"tier":"gold"}'),
              ($2, 'acme', 'Gone', '1', '{}', 'openapi', 2, 2, 1, '{}')`,
      [API, TOMBSTONE, SPEC],
    );
    await stage.db.query(`UPDATE platform_backend.apis SET deleted_at = now() WHERE id = $1`, [TOMBSTONE]);
    await stage.next();
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('should make each live API one production version holding its spec at the revision it had, with nothing to re-index', async () => {
    const versions = await stage.db.query(`SELECT api_id, version, lifecycle, kind, revision, sunset_date FROM platform_backend.api_versions`);
    expect(versions).toEqual([{ api_id: API, version: '1.2.0', lifecycle: 'production', kind: 'openapi', revision: 3, sunset_date: null }]);
    const revisions = await stage.db.query(`SELECT api_id, version, revision, spec, lint FROM platform_backend.api_version_revisions`);
    expect(revisions).toEqual([{ api_id: API, version: '1.2.0', revision: 3, spec: SPEC, lint: null }]);
    const apis = await stage.db.query(`SELECT id, version, lifecycle, revision, queued_revision, settled_revision FROM platform_backend.apis ORDER BY name`);
    // The revision the index holds stays: the outbox has nothing to send.
    expect(apis).toEqual([
      { id: TOMBSTONE, version: '1', lifecycle: 'production', revision: 2, queued_revision: 2, settled_revision: 1 },
      { id: API, version: '1.2.0', lifecycle: 'production', revision: 3, queued_revision: 3, settled_revision: 3 },
    ]);
    const columns = (
      await stage.db.query(`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'platform_backend' AND table_name = 'apis'`)
    ).map((row: { name: string }) => row.name);
    expect(columns).not.toContain('spec');
  });

  it('should let a second API of another name take a version name, and keep a version per (API, version)', async () => {
    await stage.db.query(`INSERT INTO platform_backend.apis (org_id, name, version, kind) VALUES ('acme', 'Cats', '1.2.0', 'openapi')`);
    await expect(stage.db.query(`INSERT INTO platform_backend.api_versions (api_id, version, kind) VALUES ($1, '1.2.0', 'openapi')`, [API])).rejects.toThrow(
      /duplicate key/,
    );
    await expect(
      stage.db.query(`INSERT INTO platform_backend.api_versions (api_id, version, kind, lifecycle) VALUES ($1, '2', 'openapi', 'sunset')`, [API]),
    ).rejects.toThrow(/check constraint/);
    await stage.db.query(`DELETE FROM platform_backend.apis WHERE name = 'Cats'`);
  });

  it("should undo to one spec per API (the recommended version's) and redo", async () => {
    await stage.db.undoLastMigration({ transaction: 'each' });
    expect(await stage.db.query(`SELECT spec FROM platform_backend.apis WHERE id = $1`, [API])).toEqual([{ spec: SPEC }]);
    await stage.db.runMigrations({ transaction: 'each' });
    expect(await stage.db.query(`SELECT version, revision FROM platform_backend.api_version_revisions`)).toEqual([{ version: '1.2.0', revision: 3 }]);
  });
});

describe('ApiLifecycle migration (AI)', () => {
  let stage: Awaited<ReturnType<typeof migratedTo>>;

  beforeAll(async () => {
    stage = await migratedTo(aiMigrations, 'ApiLifecycle1764680000019');
    await stage.db.query(
      `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, indexed_revision, status) VALUES ($1, 'acme', 3, 3, 'COMPLETED')`,
      [API],
    );
    await stage.db.query(`INSERT INTO platform_ai.api_specs (api_id, revision, org_id, name, version, spec) VALUES ($1, 3, 'acme', 'Pets', '1.2.0', $2)`, [
      API,
      SPEC,
    ]);
    await stage.next();
  }, 60_000);

  afterAll(async () => {
    await stage?.close();
  });

  it('should give revisions indexed before the production stage and no versions list (cards list their one version)', async () => {
    expect(await stage.db.query(`SELECT lifecycle, sunset_date, versions FROM platform_ai.api_specs`)).toEqual([
      { lifecycle: 'production', sunset_date: null, versions: [] },
    ]);
    expect(await stage.db.query(`SELECT lifecycle FROM platform_ai.api_indexing_status`)).toEqual([{ lifecycle: 'production' }]);
  });

  it("should find an org's deprecated and retired APIs through the partial index", async () => {
    await stage.db.query(`UPDATE platform_ai.api_indexing_status SET lifecycle = 'deprecated'`);
    await stage.db.query(`SET enable_seqscan = off`);
    const plan: { 'QUERY PLAN': string }[] = await stage.db.query(
      `EXPLAIN SELECT api_id FROM platform_ai.api_indexing_status WHERE org_id = 'acme' AND lifecycle IN ('deprecated', 'retired') AND NOT deleted`,
    );
    await stage.db.query(`SET enable_seqscan = on`);
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('api_indexing_status_lifecycle_idx');
    await stage.db.undoLastMigration({ transaction: 'each' });
    await stage.db.runMigrations({ transaction: 'each' });
  });
});
