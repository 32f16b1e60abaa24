import { DataSource } from 'typeorm';
import { prepareDataSource } from '#database';
import { aiMigrations } from '../../migrations/ai/index.js';
import { IN_MEMORY } from './pglite-seed.js';

/** A throwaway in-memory PGlite with the AI app's schema, for tests of its SQL. */
export interface AiTestDatabase {
  db: DataSource;
  close(): Promise<void>;
}

export async function migratedAiDatabase(): Promise<AiTestDatabase> {
  const prepared = await prepareDataSource({
    target: { ...IN_MEMORY, poolSize: 1, migrate: false },
    entities: [],
    migrations: aiMigrations,
    migrationsTableName: 'ai_migrations',
  });
  const db = new DataSource({ ...prepared.options, migrationsRun: false });
  try {
    await db.initialize();
    await db.runMigrations({ transaction: 'each' });
  } catch (error) {
    if (db.isInitialized) await db.destroy().catch(() => undefined);
    await prepared.pglite?.close();
    throw error;
  }
  return {
    db,
    close: async () => {
      await db.destroy();
      await prepared.pglite?.close();
    },
  };
}
