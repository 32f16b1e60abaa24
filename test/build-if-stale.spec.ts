import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * scripts/build-if-stale.mjs in a project of its own whose build only prints a line: it says
 * that it builds, and why, before the build's own output (#39: the first build was 21 s of
 * silence), on stderr (`npm run token`'s stdout is the token), and says nothing when nothing changed.
 */
describe('scripts/build-if-stale.mjs', () => {
  let project: string;
  const run = () => spawnSync(process.execPath, [join(project, 'scripts/build-if-stale.mjs')], { cwd: project, encoding: 'utf8' });

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
    mkdirSync(join(project, 'scripts'));
    mkdirSync(join(project, 'apps/web'), { recursive: true });
    copyFileSync(join(process.cwd(), 'scripts/build-if-stale.mjs'), join(project, 'scripts/build-if-stale.mjs'));
    writeFileSync(join(project, 'apps/web/main.ts'), 'export {};\n');
    // The build prints to stderr too, so the order of the two lines can be read from one stream.
    const build = `node -e "require('node:fs').mkdirSync('dist', { recursive: true }); console.error('the build ran')"`;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'stale-check', private: true, scripts: { build } }));
  });

  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
  });

  it('should say it is building, and why, before it builds the first time', () => {
    const first = run();
    expect(first.status).toBe(0);
    expect(first.stdout).toBe('');
    const lines = first.stderr.trim().split('\n');
    expect(lines[0]).toBe('Building (no build yet): compiling the apps and the web UI, which takes up to half a minute…');
    expect(lines[1]).toBe('the build ran');
    expect(lines[2]).toMatch(/^Built in \d+\.\d s\.$/);
  });

  it('should say nothing when nothing changed, and name the file that changed', () => {
    const again = run();
    expect(again.status).toBe(0);
    expect(again.stderr).toBe('');
    const later = new Date(Date.now() + 5000);
    utimesSync(join(project, 'apps/web/main.ts'), later, later);
    const changed = run();
    expect(changed.stderr.split('\n')[0]).toBe(
      'Building (apps/web/main.ts changed since the last build): compiling the apps and the web UI, which takes up to half a minute…',
    );
  });
});
