import { isObject } from '#api-specs';
import {
  CATALOG_LIMITS,
  labelsProblem,
  LIFECYCLE_STAGES,
  type LifecycleStage,
  normalizeLabels,
  TREE_IMPORT_LIMITS,
  type TreeComponent,
  type TreeItem,
} from '#contracts';

/*
 * What a Backstage descriptor's entities say (`catalog-info.yaml`, read failsafe): an API's
 * identity, name, team, owner, labels, system and tags, and a component's API relations.
 */

/** A problem of one item of the tree: it fails that item, and the scan goes on. */
export class ItemError extends Error {}

const BACKSTAGE_STAGES: Record<string, LifecycleStage> = { experimental: 'development', production: 'production', deprecated: 'deprecated' };

/** What an API entity gives its item, besides the definition (`path` is the entity's place in its descriptor). */
export type EntityDetails = Omit<TreeItem, 'file' | 'version' | 'sha256' | 'bytes'>;

/** A trimmed string with more than spaces (descriptors are read failsafe: every scalar is a string). */
export function text(value: unknown): string | undefined {
  return (typeof value === 'string' && value.trim()) || undefined;
}

/** Backstage's `[kind:][namespace/]name`, with the kind and namespace it leaves out. */
function parseRef(ref: string, defaults: { kind: string; namespace: string }): { kind: string; namespace: string; name: string } {
  const [, kind, namespace, name] = /^(?:([^:/]+):)?(?:([^/]+)\/)?(.+)$/.exec(ref)!;
  // Backstage compares kinds and namespaces in any case; the name stays as written (a team's name).
  return { kind: (kind ?? defaults.kind).toLowerCase(), namespace: (namespace ?? defaults.namespace).toLowerCase(), name };
}

const fullRef = ({ kind, namespace, name }: ReturnType<typeof parseRef>) => `${kind}:${namespace}/${name}`;

/** An entity's namespace, `default` unless written: Backstage resolves the refs it writes without a namespace in it too. */
const namespaceOf = (metadata: Record<string, unknown>) => text(metadata.namespace) ?? 'default';

const strings = (value: unknown) => (Array.isArray(value) ? value.map(text).filter((entry) => entry !== undefined) : []);

/** `metadata.labels`, keys lower-cased, held to the platform's label rules. */
function entityLabels(value: unknown): Record<string, string> | undefined {
  if (value == null) return undefined;
  if (!isObject(value)) throw new ItemError('metadata.labels must be a map of "key": "value"');
  const labels = new Map<string, unknown>();
  for (const [key, label] of Object.entries(value)) {
    if (labels.has(key.toLowerCase())) throw new ItemError(`metadata.labels: two keys are ${JSON.stringify(key.toLowerCase())} once lower-cased`);
    labels.set(key.toLowerCase(), label);
  }
  // fromEntries, not assignment: a `__proto__` key stays a key, for the rules to refuse.
  const entries = Object.fromEntries(labels);
  const problem = labelsProblem(entries, 'metadata.labels');
  if (problem) throw new ItemError(problem);
  return normalizeLabels(entries as Record<string, string>);
}

/** What a Backstage `kind: API` entity says of its API besides its definition. */
export function entityDetails(entity: Record<string, unknown>, path: string, kinds: Set<string>): EntityDetails {
  const metadata = isObject(entity.metadata) ? entity.metadata : {};
  const spec = isObject(entity.spec) ? entity.spec : {};
  const id = text(metadata.name);
  if (!id) throw new ItemError('an API entity without metadata.name');
  const namespace = namespaceOf(metadata);
  const entityRef = `api:${namespace}/${id}`.toLowerCase();
  const ownerText = text(spec.owner);
  const systemText = text(spec.system);
  // A bare owner is a group, as Backstage reads it; a user owns alone, with no team.
  const owner = ownerText ? parseRef(ownerText, { kind: 'group', namespace }) : undefined;
  const system = systemText ? parseRef(systemText, { kind: 'system', namespace }) : undefined;
  const tags = strings(metadata.tags);
  if (tags.length > CATALOG_LIMITS.maxTags) throw new ItemError(`metadata.tags: ${tags.length} tags, over the limit of ${CATALOG_LIMITS.maxTags}`);
  const type = text(spec.type)?.toLowerCase();
  const stage = text(spec.lifecycle)?.toLowerCase();
  return {
    path,
    key: `entity:${entityRef}`,
    name: text(metadata.title) ?? id,
    description: text(metadata.description),
    teamName: owner && owner.kind !== 'user' ? owner.name : undefined,
    lifecycle: stage ? (BACKSTAGE_STAGES[stage] ?? LIFECYCLE_STAGES.find((known) => known === stage)) : undefined,
    format: type && kinds.has(type) ? type : undefined,
    labels: entityLabels(metadata.labels),
    catalog: {
      entityRef,
      owner: owner && fullRef(owner),
      system: system && (system.namespace === 'default' ? system.name : `${system.namespace}/${system.name}`),
      tags: tags.length ? tags : undefined,
    },
  };
}

/** A Backstage `kind: Component`: the APIs it provides and consumes, as full refs. */
export function componentOf(entity: Record<string, unknown>, path: string): TreeComponent {
  const metadata = isObject(entity.metadata) ? entity.metadata : {};
  const spec = isObject(entity.spec) ? entity.spec : {};
  const id = text(metadata.name);
  if (!id) throw new ItemError('a Component entity without metadata.name');
  const namespace = namespaceOf(metadata);
  const refs = (field: 'providesApis' | 'consumesApis') => {
    const list = [...new Set(strings(spec[field]).map((ref) => fullRef(parseRef(ref, { kind: 'api', namespace })).toLowerCase()))];
    if (list.length > TREE_IMPORT_LIMITS.maxRefs) throw new ItemError(`spec.${field}: ${list.length} APIs, over the limit of ${TREE_IMPORT_LIMITS.maxRefs}`);
    return list;
  };
  return { entityRef: `component:${namespace}/${id}`.toLowerCase(), path, providesApis: refs('providesApis'), consumesApis: refs('consumesApis') };
}
