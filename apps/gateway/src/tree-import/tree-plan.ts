import {
  type ApiSource,
  type CatalogInfo,
  DEFAULT_LIFECYCLE,
  type LifecycleStage,
  normalizeLabels,
  type TreeImportRequest,
  type TreeItem,
  type TreePlanEntry,
  type TreeComponent,
} from '#contracts';
import type { ApiEntity } from '../registry/api.entity.js';
import type { ApiVersionEntity } from '../registry/api-version.entity.js';
import { followedVersion, inReleaseOrder } from '../registry/recommended-version.js';

/** An API of the org as the plan sees it: its row and its versions. */
export interface KnownApi {
  api: ApiEntity;
  versions: ApiVersionEntity[];
}

/** What the registry holds that a tree's plan reads (`TreeState.load`). */
export interface TreeSnapshot {
  /** The live APIs of the tree. */
  apis: KnownApi[];
  /** Other live APIs of the org whose (lower case) name an item's API has. */
  othersByName: Map<string, KnownApi>;
  /** Files a descriptor of the tree named before. */
  describedPaths: ReadonlySet<string>;
  /** The components its last import recorded. */
  components: TreeComponent[];
  /** Its generation (`TreeImportRequest.generation`): 0 before its first apply. */
  generation: number;
}

/** A plan entry with what applying it needs. */
export interface PlannedEntry extends TreePlanEntry {
  item?: TreeItem;
  /** The API it changes (absent for a new one). */
  known?: KnownApi;
  /** The items of a new API: the first written creates it. */
  group?: string;
  /** The version its spec is compared with: the one it revises, or the production version a new one follows. */
  base?: ApiVersionEntity;
  /** `updated` by adoption: the version has no file yet, so whether its text changed needs its current revision. */
  unsourced?: boolean;
  /** `deleted`: the whole API goes (every version the tree fed, and no other). */
  apiDeleted?: boolean;
  stage?: LifecycleStage;
  /** The API's `source` once written: its tree and key. */
  apiSource?: ApiSource;
}

/** The details an entity's descriptor gives its API (a plain file's API keeps what people gave it). */
export function entityDetails(item: TreeItem) {
  return {
    name: item.name.trim(),
    teamName: item.teamName?.trim() || null,
    description: item.description?.trim() || null,
    labels: normalizeLabels(item.labels ?? {}),
    catalog: item.catalog ?? null,
  };
}

/** Whether an apply would record something new of the tree itself: its components, or a file a descriptor names. */
export function treeChanged(request: TreeImportRequest, state: TreeSnapshot): boolean {
  // Field by field: jsonb keeps an object's keys in an order of its own.
  const sorted = (components: TreeComponent[]) =>
    JSON.stringify(
      [...components]
        .sort((a, b) => a.path.localeCompare(b.path))
        .map(({ entityRef, path, providesApis, consumesApis }) => [entityRef, path, providesApis, consumesApis]),
    );
  if (request.components && sorted(request.components) !== sorted(state.components)) return true;
  return request.items.some((item) => item.file !== undefined && !state.describedPaths.has(item.file));
}

const isEntity = (item: TreeItem) => item.key.startsWith('entity:');
const lower = (text: string) => text.trim().toLowerCase();
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function catalogEquals(a: CatalogInfo | null | undefined, b: CatalogInfo | null | undefined): boolean {
  const canonical = (value: CatalogInfo | null | undefined) =>
    value ? { entityRef: value.entityRef, owner: value.owner, system: value.system, tags: [...(value.tags ?? [])].sort() } : null;
  return sameJson(canonical(a), canonical(b));
}

/**
 * The plan of a tree against the registry, from the items' hashes alone: what each item adds,
 * updates or leaves, which API it belongs to, and (with `prune`) what the tree no longer holds.
 * Checking and comparing the specs sent is the service's part. Nothing here writes.
 *
 * - Items with one key are versions of one API; two items claiming one version of it both fail.
 * - An API is found by its key in the tree, else (an API imported before keys) by a version's
 *   file, else by its name in the tree; an API of the org of that name without a source is taken
 *   over only with `adopt`; one of another tree or a URL is never.
 * - A version whose file now holds another version stays (with its stage). A version is pruned
 *   only when its file is gone or now holds another API; never when its file (or its
 *   descriptor) is present but failed, or present and no longer read as a spec (that fails).
 */
