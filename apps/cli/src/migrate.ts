import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ConfigError, loadAiConfig, loadGatewayConfig, StartupError } from '#config';
import { type AppDataSourceOptions, prepareDataSource, runMigrationsLocked } from '#database';
import { aiMigrations } from '../../../migrations/ai/index.js';
import { gatewayMigrations } from '../../../migrations/gateway/index.js';

/**
 * `npm run migrate`: applies both apps' pending migrations and exits — the one-shot job of a
 * deployment whose apps run with DATABASE_MIGRATE=false. It takes the same lock as the apps do
 * (`runMigrationsLocked`), so it is safe beside replicas that migrate themselves too.
 */
async function main(): Promise<void> {
  const env = { ...process.env, DATABASE_MIGRATE: 'true' };
  const targets: [string, AppDataSourceOptions][] = [
    ['gateway', { target: loadGatewayConfig(env).database, entities: [], migrations: gatewayMigrations, migrationsTableName: 'gateway_migrations' }],
    ['ai', { target: loadAiConfig(env).database, entities: [], migrations: aiMigrations, migrationsTableName: 'ai_migrations' }],
  ];
  for (const [app, options] of targets) {
    const prepared = await prepareDataSource(options);
    const dataSource = new DataSource(prepared.options);
    await dataSource.initialize();
    try {
      const applied = await runMigrationsLocked(dataSource);
      console.log(`${app}: ${applied.length ? applied.map((migration) => migration.name).join(', ') : 'up to date'}`);
    } finally {
      await dataSource.destroy();
      await prepared.pglite?.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error instanceof StartupError ? error.message : error);
  process.exit(1);
});
