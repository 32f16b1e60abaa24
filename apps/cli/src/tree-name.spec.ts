import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TREE_NAME } from '#contracts';
import { defaultTreeName, remoteName } from './tree-name.js';

const hasGit = spawnSync('git', ['--version']).status === 0;

describe(remoteName.name, () => {
  it.each([
    ['git@github.com:acme/specs.git', 'github.com/acme/specs'],
    ['https://x:tok@github.com/acme/specs.git', 'github.com/acme/specs'],
    ['ssh://git@host:22/acme/specs', 'host/acme/specs'],
    ['https://GitHub.com/acme/specs/', 'github.com/acme/specs'],
    ['/srv/git/specs.git', '/srv/git/specs'],
    ['https://[not-a-host/acme/specs', undefined],
  ])('should name the remote %s as %s', (remote, name) => {
    expect(remoteName(remote, '/work/repo')).toBe(name);
  });
});

(hasGit ? describe : describe.skip)(defaultTreeName.name, () => {
  let dir: string;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { stdio: 'pipe' });
  /** A new repository in the temporary folder, with this origin if given, and a `team2/specs` folder. */
  const repo = (name: string, origin?: string) => {
    const top = join(dir, name);
    mkdirSync(join(top, 'team2', 'specs'), { recursive: true });
    git(top, 'init', '-q');
    if (origin) git(top, 'remote', 'add', 'origin', origin);
    return top;
  };

  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'tree-name-')));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should name a folder of a cloned repository by the remote, without user or token, and the folder path in it', async () => {
    const top = repo('cloned', 'https://x:tok@github.com/acme/specs.git');
    await expect(defaultTreeName(join(top, 'team2', 'specs'))).resolves.toBe('github.com/acme/specs:team2/specs');
    await expect(defaultTreeName(top)).resolves.toBe('github.com/acme/specs');
  });

  it('should read an scp-like remote from the folder given relative', async () => {
    const top = repo('scp', 'git@github.com:acme/specs.git');
    const cwd = process.cwd();
    process.chdir(top);
    try {
      await expect(defaultTreeName('team2')).resolves.toBe('github.com/acme/specs:team2');
    } finally {
      process.chdir(cwd);
    }
  });

  it('should name a repository without a remote by its work tree path', async () => {
    const top = repo('local');
    await expect(defaultTreeName(join(top, 'team2', 'specs'))).resolves.toBe(`${top}:team2/specs`);
  });

  it('should name a folder outside Git by its absolute path', async () => {
    const outside = join(dir, 'plain');
    mkdirSync(outside);
    await expect(defaultTreeName(outside)).resolves.toBe(outside);
  });

  it('should keep to the tree name pattern: other characters made -, and the last 300 characters', async () => {
    const top = repo('odd name (copy)');
    const deep = join(top, ...Array.from({ length: 8 }, (_, index) => `${index}`.repeat(40)));
    mkdirSync(deep, { recursive: true });
    const name = await defaultTreeName(deep);
    expect(name).toMatch(TREE_NAME.pattern);
    expect(name).toHaveLength(300);
    expect(name.endsWith(`/${'7'.repeat(40)}`)).toBe(true);
    await expect(defaultTreeName(join(top, 'team2'))).resolves.toBe(`${dir}/odd-name--copy-:team2`);
  });
});