export function planTree(request: TreeImportRequest, state: TreeSnapshot): PlannedEntry[] {
  const entries: PlannedEntry[] = [];
  const failedPaths = new Set((request.failed ?? []).map((failure) => failure.path));
  const skippedPaths = new Set(request.skipped ?? []);
  // Indexes of what the registry holds: a plan of 10,000 items stays linear.
  const fedBy = new Map<string, { known: KnownApi; version: ApiVersionEntity }[]>();
  const byKey = new Map<string, KnownApi>();
  const byName = new Map<string, KnownApi[]>();
  for (const known of state.apis) {
    if (known.api.source?.key) byKey.set(known.api.source.key, known);
    byName.set(lower(known.api.name), [...(byName.get(lower(known.api.name)) ?? []), known]);
    for (const version of known.versions) {
      if (version.source?.tree === request.tree) fedBy.set(version.source.path, [...(fedBy.get(version.source.path) ?? []), { known, version }]);
    }
  }
  const feeding = (path: string) => fedBy.get(path) ?? [];
  const named = (path: string) => {
    const [fed] = feeding(path);
    return fed ? { apiId: fed.known.api.id, name: fed.known.api.name, version: fed.version.version } : {};
  };

  // A failure an earlier call of the import found is of an item: named as the item is.
  const itemAt = new Map(request.items.map((item) => [item.path, item]));
  for (const failure of request.failed ?? []) {
    const item = itemAt.get(failure.path);
    const names = item ? { name: item.name, version: item.version } : named(failure.path);
    entries.push({ action: 'failed', path: failure.path, reason: failure.reason, ...names });
  }
  for (const path of skippedPaths) {
    if (feeding(path).length)
      entries.push({ action: 'failed', path, reason: 'no longer read as a spec (it was imported as one): fix it, or remove it', ...named(path) });
  }

  // Files a descriptor names are its entity's, even once the entity is gone.
  const described = new Set([...state.describedPaths, ...request.items.flatMap((item) => (item.file ? [item.file] : []))]);
  const byPath = new Map<string, TreeItem>();
  const groups = new Map<string, TreeItem[]>();
  for (const item of request.items) {
    if (byPath.has(item.path)) {
      entries.push({ action: 'failed', path: item.path, name: item.name, version: item.version, reason: 'two items of the tree have this path' });
      continue;
    }
    byPath.set(item.path, item);
    // Failed already (the caller says so: an earlier call of the same import refused it): not planned again.
    if (failedPaths.has(item.path)) continue;
    if (!isEntity(item) && described.has(item.path)) {
      entries.push({
        action: 'skipped',
        path: item.path,
        name: item.name,
        version: item.version,
        note: "a Backstage descriptor named this file as an entity's definition: it is not an API of its own (name it in a descriptor again)",
      });
      continue;
    }
    const group = groups.get(item.key);
    if (group) group.push(item);
    else groups.set(item.key, [item]);
  }

  /** Another API of the org with this name, which a rename from a descriptor would collide with (the registry's 409). */
  const nameTaken = (name: string, apiId: string) =>
    [...(byName.get(lower(name)) ?? []), ...[state.othersByName.get(lower(name))].filter((other) => other !== undefined)].find(
      (other) => other.api.id !== apiId,
    )?.api;

  const matched = new Map<string, KnownApi>();
  const claimed = new Set<string>();
  const claim = (key: string, known: KnownApi | undefined) => {
    if (!known || claimed.has(known.api.id)) return undefined;
    claimed.add(known.api.id);
    matched.set(key, known);
    return known;
  };
  // By key first, across all groups, so that a name or a file never takes an API another group's key names.
  for (const key of groups.keys()) claim(key, byKey.get(key));
  for (const [key, items] of groups) {
    if (matched.has(key)) continue;
    const byFile = items.flatMap((item) => feeding(item.path)).find(({ known }) => !known.api.source?.key && !claimed.has(known.api.id))?.known;
    if (!claim(key, byFile))
      claim(
        key,
        byName.get(lower(newest(items).name))?.find((known) => !claimed.has(known.api.id)),
      );
  }

  for (const [key, items] of groups) {
    const byVersion = new Map<string, TreeItem[]>();
    for (const item of items) {
      const same = byVersion.get(item.version);
      if (same) same.push(item);
      else byVersion.set(item.version, [item]);
    }
    const valid: TreeItem[] = [];
    for (const [version, same] of byVersion) {
      if (same.length === 1) {
        valid.push(same[0]);
        continue;
      }
      // One reason for all of them, naming a few: its size stays bounded however many files claim the version.
      const reason = `${same.length} files claim version "${version}" of "${same[0].name}": ${someOf(same.map((item) => item.path))}`;
      for (const item of same) entries.push({ action: 'failed', path: item.path, name: item.name, version, reason });
    }
    if (valid.length === 0) continue;
    const known = matched.get(key);
    if (known) {
      entries.push(...planVersions(request, key, valid, known, false, nameTaken));
      continue;
    }
    const name = newest(valid).name;
    const otherApi = state.othersByName.get(lower(name));
    const other = otherApi?.api;
    const [taken] = byName.get(lower(name)) ?? [];
    const refusal = taken
      ? `the name "${name}" is taken by another API of this tree (${taken.api.id}, ${taken.api.source?.key ?? 'imported before keys'})`
      : other?.source?.tree
        ? `the org already has an API named "${other.name}" (${other.id}), imported from tree "${other.source.tree}": import it from that tree, or rename one`
        : other?.source?.url
          ? `the org already has an API named "${other.name}" (${other.id}), imported from ${other.source.url}`
          : other && !request.adopt
            ? `the org already has an API named "${other.name}" (${other.id}), registered without a source: import with --adopt to take it over from this tree`
            : undefined;
    if (refusal) {
      for (const item of valid) entries.push({ action: 'failed', path: item.path, name: item.name, version: item.version, apiId: other?.id, reason: refusal });
      continue;
    }
    if (otherApi) {
      entries.push(...planVersions(request, key, valid, otherApi, true, nameTaken));
      continue;
    }
    // The oldest version makes the API (the next that is written, should it fail); the others join it.
    for (const [index, item] of inReleaseOrder(valid).reverse().entries()) {
      entries.push({
        action: 'added',
        path: item.path,
        name: item.name,
        version: item.version,
        ...(index === 0 ? { newApi: true } : {}),
        item,
        group: key,
        stage: item.lifecycle ?? request.lifecycle ?? DEFAULT_LIFECYCLE,
        apiSource: { tree: request.tree, key },
      });
    }
  }

  if (request.prune) entries.push(...planPrune(request, state, byPath, groups, matched));
  return spareFailed(entries);
}

