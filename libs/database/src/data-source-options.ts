import type { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import type { DataSourceOptions, MigrationInterface } from 'typeorm';
import { ownerOnlyDirectory } from './owner-only.js';
import { PGliteThread } from './pglite-thread.js';
import { waitForDatabase } from './wait-for-database.js';

/** The PostgreSQL extensions the migrations create, as PGlite bundles them (for opening a data directory in-process). */
export const PGLITE_EXTENSIONS = { vector, pg_trgm, btree_gist };

export interface DatabaseTarget {
  /** PostgreSQL URL; when absent an embedded PGlite is used. */
  url?: string;
  /** PGlite data directory, or `memory://` for a throwaway database. */
  pgliteDir: string;
  /**
   * A dump (tar) of a data directory just initialised, which a `memory://` database starts from
   * instead of running initdb, seconds of WASM each time (the test stacks start dozens).
   */
  pgliteSeed?: string;
  poolSize: number;
  migrate: boolean;
  /** A streaming replica of `url` for reads that may lag it (`READ_DATA_SOURCE`). */
  readUrl?: string;
}

export interface AppDataSourceOptions {
  target: DatabaseTarget;
  entities: Function[];
  migrations: (new () => MigrationInterface)[];
  /** Each app keeps its own migration history, so both can share one PostgreSQL. */
  migrationsTableName: string;
}

export interface PreparedDataSource {
  options: DataSourceOptions;
  /** The embedded database, when one is used; close it after the DataSource. */
  pglite?: { close(): Promise<void> };
}

/** TypeORM options for the read replica (`DatabaseTarget.readUrl`): the primary's migrations are the replica's. */
export async function prepareReadDataSource(opts: AppDataSourceOptions, readUrl: string): Promise<DataSourceOptions> {
  await waitForDatabase(readUrl);
  return {
    type: 'postgres',
    entities: opts.entities,
    synchronize: false,
    logging: ['warn'],
    url: readUrl,
    extra: { max: opts.target.poolSize, connectionTimeoutMillis: 10000 },
  };
}

/**
 * TypeORM options for PostgreSQL, or for PGlite (in a thread of its own) through node-postgres with a pool of one
 * (PGlite is a single session: more connections would share it and break transactions).
 */
export async function prepareDataSource(opts: AppDataSourceOptions): Promise<PreparedDataSource> {
  const common = {
    type: 'postgres' as const,
    entities: opts.entities,
    migrations: opts.migrations,
    migrationsTableName: opts.migrationsTableName,
    // Run by `DatabaseModule` under a lock (`runMigrationsLocked`), not by TypeORM's `initialize()`.
    migrationsRun: false,
    synchronize: false,
    // Failed queries surface as exceptions (and expected ones, like unique violations, are handled).
    logging: ['warn', 'migration'] as ('warn' | 'migration')[],
  };
  if (opts.target.url) {
    await waitForDatabase(opts.target.url);
    return {
      options: {
        ...common,
        url: opts.target.url,
        extra: { max: opts.target.poolSize, connectionTimeoutMillis: 10000 },
      },
    };
  }
  // Every org's specs are in there: only this user may read them.
  const onDisk = !opts.target.pgliteDir.startsWith('memory://');
  if (onDisk) ownerOnlyDirectory(opts.target.pgliteDir);
  const pglite = new PGliteThread(opts.target.pgliteDir, onDisk ? undefined : opts.target.pgliteSeed);
  await pglite.waitReady;
  if (onDisk) ownerOnlyDirectory(opts.target.pgliteDir, { quiet: true });
  return {
    pglite,
    options: {
      ...common,
      uuidExtension: 'pgcrypto',
      installExtensions: false,
      // It calls only `waitReady` and `execProtocolStream` of the PGlite it is given.
      extra: { ...createPgConfig(pglite as unknown as PGlite), max: 1, connectionTimeoutMillis: 60000 },
    },
  };
}
