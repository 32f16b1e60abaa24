// `npm run build` only when a source changed since the last build made here: a no-op build still
// costs tsc 5-10 s, and `npm run token` should answer at once. Plain JavaScript, because it runs
// before anything is compiled. What it says goes to stderr: `npm run token`'s stdout is the token.
import { execSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'dist', '.build-stamp');
const INPUTS = ['apps', 'libs', 'migrations', 'benchmarks', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

/** The latest change under `path` and where: a directory's own time counts, so a deleted or renamed file does too. */
function newestChange(path) {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats?.isDirectory()) return { time: stats?.mtimeMs ?? 0, path };
  return readdirSync(path)
    .map((name) => newestChange(join(path, name)))
    .reduce((newest, change) => (change.time > newest.time ? change : newest), { time: stats.mtimeMs, path });
}

const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs;
const newest = INPUTS.map((input) => newestChange(join(root, input))).reduce((a, b) => (b.time > a.time ? b : a));
if (newest.time > (built ?? 0)) {
  // Said before the build starts: the first one takes a while and prints nothing until it is done.
  const why = built === undefined ? 'no build yet' : `${relative(root, newest.path) || '.'} changed since the last build`;
  console.error(`Building (${why}): compiling the apps and the web UI, which takes up to half a minute…`);
  // Stamped with the time the build started: a file saved while it ran is built next time.
  const started = new Date();
  try {
    execSync('npm run -s build', { cwd: root, stdio: 'inherit' });
  } catch {
    process.exit(1);
  }
  writeFileSync(STAMP, '');
  utimesSync(STAMP, started, started);
  console.error(`Built in ${((Date.now() - started.getTime()) / 1000).toFixed(1)} s.`);
}