/** Paths a few of many are named by, in a message. */
const PATHS_NAMED = 5;

function someOf(paths: string[]): string {
  const named = paths.slice(0, PATHS_NAMED).join(', ');
  return paths.length > PATHS_NAMED ? `${named} and ${paths.length - PATHS_NAMED} more` : named;
}

/**
 * The entries without the deletions of versions whose file failed (unread by the scan, no longer
 * a spec, refused in the plan or when its text was checked): a failed file's API is never pruned. An API some of whose versions are spared is
 * no longer deleted whole.
 */
export function spareFailed(entries: PlannedEntry[]): PlannedEntry[] {
  const failed = new Set(entries.filter((entry) => entry.action === 'failed').map((entry) => entry.path));
  // A descriptor that failed (`catalog-info.yaml`) spares every entity it held (`catalog-info.yaml#x`).
  const kept = entries.filter((entry) => entry.action !== 'deleted' || !(failed.has(entry.path) || failed.has(entry.path.split('#')[0])));
  const deletedOf = new Map<string, number>();
  for (const entry of kept) if (entry.action === 'deleted') deletedOf.set(entry.apiId!, (deletedOf.get(entry.apiId!) ?? 0) + 1);
  for (const entry of kept) {
    if (entry.apiDeleted && deletedOf.get(entry.apiId!) !== entry.known!.versions.length) entry.apiDeleted = false;
  }
  return kept;
}

/** The newest version's item: it names the API. */
function newest(items: TreeItem[]): TreeItem {
  return inReleaseOrder(items)[0];
}

