import { type ApiRecord, type TreeImportRequest, type TreeItem, type TreePlan, type TreePlanAction, type TreePlanEntry, TREE_IMPORT_LIMITS } from '#contracts';
import { DESCRIPTOR, type ScannedItem, type TreeScan, type UrlItem } from './import-tree.js';
import type { PlatformClient } from './platform-client.js';

export interface SyncOptions {
  orgId: string;
  tree: string;
  teamName?: string;
  lifecycle?: ApiRecord['lifecycle'];
  prune: boolean;
  adopt: boolean;
  dryRun: boolean;
  failOnBreaking: boolean;
  /** Compare every change before writing, though no gate or dry run asks for it (`--report`, `--output json`). */
  compare: boolean;
  /** Spec text a call carries at most (the gateway's SPEC_MAX_BYTES): one larger spec goes alone. */
  maxBytesPerCall: number;
  onProgress: (done: number, total: number, what: string) => void;
}

/** What an import did, or would do: the server's plan, with what was written. */
export interface SyncResult {
  plan: TreePlan;
  /** Something was written. */
  written: boolean;
  /** `--fail-on-breaking` found a blocking change, so nothing was written. */
  stopped: boolean;
}

// Two plan calls at once: the gateway's spec threads are two, and another caller finds room.
const CONCURRENCY = 2;

/**
 * Brings the org's APIs of one tree in line with a scan. One plan call with every item's hash
 * says what is unchanged; when asked to compare (a gate, a dry run, a report), the texts of the
 * items that change are sent to be planned in full before anything is written. Then the texts are
 * sent to be written, each API's items in one call, and the deletions come last.
 */
export async function syncTree(client: PlatformClient, scan: TreeScan, options: SyncOptions): Promise<SyncResult> {
  const texts = new Map(scan.items.map((item) => [item.path, item]));
  const request: TreeImportRequest = {
    orgId: options.orgId,
    tree: options.tree,
    items: scan.items.map(treeItem),
    failed: scan.failed,
    skipped: scan.skipped,
    // A descriptor that could not be read may hold components: what was recorded stays.
    components: scan.failed.some((failure) => DESCRIPTOR.test(failure.path.split('/').at(-1)!)) ? undefined : scan.components,
    prune: false,
    adopt: options.adopt,
    lifecycle: options.lifecycle,
    teamName: options.teamName,
  };
  let plan = await client.planTree({ ...request, prune: options.prune });
  // The texts to send: those the hashes alone could not plan.
  const toSend = plan.entries.filter((entry) => entry.needsSpec).map((entry) => entry.path);

  if (options.dryRun || options.failOnBreaking || options.compare) {
    const answers = await inBatches(batchesOf(toSend, texts, options.maxBytesPerCall), options, 'compared', (specs) =>
      client.planTree({ ...request, prune: options.prune, specs }),
    );
    plan = recount(merged(plan, answers, (entry, batch) => batch.has(entry.path) && entry.action !== 'deleted'));
  }
  // The gate first: a stopped import writes nothing, URL imports included.
  const stopped = options.failOnBreaking && plan.blocking > 0;
  const urls = await importUrls(client, scan.urlItems, { ...options, dryRun: options.dryRun || stopped });
  plan = recount({ ...plan, entries: [...plan.entries, ...urls] });
  if (stopped) return { plan, written: false, stopped: true };
  const writes = plan.counts.added + plan.counts.updated + plan.counts.deleted;
  if (options.dryRun || (writes === 0 && !plan.treeChanged)) return { plan, written: false, stopped: false };

  const failed = new Set(plan.entries.filter((entry) => entry.action === 'failed').map((entry) => entry.path));
  const batches = batchesOf(
    toSend.filter((path) => !failed.has(path)),
    texts,
    options.maxBytesPerCall,
  );
  // One call after another, each on the generation the last one answered: another import of the
  // tree in between is refused (409), rather than interleave its writes and prunes with these.
  // The first call also makes the writes that need no text (a file moved, an entity's details);
  // the last deletes (`prune`), told every failure so far so that nothing a failed file fed goes.
  const answers: Answer[] = [];
  const refused = new Map(scan.failed.map((failure) => [failure.path, failure]));
  let generation = plan.generation;
  const total = batches.reduce((sum, batch) => sum + Object.keys(batch).length, 0);
  let done = 0;
  if (batches.length === 0) batches.push({});
  for (const [index, specs] of batches.entries()) {
    const last = index === batches.length - 1;
    const answer = await client.applyTree({ ...request, failed: [...refused.values()], prune: last && options.prune, specs, generation });
    generation = answer.generation;
    answers.push({ batch: new Set(Object.keys(specs)), answer });
    for (const entry of answer.entries) {
      if (entry.action === 'failed' && texts.has(entry.path)) refused.set(entry.path, { path: entry.path, reason: entry.reason ?? 'failed' });
    }
    done += Object.keys(specs).length;
    options.onProgress(done, total, 'written');
  }
  const result = merged(plan, answers, (entry) => entry.applied === true || entry.action === 'failed' || entry.action === 'deleted');
  return { plan: recount({ ...result, treeChanged: false }), written: true, stopped: false };
}

