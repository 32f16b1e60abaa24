import { type DataSource, type Migration, MigrationExecutor } from 'typeorm';

/**
 * The advisory lock every migration run takes, one per database: both apps' histories, every
 * replica started with `DATABASE_MIGRATE=true` and `npm run migrate` queue on it. The two-key form,
 * so it never meets a one-key lock (an API's name lock is `pg_advisory_xact_lock(hashtext(…))`).
 */
export const MIGRATION_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtext('api-discovery-platform'), hashtext('migrations'))`;

/**
 * Runs the pending migrations in one transaction that first takes `MIGRATION_LOCK_SQL`, so
 * replicas started at once never race: the second waits for the first to commit, then reads the
 * migrations table again and finds nothing left to do. A transaction-scoped lock, because it
 * holds behind PgBouncer in transaction mode (a session lock would be taken on one server
 * connection and released, or leaked, on another); on PGlite (one process) it is uncontended.
 *
 * TypeORM's runner reads the migrations table before it opens a transaction of its own; given a
 * query runner whose transaction is already open (and mode `all`), it runs everything in that
 * one. A failed migration rolls the whole run back.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<Migration[]> {
  const queryRunner = dataSource.createQueryRunner();
  try {
    await queryRunner.startTransaction();
    await queryRunner.query(MIGRATION_LOCK_SQL);
    const executor = new MigrationExecutor(dataSource, queryRunner);
    executor.transaction = 'all';
    const applied = await executor.executePendingMigrations();
    await queryRunner.commitTransaction();
    return applied;
  } catch (error) {
    if (queryRunner.isTransactionActive) await queryRunner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await queryRunner.release();
  }
}