/** The entries of an existing API's items (`adopted`: one of the org's, taken over; its versions are loaded by the service). */
function planVersions(
  request: TreeImportRequest,
  key: string,
  items: TreeItem[],
  known: KnownApi,
  adopted: boolean,
  nameTaken: (name: string, apiId: string) => ApiEntity | undefined,
): PlannedEntry[] {
  const entries: PlannedEntry[] = [];
  const apiSource: ApiSource = { tree: request.tree, key };
  const newestItem = newest(items);
  const details = isEntity(newestItem) ? entityDetails(newestItem) : undefined;
  // A descriptor's new title that another API has: the registry would refuse it (409), so the plan says so.
  const clash = details && lower(details.name) !== lower(known.api.name) ? nameTaken(details.name, known.api.id) : undefined;
  if (clash) {
    const reason = `the descriptor renames the API to "${details!.name}", the name of another API of the org (${clash.id}): rename one of them`;
    return items.map((item) => ({ action: 'failed', path: item.path, name: item.name, version: item.version, apiId: known.api.id, reason }));
  }
  const detailsChanged =
    details !== undefined &&
    (details.name !== known.api.name ||
      details.teamName !== known.api.teamName ||
      details.description !== known.api.description ||
      !sameJson(details.labels, normalizeLabels(known.api.labels ?? {})) ||
      !catalogEquals(details.catalog, known.api.catalog));
  const byVersion = new Map(known.versions.map((version) => [version.version, version]));
  const byFile = new Map(known.versions.flatMap((version) => (version.source?.tree === request.tree ? [[version.source.path, version] as const] : [])));
  for (const item of items) {
    const base = { path: item.path, name: item.name, version: item.version, apiId: known.api.id, item, known, apiSource, ...(adopted ? { adopted } : {}) };
    const current = byVersion.get(item.version);
    if (!current) {
      const fedBefore = byFile.get(item.path);
      const followed = followedVersion(known.versions, item.version, fedBefore);
      entries.push({
        ...base,
        action: 'added',
        stage: item.lifecycle ?? request.lifecycle ?? DEFAULT_LIFECYCLE,
        ...(followed ? { base: followed } : {}),
        ...(fedBefore ? { note: `version "${fedBefore.version}" stays, with its stage: its file now holds "${item.version}"` } : {}),
      });
      continue;
    }
    const what: TreePlanEntry['what'] = [];
    const sourced = current.source?.tree === request.tree;
    if (!sourced || current.source!.sha256 !== item.sha256) what.push('spec');
    if (!sourced || current.source!.path !== item.path) what.push('path');
    if (item === newestItem && detailsChanged) what.push('details');
    if (item.lifecycle && item.lifecycle !== current.lifecycle) what.push('stage');
    const entry: PlannedEntry = { ...base, action: what.length ? 'updated' : 'unchanged', base: current, ...(what.length ? { what } : {}) };
    if (!sourced) entry.unsourced = true;
    if (item.lifecycle) entry.stage = item.lifecycle;
    entries.push(entry);
  }
  return entries;
}

/** What `prune` deletes: versions the tree fed whose file is gone or now holds another API; the whole API when that is all of it. */
function planPrune(
  request: TreeImportRequest,
  state: TreeSnapshot,
  byPath: Map<string, TreeItem>,
  groups: Map<string, TreeItem[]>,
  matched: Map<string, KnownApi>,
): PlannedEntry[] {
  const entries: PlannedEntry[] = [];
  const keyOf = new Map([...matched].map(([key, known]) => [known.api.id, key]));
  for (const known of state.apis) {
    // A version an item still holds moved to that item's file: it is updated, not deleted.
    const held = new Set((groups.get(keyOf.get(known.api.id) ?? '') ?? []).map((item) => item.version));
    const gone = known.versions.filter((version) => {
      const path = version.source?.tree === request.tree ? version.source.path : undefined;
      if (path === undefined || held.has(version.version)) return false;
      const item = byPath.get(path);
      return !item || item.key !== keyOf.get(known.api.id);
    });
    if (gone.length === 0) continue;
    const apiDeleted = gone.length === known.versions.length && !keyOf.has(known.api.id);
    for (const version of gone) {
      entries.push({
        action: 'deleted',
        path: version.source!.path,
        name: known.api.name,
        version: version.version,
        apiId: known.api.id,
        known,
        apiDeleted,
        ...(byPath.has(version.source!.path) ? { note: 'its file now holds another API' } : {}),
      });
    }
  }
  return entries;
}
