import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
// TREE_NAME.pattern's bound.
const MAX_CHARS = 300;

/** A git answer, or undefined when git is missing, fails, or says nothing (no remote, not a work tree). */
async function git(folder: string, ...args: string[]): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', ['-C', folder, ...args]);
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A remote as `host/path`: the same repository whichever way it is cloned, and no user, token or
 * port in a name the registry stores. A local path remote is made absolute from the work tree.
 */
export function remoteName(remote: string, toplevel: string): string | undefined {
  const strip = (path: string) => path.replace(/\/+$/, '').replace(/\.git$/, '');
  if (isAbsolute(remote)) return strip(remote);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote)) {
    // One no URL parser reads names no repository: the work tree's path does instead.
    if (!URL.canParse(remote)) return undefined;
    const url = new URL(remote);
    const path = strip(url.pathname).replace(/^\/+/, '');
    return url.hostname ? `${url.hostname}/${path}` : path;
  }
  // scp-like `user@host:path`: a colon before any slash.
  const scp = /^(?:[^@/]+@)?([^:/]+):(.*)$/.exec(remote);
  if (scp) return `${scp[1].toLowerCase()}/${strip(scp[2]).replace(/^\/+/, '')}`;
  return strip(resolve(toplevel, remote));
}

/** The name as `TREE_NAME.pattern` allows it: other characters made `-`, and its end when too long (the folder's path is there). */
function allowed(name: string): string {
  return name.replace(/[^\w.:/@+~-]/g, '-').slice(-MAX_CHARS);
}

/**
 * A tree's default name: the repository's remote and the folder's path in it
 * (`github.com/acme/specs:team2/specs`); without a remote the work tree's absolute path in its
 * place; outside Git, the folder's absolute path. Runs git locally only: nothing is fetched.
 */
export async function defaultTreeName(folder: string): Promise<string> {
  const real = await realpath(resolve(folder));
  const toplevel = await git(real, 'rev-parse', '--show-toplevel');
  if (!toplevel) return allowed(real);
  const top = await realpath(toplevel);
  const inside = relative(top, real);
  // git answered for some other tree (GIT_DIR set): the folder's own path says more.
  if (inside.startsWith('..') || isAbsolute(inside)) return allowed(real);
  const remote = await git(top, 'config', '--get', 'remote.origin.url');
  const base = (remote && remoteName(remote, top)) || top;
  return allowed(inside ? `${base}:${inside.split(sep).join('/')}` : base);
}
