import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/** A throwaway database's target: in memory, from the run's seed (none outside Jest: initdb). */
export const IN_MEMORY = { pgliteDir: 'memory://', pgliteSeed: process.env.TEST_PGLITE_SEED };

/**
 * Jest's global setup: initdb once for the whole run, its data directory dumped to a file that
 * every test stack's `memory://` databases start from (`DatabaseTarget.pgliteSeed`), instead of
 * an initdb of seconds of WASM for each of them. What the migrations make is still made by each.
 */
export default async function makePgliteSeed(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-seed-'));
  const db = await PGlite.create('memory://');
  try {
    const dump = await db.dumpDataDir('none');
    writeFileSync(join(dir, 'seed.tar'), Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
  // Jest's workers start after this, from this environment.
  process.env.TEST_PGLITE_SEED = join(dir, 'seed.tar');
}
