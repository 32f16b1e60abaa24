import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import yaml from 'js-yaml';
import { defaultSpecFormats, isObject } from '#api-specs';
import { LIFECYCLE_STAGES, type LifecycleStage } from '#contracts';

/** One API the tree holds: a spec file, or a Backstage `kind: API` entity. */
export interface ImportItem {
  /** Its identity in the tree: the file's path from its root with `/`, `#<entity>` for a descriptor's API. */
  path: string;
  name: string;
  version: string;
  teamName?: string;
  lifecycle?: LifecycleStage;
  format?: string;
  /** The exact text sent (its SHA-256 tells an unchanged file), or… */
  spec?: string;
  /** …the address a descriptor's `$text` names, for the URL import. */
  url?: string;
}

export interface TreeScan {
  items: ImportItem[];
  /** Files and entities that are not APIs. */
  skipped: string[];
  failed: { path: string; reason: string }[];
  /** Every path seen, failed ones too: `--prune` deletes only the APIs of paths not in it. */
  seen: Set<string>;
}

export interface ScanOptions {
  /** File endings of the platform's kinds, each with the kinds that read it (`GET /api-management/kinds`). */
  extensions: Map<string, string[]>;
  /** Kind names, for a descriptor's `spec.type`. */
  kinds: Set<string>;
  maxBytes: number;
}

// The platform's own formats say which JSON or YAML file is a spec (`SpecMarker`): no kind is known here.
const FORMATS = defaultSpecFormats();
// Extensions of the formats that mark their documents: which kind such a file holds, its keys say, not its name.
const DOCUMENT_EXTENSIONS = new Set(FORMATS.all.flatMap((format) => (format.marker ? format.fileExtensions : [])));
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);
const DESCRIPTOR = /^catalog-info\.ya?ml$/;
const BACKSTAGE_STAGES: Record<string, LifecycleStage> = { experimental: 'development', production: 'production', deprecated: 'deprecated' };

class ItemError extends Error {}

/**
 * A root's files, recursively, sorted; symbolic links, hidden folders and build output left out.
 * FIFOs, sockets and devices are listed, so that one with a spec's name fails as an item.
 */
async function walk(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name)) files.push(...(await walk(path)));
    } else if (!entry.isSymbolicLink()) files.push(path);
  }
  return files;
}

/** What a path is, when it is not a regular file. */
function typeOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The size of a regular file (a path given on the command line may be a link to one; the walk
 * lists no links); anything else is an item's error: a FIFO would block the read for ever, a
 * device never end.
 */
async function regularFileSize(file: string): Promise<number> {
  const stats = await stat(file);
  if (!stats.isFile()) throw new ItemError(`${typeOf(stats)}, not a regular file: only regular files are read`);
  return stats.size;
}

/**
 * Opens a file that `regularFileSize` found regular, and checks again what was opened: one
 * swapped for a FIFO since does not block the open (`O_NONBLOCK`), and is refused unread.
 */
async function openRegular(file: string): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const stats = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (!stats.isFile()) {
    await handle.close();
    throw new ItemError(`${typeOf(stats)}, not a regular file: only regular files are read`);
  }
  return { handle, size: stats.size };
}

/** Reads a regular file, refusing anything else, and one over the limit before reading it (or past the limit, should it grow meanwhile). */
async function readBounded(file: string, maxBytes: number): Promise<string> {
  const tooLarge = (size: number | string) => new ItemError(`${size} bytes, over the spec limit of ${maxBytes}`);
  const size = await regularFileSize(file);
  if (size > maxBytes) throw tooLarge(size);
  const { handle, size: openedSize } = await openRegular(file);
  try {
    if (openedSize > maxBytes) throw tooLarge(openedSize);
    // One byte more than it holds: a file that grew since is noticed, and read no further than the limit.
    const buffer = Buffer.alloc(openedSize + 1);
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    if (read > openedSize) throw new ItemError('changed while it was read: run the import again');
    return buffer.toString('utf8', 0, read);
  } finally {
    await handle.close();
  }
}

/** Whether a file over the limit looks like a spec (its start has a format's marker). */
async function looksLikeSpec(file: string): Promise<boolean> {
  const { handle } = await openRegular(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8');
    return FORMATS.markedText(head);
  } finally {
    await handle.close();
  }
}

function parseDocument(text: string, ext: string): unknown {
  return ext === '.json' ? JSON.parse(text) : yaml.load(text);
}

function text(value: unknown): string | undefined {
  return (typeof value === 'string' && value.trim()) || (typeof value === 'number' ? String(value) : undefined) || undefined;
}

const stem = (file: string) => basename(file, extname(file));

/** Name and version a JSON/YAML spec names (`info.title`, `info.version`), if it names them. */
function documentInfo(document: unknown): { name?: string; version?: string } {
  const info = isObject(document) && isObject(document.info) ? document.info : {};
  return { name: text(info.title), version: text(info.version) };
}

