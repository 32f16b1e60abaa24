import { createHash } from 'node:crypto';
import type { ApiRecord, ApiSource } from '#contracts';
import type { ImportItem, TreeScan } from './import-tree.js';
import type { PlatformClient, RegisterBody } from './platform-client.js';

/** A record as the gateway lists it with the source it was imported from. */
type SourcedRecord = ApiRecord & { source?: ApiSource };

export interface SyncOptions {
  orgId: string;
  tree: string;
  teamName?: string;
  lifecycle?: ApiRecord['lifecycle'];
  prune: boolean;
  dryRun: boolean;
  onProgress: (done: number, total: number) => void;
}

/** What an import did (or, in a dry run, would do): paths by outcome. */
export interface SyncReport {
  added: string[];
  updated: string[];
  unchanged: string[];
  deleted: string[];
  skipped: string[];
  failed: { path: string; reason: string }[];
  /** Paths whose registration broke a version in production, or could not be proven not to, with the gateway's warnings. */
  breaking: { path: string; warnings: string[] }[];
}

// A few requests at once: a large tree goes faster without crowding out the gateway's other callers.
const CONCURRENCY = 4;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Brings the org's APIs of one tree in line with a scan: one listing first, then a write only for
 * a file that is new or whose text changed, so running it again on the same tree writes nothing.
 */
export async function syncTree(client: PlatformClient, scan: TreeScan, options: SyncOptions): Promise<SyncReport> {
  const report: SyncReport = { added: [], updated: [], unchanged: [], deleted: [], skipped: scan.skipped, failed: [...scan.failed], breaking: [] };
  // Kept to the tree here too: prune must never reach an API of another tree, whatever the listing holds.
  const existing = new Map<string, SourcedRecord>();
  for (const api of (await client.listAllApis(options.orgId, { sourceTree: options.tree })) as SourcedRecord[]) {
    if (api.source?.tree === options.tree && api.source.path) existing.set(api.source.path, api);
  }
  // URL imports are found by name (the import route takes no tree); listed only when there are any.
  const byName = scan.items.some((item) => item.url)
    ? new Map(((await client.listAllApis(options.orgId)) as SourcedRecord[]).map((api) => [api.name, api]))
    : new Map<string, SourcedRecord>();

  let done = 0;
  const work = async (item: ImportItem) => {
    try {
      const outcome = item.url
        ? await importUrl(client, item, byName.get(item.name), options)
        : await registerFile(client, item, existing.get(item.path), options);
      report[outcome.outcome].push(item.path);
      if (outcome.warnings?.length) report.breaking.push({ path: item.path, warnings: outcome.warnings });
    } catch (error) {
      report.failed.push({ path: item.path, reason: error instanceof Error ? error.message : String(error) });
    }
    options.onProgress(++done, scan.items.length);
  };
  const queue = [...scan.items];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) await work(item);
    }),
  );

  if (options.prune) {
    for (const [path, api] of existing) {
      if (scan.seen.has(path)) continue;
      try {
        if (!options.dryRun) await client.deleteApi(api.apiId);
        report.deleted.push(path);
      } catch (error) {
        report.failed.push({ path, reason: `delete ${api.apiId}: ${(error as Error).message}` });
      }
    }
  }
  for (const list of [report.added, report.updated, report.unchanged, report.deleted]) list.sort();
  report.failed.sort((a, b) => a.path.localeCompare(b.path));
  return report;
}

type Outcome = { outcome: 'added' | 'updated' | 'unchanged'; warnings?: string[] };

async function registerFile(client: PlatformClient, item: ImportItem, api: SourcedRecord | undefined, options: SyncOptions): Promise<Outcome> {
  const spec = item.spec!;
  if (api?.source?.sha256 === sha256(spec)) return { outcome: 'unchanged' };
  const lifecycle = item.lifecycle ?? options.lifecycle;
  const source = { tree: options.tree, path: item.path };
  if (!api) {
    const body: RegisterBody = {
      orgId: options.orgId,
      name: item.name,
      version: item.version,
      teamName: item.teamName ?? options.teamName,
      spec,
      format: item.format,
      lifecycle,
      source,
    };
    return { outcome: 'added', warnings: options.dryRun ? undefined : (await client.registerApi(body)).warnings };
  }
  // The API keeps what people gave it here (name, team, description, labels); only the spec and its version follow the file.
  const body: RegisterBody = {
    orgId: api.orgId,
    name: api.name,
    version: item.version,
    teamName: api.teamName,
    description: api.description,
    labels: api.labels,
    spec,
    format: item.format,
    lifecycle,
    source,
  };
  return { outcome: 'updated', warnings: options.dryRun ? undefined : (await client.updateApi(api.apiId, body, api.source?.version)).warnings };
}

async function importUrl(client: PlatformClient, item: ImportItem, api: SourcedRecord | undefined, options: SyncOptions): Promise<Outcome> {
  // The platform refreshes a URL import by itself: once it exists there is nothing to send.
  if (api?.source?.url === item.url) return { outcome: 'unchanged' };
  if (api) throw new Error(`the org already has an API named "${item.name}" (${api.apiId}) that is not imported from ${item.url}`);
  if (options.dryRun) return { outcome: 'added' };
  const record = await client.importApi({
    orgId: options.orgId,
    url: item.url!,
    name: item.name,
    teamName: item.teamName ?? options.teamName,
    format: item.format,
    lifecycle: item.lifecycle ?? options.lifecycle,
  });
  return { outcome: 'added', warnings: record.warnings };
}
