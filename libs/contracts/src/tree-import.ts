import type { AffectedConsumer, ChangeImpact } from './consumers.js';
import type { LifecycleStage } from './versions.js';

/**
 * A folder import (`npm run import`, #42): the Git tree is the source of truth. The CLI reads the
 * tree and sends what it holds; the gateway plans the whole tree against the registry (one engine
 * for the change reports) and, when asked, applies the plan.
 */

/** A catalogue's names: a system, a tag. */
export const CATALOG_LIMITS = { nameMaxChars: 200, maxTags: 50 } as const;

/** Where a Backstage `kind: API` entity puts the API in the catalogue. */
export interface CatalogInfo {
  /** `api:<namespace>/<name>`, lower case. */
  entityRef: string;
  /** The owner as written, made a full ref: `group:default/warehouse-ops`, `user:default/ada`. */
  owner?: string;
  /** `spec.system`, as a full ref's name part (`default/` left out). */
  system?: string;
  /** `metadata.tags`. */
  tags?: string[];
}

/** One version of one API that a file of the tree (or a descriptor's inline definition) holds. */
export interface TreeItem {
  /** The file's path from the tree's root with `/`; `<descriptor path>#<entity name>` for a Backstage entity's API. */
  path: string;
  /** A Backstage entity's `$text` file, from the tree's root: a file a descriptor names is never an API of its own. */
  file?: string;
  /**
   * The API's identity in the tree: `entity:<ref>` for a Backstage entity, `title:<title, lower
   * case>` for a document that names itself, `file:<path>` for a file that names nothing (SDL,
   * .proto, a tools list). Files with one key are versions of one API.
   */
  key: string;
  name: string;
  /** As written (a YAML date or number keeps its text). */
  version: string;
  /** SHA-256 (hex) of the spec text: an unchanged file is known without sending it. */
  sha256: string;
  /** Bytes of the spec text, to batch what is sent. */
  bytes: number;
  format?: string;
  lifecycle?: LifecycleStage;
  teamName?: string;
  /** A Backstage entity's: the tree keeps them up to date (a plain file's API keeps what people gave it). */
  description?: string;
  labels?: Record<string, string>;
  catalog?: CatalogInfo;
}

/** A Backstage `kind: Component` of the tree, and the APIs it provides and consumes (entity refs). */
export interface TreeComponent {
  entityRef: string;
  path: string;
  providesApis: string[];
  consumesApis: string[];
}

/** `POST /api-management/tree-imports/plan` and `…/apply`. */
export interface TreeImportRequest {
  orgId: string;
  /** The tree's name: unique in the org (`--tree`; by default the repository's remote and the folder's path in it). */
  tree: string;
  /** Every item of the tree, each call (the plan of one is the plan of the whole). */
  items: TreeItem[];
  /** Files present but unreadable, too large or refused: their APIs and versions are never pruned (a descriptor's covers its entities). */
  failed?: { path: string; reason: string }[];
  /** Files present that hold no API (README.md, package.json): one a version was imported from fails instead, unpruned. */
  skipped?: string[];
  components?: TreeComponent[];
  /** Plan the deletion of what the tree no longer holds (apply: delete it). */
  prune?: boolean;
  /** Take over an API of the org of the same name that has no source. */
  adopt?: boolean;
  /** The stage of a new version whose item names none (default `production`); an item's own stage (a descriptor's) is kept up to date. */
  lifecycle?: LifecycleStage;
  /** The team of a new API whose item names none. */
  teamName?: string;
  /** Spec texts by item path: a plan checks and compares them, an apply writes them. */
  specs?: Record<string, string>;
  /**
   * Apply: the tree's `generation` the caller planned on (the last answer's). Another import of
   * the tree since makes it a 409, so that two runs never interleave their writes and prunes.
   */
  generation?: number;
}

/** What one entry of a plan does. */
export type TreePlanAction = 'added' | 'updated' | 'unchanged' | 'deleted' | 'skipped' | 'failed';

/** One change found between two specs, as a pull-request comment names it. */
export interface TreePlanChange {
  severity: 'breaking' | 'non-breaking' | 'info';
  operation?: string;
  message: string;
}

/** A new spec's changes against the version it replaces (its current revision) or follows (the production version before it). */
export interface TreePlanComparison {
  /** The version compared with, and its revision and stage. */
  base: { version: string; revision: number; lifecycle: LifecycleStage };
  breaking: number;
  nonBreaking: number;
  info: number;
  complete: boolean;
  incompleteReason?: string;
  /** Breaking changes first; at most `TREE_IMPORT_LIMITS.changesListed`. */
  changes: TreePlanChange[];
  /** When something breaks or was not compared: the consumers of the base version it reaches. */
  impact?: ChangeImpact;
}

export interface TreePlanEntry {
  action: TreePlanAction;
  /** The item's path; for a deletion, the path the version was imported from. */
  path: string;
  /** The API's and version's; absent for a file that could not be read and feeds no version. */
  name?: string;
  version?: string;
  /** Absent for a new API. */
  apiId?: string;
  /** `added`: the version that makes a new API (the other versions of a new API join it; else a new version of an existing API). */
  newApi?: boolean;
  /** `added`/`updated`: an API of the same name without a source, taken over (`adopt`). */
  adopted?: boolean;
  /** `updated`: what changed — the spec, the file it is read from, the details an entity gives. */
  what?: ('spec' | 'path' | 'details' | 'stage')[];
  /** `failed`: why, as the registration would answer. */
  reason?: string;
  /** `skipped`, or something to know that changes nothing: a version its file no longer feeds, kept. */
  note?: string;
  comparison?: TreePlanComparison;
  /**
   * It changes a version in production, without a new major version, in a way that breaks it or
   * that could not be compared in full: `--fail-on-breaking` stops on it.
   */
  blocking?: boolean;
  /** A plan without this item's spec text could not check or compare it (send it in `specs`). */
  needsSpec?: boolean;
  /** Apply: done. */
  applied?: boolean;
  /** Apply: the registration's warnings. */
  warnings?: string[];
  /** `deleted`: the consumers of the version (or of the API) that prune removes; they are told. */
  consumers?: AffectedConsumer[];
}

export interface TreePlan {
  orgId: string;
  tree: string;
  /** Sorted by API name, then version, then path. */
  entries: TreePlanEntry[];
  counts: Record<TreePlanAction, number>;
  /** Entries with `blocking`. */
  blocking: number;
  /** The tree's components (apply: recorded). */
  components: number;
  /** Its components, or the files its descriptors name, differ from what the last import recorded: an apply records them. */
  treeChanged: boolean;
  /** Goes up with every apply call of the tree: send it with the next one (`TreeImportRequest.generation`). */
  generation: number;
}

/**
 * A tree's name: by default the repository's remote and the folder's path in it
 * (`github.com/acme/specs:team2/specs`), else the folder's absolute path.
 */
export const TREE_NAME = { pattern: /^[\w.:/@+~-]{1,300}$/, rule: '1-300 letters, digits and . : / @ + ~ _ -' } as const;

/** The bounds of a tree import's requests: items per tree, and specs per call. */
export const TREE_IMPORT_LIMITS = {
  maxItems: 10_000,
  maxComponents: 10_000,
  /** Spec texts one call checks, compares or writes. */
  maxSpecsPerCall: 20,
  /** Changes a comparison lists. */
  changesListed: 50,
  keyMaxChars: 1100,
  maxRefs: 200,
} as const;