/** Walks `roots` and reads every API in them; nothing is sent anywhere. */
export async function scanTree(roots: string[], options: ScanOptions): Promise<TreeScan> {
  const scan: TreeScan = { items: [], skipped: [], failed: [], seen: new Set() };
  const claimed = new Set<string>();
  const pending: { root: string; file: string; path: string }[] = [];
  for (const given of roots) {
    // A path that is no folder is one item (a FIFO given fails as one, unread).
    const isFile = !(await stat(given)).isDirectory();
    const root = resolve(isFile ? dirname(given) : given);
    for (const file of isFile ? [resolve(given)] : await walk(root)) pending.push({ root, file, path: relative(root, file).split(sep).join('/') });
  }
  const fail = (path: string, error: unknown) => {
    scan.seen.add(path);
    scan.failed.push({ path, reason: error instanceof Error ? error.message : String(error) });
  };
  // Two roots can hold the same relative path: the second would pass for the first's API.
  const add = (item: ImportItem) => {
    const taken = 'another of the given paths has a file at this path: import them as separate trees (--tree)';
    if (scan.seen.has(item.path)) return fail(item.path, new Error(taken));
    scan.seen.add(item.path);
    scan.items.push(item);
  };

  // Descriptors first: a file one points to is that descriptor's API, not one of its own.
  for (const { root, file, path } of pending.filter((entry) => DESCRIPTOR.test(basename(entry.file)))) {
    try {
      const entities = yaml.loadAll(await readBounded(file, options.maxBytes));
      for (const [index, entity] of entities.entries()) {
        if (entity == null) continue;
        const id = isObject(entity) && isObject(entity.metadata) ? text(entity.metadata.name) : undefined;
        const entityPath = `${path}#${id ?? index + 1}`;
        if (!isObject(entity) || String(entity.kind).toLowerCase() !== 'api') {
          scan.skipped.push(entityPath);
          continue;
        }
        try {
          add(await descriptorItem(entity, entityPath, { root, file }, options, claimed));
        } catch (error) {
          if (!(error instanceof ItemError)) throw error;
          fail(entityPath, error);
        }
      }
    } catch (error) {
      fail(path, error instanceof yaml.YAMLException ? new Error(`not a readable catalog descriptor: ${error.reason}`) : error);
    }
  }

  for (const { file, path } of pending) {
    if (DESCRIPTOR.test(basename(file)) || claimed.has(await realpath(file))) continue;
    const ext = extname(file).toLowerCase();
    const kinds = options.extensions.get(ext);
    if (!kinds) {
      scan.skipped.push(path);
      continue;
    }
    try {
      const item = await fileItem(file, path, ext, kinds, options);
      if (item) add(item);
      else scan.skipped.push(path);
    } catch (error) {
      fail(path, error);
    }
  }
  return scan;
}

/** A spec file on its own; undefined when it is no spec (package.json). */
async function fileItem(file: string, path: string, ext: string, kinds: string[], options: ScanOptions): Promise<ImportItem | undefined> {
  const size = await regularFileSize(file);
  const isDocument = DOCUMENT_EXTENSIONS.has(ext);
  if (size > options.maxBytes) {
    if (isDocument && !(await looksLikeSpec(file))) return undefined;
    throw new Error(`${size} bytes, over the spec limit of ${options.maxBytes}`);
  }
  const spec = await readBounded(file, options.maxBytes);
  if (!isDocument) return { path, name: stem(file), version: '1', spec, format: kinds.length === 1 ? kinds[0] : undefined };
  let document: unknown;
  try {
    document = parseDocument(spec, ext);
  } catch (error) {
    // A broken file that says it is a spec fails, to be fixed; other broken JSON or YAML is no concern of this import.
    if (!FORMATS.markedText(spec)) return undefined;
    const reason = error instanceof yaml.YAMLException ? error.reason : (error as Error).message;
    throw new Error(`not valid ${ext === '.json' ? 'JSON' : 'YAML'}: ${reason}`, { cause: error });
  }
  if (!FORMATS.marked(document)) return undefined;
  const info = documentInfo(document);
  return { path, name: info.name ?? stem(file), version: info.version ?? '1', spec };
}

/** A Backstage `kind: API` entity: its details, and its definition inline, from a file beside it, or from a URL. */
async function descriptorItem(
  entity: Record<string, unknown>,
  path: string,
  at: { root: string; file: string },
  options: ScanOptions,
  claimed: Set<string>,
): Promise<ImportItem> {
  const metadata = isObject(entity.metadata) ? entity.metadata : {};
  const spec = isObject(entity.spec) ? entity.spec : {};
  const name = text(metadata.title) ?? text(metadata.name);
  if (!name) throw new ItemError('an API entity without metadata.name');
  const type = text(spec.type)?.toLowerCase();
  const stage = text(spec.lifecycle)?.toLowerCase();
  const item = {
    path,
    name,
    teamName: text(spec.owner)?.replace(/^(group|team):/i, ''),
    lifecycle: stage ? (BACKSTAGE_STAGES[stage] ?? LIFECYCLE_STAGES.find((known) => known === stage)) : undefined,
    format: type && options.kinds.has(type) ? type : undefined,
  };

  const definition = spec.definition;
  let body: string;
  if (typeof definition === 'string' && definition.trim()) body = definition;
  else if (isObject(definition) && typeof definition.$text === 'string') {
    const target = definition.$text;
    if (/^https?:\/\//i.test(target)) return { ...item, version: '1', url: target };
    const file = await inside(at, target);
    body = await readBounded(file, options.maxBytes).catch((error: unknown) => {
      throw new ItemError(`$text ${target}: ${(error as Error).message}`);
    });
    claimed.add(file);
  } else throw new ItemError('an API entity without spec.definition (text, or $text)');

  let version: string | undefined;
  try {
    version = documentInfo(yaml.load(body)).version;
  } catch {
    // SDL and .proto are no YAML: the version is the default.
  }
  return { ...item, version: version ?? '1', spec: body };
}

/** The file a `$text` names, relative to its descriptor; one outside the walked root (through a link too) is refused. */
async function inside(at: { root: string; file: string }, target: string): Promise<string> {
  const file = resolve(dirname(at.file), target);
  const real = await realpath(file).catch(() => {
    throw new ItemError(`$text ${target}: no such file`);
  });
  const fromRoot = relative(await realpath(at.root), real);
  if (isAbsolute(target) || fromRoot.startsWith('..') || isAbsolute(fromRoot)) throw new ItemError(`$text ${target}: outside the imported folder`);
  return real;
}
