import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';

/** Permission bits of the group and of others. */
const SHARED_BITS = 0o077;

/**
 * Makes `dir` a directory only this user can enter, read or write, with everything in it: the
 * files this process creates from now on (umask) and those an earlier version or another tool
 * left readable by others (checked at each start and tightened; `quiet` when that is expected).
 * PGlite's first start writes its files 0666 whatever the umask (later ones follow it): they are
 * out of others' reach inside the 0700 directory, and tightened once it has started. Returns how
 * many were tightened.
 */
export function ownerOnlyDirectory(dir: string, { quiet = false } = {}): number {
  process.umask(SHARED_BITS);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let tightened = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const path = stack.pop()!;
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) continue;
    if (stats.mode & SHARED_BITS) {
      chmodSync(path, stats.mode & 0o7700);
      tightened += 1;
    }
    if (stats.isDirectory()) stack.push(...readdirSync(path).map((name) => join(path, name)));
  }
  if (tightened > 0 && !quiet)
    new Logger('Database').warn(`${dir}: ${tightened} files and folders were readable by other users; now only their owner may read them`);
  return tightened;
}
