import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { prepareDataSource } from './data-source-options.js';
import { ownerOnlyDirectory } from './owner-only.js';

/** Every file and folder under `dir` with its permission bits. */
function modes(dir: string): Map<string, number> {
  const found = new Map<string, number>();
  const stack = [dir];
  while (stack.length > 0) {
    const path = stack.pop()!;
    const stats = statSync(path);
    found.set(path, stats.mode & 0o777);
    if (stats.isDirectory()) stack.push(...readdirSync(path).map((name) => join(path, name)));
  }
  return found;
}

describe(ownerOnlyDirectory.name, () => {
  const umask = process.umask();
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'owner-only-'))));
  afterEach(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it('should take the access of others away from a data directory left readable by them', () => {
    const dir = join(root, 'ai');
    mkdirSync(join(dir, 'base'), { recursive: true });
    writeFileSync(join(dir, 'base', 'pg_wal'), "every org's specs");
    // Modes set outright: the umask of this process may be anything (ownerOnlyDirectory sets it).
    chmodSync(join(dir, 'base', 'pg_wal'), 0o666);
    chmodSync(join(dir, 'base'), 0o777);
    chmodSync(dir, 0o755);

    expect(ownerOnlyDirectory(dir)).toBe(3);
    expect([...modes(dir).values()].every((mode) => (mode & 0o077) === 0)).toBe(true);
    expect(statSync(join(dir, 'base', 'pg_wal')).mode & 0o777).toBe(0o600);
  });

  it('should make the embedded database create only files its owner may read', async () => {
    process.umask(0o022);
    const dir = join(root, 'gateway');
    const prepared = await prepareDataSource({
      target: { pgliteDir: dir, poolSize: 1, migrate: false },
      entities: [],
      migrations: [],
      migrationsTableName: 'migrations',
    });
    const db = new DataSource(prepared.options);
    await db.initialize();
    await db.query('CREATE TABLE secrets (spec text)');
    await db.query(`INSERT INTO secrets VALUES ('every org''s specs')`);
    await db.destroy();
    await prepared.pglite?.close();

    const found = modes(dir);
    expect(found.size).toBeGreaterThan(10);
    expect(found.get(dir)).toBe(0o700);
    expect([...found].filter(([, mode]) => (mode & 0o077) !== 0)).toEqual([]);
  }, 60_000);
});
