// `npm run build` only when a source changed since the last build made here: a no-op build still
// costs tsc 5-10 s, and `npm run token` should answer at once. Plain JavaScript, because it runs
// before anything is compiled.
import { execSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'dist', '.build-stamp');
const INPUTS = ['apps', 'libs', 'migrations', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

/** The latest change under `path`: a directory's own time counts, so a deleted or renamed file does too. */
function newestChange(path) {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats?.isDirectory()) return stats?.mtimeMs ?? 0;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (Math.max(...INPUTS.map((input) => newestChange(join(root, input)))) > built) {
  // Stamped with the time the build started: a file saved while it ran is built next time.
  const started = new Date();
  try {
    execSync('npm run -s build', { cwd: root, stdio: 'inherit' });
  } catch {
    process.exit(1);
  }
  writeFileSync(STAMP, '');
  utimesSync(STAMP, started, started);
}
