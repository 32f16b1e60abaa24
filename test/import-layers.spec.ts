import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Imports run downward only: within an app, its top-level folders (and the files at its root)
 * form layers, so no folder imports one that imports it back, directly or through others.
 * Tests may reach anywhere, so `*.spec.ts` files are left out.
 */
const APPS = ['apps/ai/src', 'apps/gateway/src', 'apps/web/src', 'apps/cli/src'];

/** A file's room in its app: its top-level folder, or the file itself at the app's root. */
function roomOf(appDir: string, file: string): string {
  const path = relative(appDir, file);
  return path.includes(sep) ? path.split(sep)[0] : path.replace(/\.js$/, '.ts');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Room → the rooms it imports, each with one file that does (for the message). */
function roomImports(appDir: string): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(appDir)) {
    const from = roomOf(appDir, file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), specifier);
      if (relative(appDir, target).startsWith('..')) continue;
      const to = roomOf(appDir, target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, relative(appDir, file));
    }
  }
  return edges;
}

/** Each import that closes a loop, as "a → b (file)", found by depth-first search. */
function loops(edges: Map<string, Map<string, string>>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const visit = (room: string): void => {
    state.set(room, 'open');
    for (const [next, file] of edges.get(room) ?? []) {
      if (state.get(next) === 'open') found.push(`${room} → ${next} (${file})`);
      else if (!state.has(next)) visit(next);
    }
    state.set(room, 'done');
  };
  for (const room of edges.keys()) if (!state.has(room)) visit(room);
  return found;
}

describe('import layers', () => {
  it.each(APPS)('should have no loop between the folders of %s', (app) => {
    expect(loops(roomImports(resolve(app)))).toEqual([]);
  });

  it('should see a loop when there is one', () => {
    const edges = new Map([
      ['indexing', new Map([['reindex', 'indexing/indexing.module.ts']])],
      ['reindex', new Map([['indexing', 'reindex/reindex.module.ts']])],
    ]);
    expect(loops(edges)).toEqual(['reindex → indexing (reindex/reindex.module.ts)']);
  });
});