/** What the gateway needs of an item: all but its text. */
function treeItem({ spec: _text, ...item }: ScannedItem): TreeItem {
  return item;
}

/** The texts of `paths` in calls of at most `maxBytes` (and `maxSpecsPerCall`), an API's items together where they fit. */
function batchesOf(paths: string[], texts: Map<string, ScannedItem>, maxBytes: number): Record<string, string>[] {
  const ordered = paths
    .map((path) => texts.get(path))
    .filter((item): item is ScannedItem => item !== undefined)
    .sort((a, b) => a.key.localeCompare(b.key) || a.path.localeCompare(b.path));
  const batches: Record<string, string>[] = [];
  let current: Record<string, string> = {};
  let bytes = 0;
  for (const item of ordered) {
    const count = Object.keys(current).length;
    if (count > 0 && (count >= TREE_IMPORT_LIMITS.maxSpecsPerCall || bytes + item.bytes > maxBytes)) {
      batches.push(current);
      current = {};
      bytes = 0;
    }
    current[item.path] = item.spec;
    bytes += item.bytes;
  }
  if (Object.keys(current).length) batches.push(current);
  return batches;
}

type Answer = { batch: Set<string>; answer: TreePlan };

async function inBatches(
  batches: Record<string, string>[],
  options: SyncOptions,
  what: string,
  call: (specs: Record<string, string>) => Promise<TreePlan>,
): Promise<Answer[]> {
  const total = batches.reduce((sum, batch) => sum + Object.keys(batch).length, 0);
  const answers: Answer[] = [];
  const queue = [...batches];
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let specs = queue.shift(); specs; specs = queue.shift()) {
        answers.push({ batch: new Set(Object.keys(specs)), answer: await call(specs) });
        done += Object.keys(specs).length;
        options.onProgress(done, total, what);
      }
    }),
  );
  return answers;
}

/**
 * The plan with the entries each answer decided (`takes`) in place of the plan's: the same path and
 * version, of the same API (a new API's entry has no id until it is written).
 */
function merged(plan: TreePlan, answers: Answer[], takes: (entry: TreePlanEntry, batch: Set<string>) => boolean): TreePlan {
  const entries = [...plan.entries];
  const at = new Map<string, number[]>();
  const place = (entry: TreePlanEntry) => `${entry.path}\n${entry.version ?? ''}`;
  for (const [index, entry] of entries.entries()) at.set(place(entry), [...(at.get(place(entry)) ?? []), index]);
  for (const { batch, answer } of answers) {
    for (const entry of answer.entries) {
      if (!takes(entry, batch)) continue;
      const same = (at.get(place(entry)) ?? []).find((index) => !entries[index].apiId || !entry.apiId || entries[index].apiId === entry.apiId);
      if (same !== undefined) entries[same] = entry;
      else at.set(place(entry), [...(at.get(place(entry)) ?? []), entries.push(entry) - 1]);
    }
  }
  return { ...plan, entries };
}

function recount(plan: TreePlan): TreePlan {
  const counts = Object.fromEntries(Object.keys(plan.counts).map((action) => [action, 0])) as Record<TreePlanAction, number>;
  for (const entry of plan.entries) counts[entry.action] += 1;
  const entries = [...plan.entries].sort(
    (a, b) => (a.name ?? '').localeCompare(b.name ?? '') || (a.version ?? '').localeCompare(b.version ?? '') || a.path.localeCompare(b.path),
  );
  return { ...plan, entries, counts, blocking: entries.filter((entry) => entry.blocking).length };
}

/**
 * Entities whose definition is at a URL: the platform imports and refreshes those itself (`POST
 * …/apis/import`), once; one of the org's APIs of that name from elsewhere is a failure.
 */
async function importUrls(client: PlatformClient, items: UrlItem[], options: SyncOptions): Promise<TreePlanEntry[]> {
  if (items.length === 0) return [];
  const byName = new Map((await client.listAllApis(options.orgId)).map((api) => [api.name.toLowerCase(), api]));
  const entries: TreePlanEntry[] = [];
  for (const item of items) {
    const api = byName.get(item.name.toLowerCase());
    const entry: TreePlanEntry = { action: 'unchanged', path: item.path, name: item.name, ...(api ? { apiId: api.apiId, version: api.version } : {}) };
    if (api?.source?.url === item.url) entries.push(entry);
    else if (api)
      entries.push({
        ...entry,
        action: 'failed',
        reason: `the org already has an API named "${api.name}" (${api.apiId}) that is not imported from ${item.url}`,
      });
    else if (options.dryRun) entries.push({ ...entry, action: 'added', newApi: true });
    else {
      try {
        const record = await client.importApi({
          orgId: options.orgId,
          url: item.url,
          name: item.name,
          teamName: item.teamName ?? options.teamName,
          format: item.format,
          lifecycle: item.lifecycle ?? options.lifecycle,
        });
        entries.push({
          ...entry,
          action: 'added',
          newApi: true,
          apiId: record.apiId,
          version: record.version,
          applied: true,
          ...(record.warnings ? { warnings: record.warnings } : {}),
        });
      } catch (error) {
        entries.push({ ...entry, action: 'failed', reason: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return entries;
}
