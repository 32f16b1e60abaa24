import { HttpException, Injectable, Logger } from '@nestjs/common';
import {
  type ApiVersionRecord,
  CONSUMER_LIMITS,
  type EventData,
  type TreeImportRequest,
  type TreePlan,
  type TreePlanAction,
  type TreePlanComparison,
  type TreePlanEntry,
  TREE_IMPORT_LIMITS,
} from '#contracts';
import { type CheckedSpec, errorSummary } from '#api-specs';
import { assertOrgMember } from '../auth/org-access.js';
import type { Caller } from '../auth/caller.js';
import { ConsumersRepository } from '../consumers/consumers.repository.js';
import { ConsumersService } from '../registry/consumers.service.js';
import { affectedConsumer } from '../consumers/impact.js';
import { DomainEvent } from '../events/domain-event.js';
import { EventOutbox } from '../events/event-outbox.js';
import { ApiVersionsRepository, sha256 } from '../registry/api-versions.repository.js';
import { ApiVersionsService, type ChangeAssessment } from '../registry/api-versions.service.js';
import { RegistryService } from '../registry/registry.service.js';
import { SpecWork } from '../registry/spec-work.service.js';
import { entityDetails, type PlannedEntry, planTree, spareFailed, treeChanged } from './tree-plan.js';
import { TreeStateRepository } from './tree-state.repository.js';

const ACTIONS: TreePlanAction[] = ['added', 'updated', 'unchanged', 'deleted', 'skipped', 'failed'];

/**
 * A tree import (`npm run import`, #42): the plan of a whole tree against the registry, from the
 * items' hashes and the spec texts sent, and its application. The plan checks every text sent as
 * a registration would and compares it with the version it replaces or follows, so that a dry run
 * predicts failures and breaking changes; an apply writes what it was sent the text of (and what
 * needs none), then, with `prune`, deletes. Each entry is written on its own: one that fails says
 * why and the others go on.
 */
@Injectable()
export class TreeImportService {
  private readonly logger = new Logger(TreeImportService.name);

  constructor(
    private readonly state: TreeStateRepository,
    private readonly registry: RegistryService,
    private readonly versions: ApiVersionsService,
    private readonly repository: ApiVersionsRepository,
    private readonly specs: SpecWork,
    private readonly consumers: ConsumersService,
    private readonly consumerData: ConsumersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async plan(caller: Caller, request: TreeImportRequest): Promise<TreePlan> {
    assertOrgMember(caller, request.orgId);
    const { entries, checked, changed, generation } = await this.prepare(request);
    for (const entry of entries) {
      const spec = checked.get(entry.path);
      if (spec && entry.base && entry.known && entry.action !== 'failed') await this.compare(entry, spec);
      if (entry.action === 'deleted') await this.nameConsumers(entry);
    }
    return this.answer(request, entries, changed, generation);
  }

  async apply(caller: Caller, request: TreeImportRequest): Promise<TreePlan> {
    assertOrgMember(caller, request.orgId);
    const generation = await this.state.nextGeneration(request.orgId, request.tree, request.generation);
    const { entries: planned, checked } = await this.prepare(request);
    const created = new Map<string, string>();
    for (const entry of planned.filter((entry) => entry.action === 'added' || entry.action === 'updated')) {
      if (!entry.needsSpec) await this.write(caller, request, entry, checked.get(entry.path), created);
    }
    // A write refused just now (a 409 of an org that refuses breaking changes) spares what its file fed, as any failure.
    const entries = spareFailed(planned);
    const deletedApis = new Set<string>();
    for (const entry of entries.filter((entry) => entry.action === 'deleted')) {
      await this.attempt(entry, async () => {
        // The tree is the source of truth: its prune goes ahead, and the consumers are told.
        if (!entry.apiDeleted) return this.versions.change(entry.apiId!, (change) => change.deleteVersion(entry.version!, true));
        if (!deletedApis.has(entry.apiId!)) await this.registry.removeApi(entry.apiId!, true);
        deletedApis.add(entry.apiId!);
      });
    }
    await this.tellFailures(request, entries);
    const described = request.items.flatMap((item) => (item.file ? [item.file] : []));
    await this.state.record(request.orgId, request.tree, described, request.components);
    if (request.components) {
      const spared = (request.failed ?? []).map((item) => item.path);
      await this.consumers.syncCatalog(request.orgId, request.tree, request.components, request.prune === true, spared);
    }
    return this.answer(request, entries, false, generation);
  }

  /** The plan from the hashes, then each text sent checked; an entry that needs a text it was not sent says so. */
  private async prepare(
    request: TreeImportRequest,
  ): Promise<{ entries: PlannedEntry[]; checked: Map<string, CheckedSpec>; changed: boolean; generation: number }> {
    const snapshot = await this.state.load(
      request.orgId,
      request.tree,
      request.items.map((item) => item.name),
    );
    const entries = planTree(request, snapshot);
    const checked = new Map<string, CheckedSpec>();
    for (const entry of entries) {
      if (entry.unsourced && entry.what?.includes('spec') && (await this.sameAsCurrent(entry))) {
        entry.what = entry.what.filter((what) => what !== 'spec');
      }
      const needsText = entry.action === 'added' || (entry.action === 'updated' && entry.what?.includes('spec'));
      if (!needsText) continue;
      // Own keys only: an item named `__proto__` or `constructor` must not find the object's machinery.
      const text = request.specs && Object.hasOwn(request.specs, entry.path) ? request.specs[entry.path] : undefined;
      if (text === undefined) {
        entry.needsSpec = true;
        continue;
      }
      await this.attempt(entry, async () => {
        if (sha256(text) !== entry.item!.sha256) throw new Error("the text sent is not the item's (its SHA-256 differs): read the tree again");
        checked.set(entry.path, await this.specs.check(request.orgId, { spec: text, format: entry.item!.format }));
      });
    }
    // A text refused here fails its file as a scan's failure would: what it fed is not pruned.
    return { entries: spareFailed(entries), checked, changed: treeChanged(request, snapshot), generation: snapshot.generation };
  }

  /** `api.import.failed` for each API of the registry whose file could not be written, once per failure (not at every run that fails the same way). */
  private async tellFailures(request: TreeImportRequest, entries: PlannedEntry[]): Promise<void> {
    const events: DomainEvent[] = [];
    for (const entry of entries.filter((item) => item.action === 'failed' && item.known)) {
      const data = { source: `${request.tree}:${entry.path}`, error: entry.reason ?? 'failed' };
      const last = (await this.outbox.latest(entry.known!.api.id, 'api.import.failed'))?.data as EventData['api.import.failed'] | undefined;
      if (last?.source !== data.source || last.error !== data.error) events.push(new DomainEvent('api.import.failed', entry.known!.api, data));
    }
    await this.outbox.publish(events);
  }

  /** A deletion names the consumers it removes the version (or API) from: prune goes ahead, they are told. */
  private async nameConsumers(entry: PlannedEntry): Promise<void> {
    const api = entry.known?.api;
    if (!api || !entry.version) return;
    const users = entry.apiDeleted
      ? await this.consumerData.ofApi(api.id)
      : await this.consumerData.ofVersion(api.id, entry.version, entry.version === api.version);
    if (users.length > 0) entry.consumers = users.slice(0, CONSUMER_LIMITS.named).map((user) => affectedConsumer(user, true));
  }

  /** Whether an adopted version's current revision is the item's text already. */
  private async sameAsCurrent(entry: PlannedEntry): Promise<boolean> {
    const current = await this.repository.revision(entry.apiId!, entry.version!);
    return current !== undefined && sha256(current.spec) === entry.item!.sha256;
  }

  /** The entry's comparison with the version it replaces or follows, and whether it blocks a gate. */
  private async compare(entry: PlannedEntry, spec: CheckedSpec): Promise<void> {
    const base = entry.base!;
    let assessment: ChangeAssessment;
    try {
      assessment = await this.versions.assess(entry.known!.api, base, entry.version!, spec);
    } catch (error) {
      assessment = { guarded: base.lifecycle === 'production', notCompared: { why: errorSummary(error) } };
    }
    const { guarded, report, notCompared } = assessment;
    const comparison: TreePlanComparison = {
      base: { version: base.version, revision: base.revision, lifecycle: base.lifecycle },
      breaking: report?.breaking ?? 0,
      nonBreaking: report?.nonBreaking ?? 0,
      info: report?.info ?? 0,
      complete: report?.complete ?? false,
      ...(notCompared
        ? { incompleteReason: `not compared: ${notCompared.why}` }
        : report?.incompleteReason
          ? { incompleteReason: report.incompleteReason }
          : {}),
      changes: (report?.changes ?? [])
        .slice()
        .sort((a, b) => Number(b.severity === 'breaking') - Number(a.severity === 'breaking'))
        .slice(0, TREE_IMPORT_LIMITS.changesListed)
        .map((change) => ({ severity: change.severity, ...(change.operation ? { operation: change.operation } : {}), message: change.message })),
    };
    if (report && (report.breaking > 0 || !report.complete)) {
      const api = entry.known!.api;
      comparison.impact = (await this.consumers.withImpact(api.id, base.version, api.version, report)).impact;
    }
    entry.comparison = comparison;
    if (guarded && (comparison.breaking > 0 || !comparison.complete)) entry.blocking = true;
  }

  /** Writes one added or updated entry; a new API's first version creates it, and its next ones join it. */
  private async write(
    caller: Caller,
    request: TreeImportRequest,
    entry: PlannedEntry,
    spec: CheckedSpec | undefined,
    created: Map<string, string>,
  ): Promise<void> {
    const item = entry.item!;
    const source = { tree: request.tree, path: item.path, sha256: item.sha256 };
    await this.attempt(entry, async () => {
      const apiId = entry.apiId ?? created.get(entry.group!);
      if (!apiId) {
        const details = item.key.startsWith('entity:')
          ? entityDetails(item)
          : { name: item.name.trim(), teamName: item.teamName?.trim() || request.teamName?.trim() || null, description: null, labels: {} };
        const first = { version: item.version, lifecycle: entry.stage!, kind: spec!.kind, spec: spec!.text, source };
        const record = await this.registry.register({ orgId: request.orgId, ...details }, first, entry.apiSource!);
        created.set(entry.group!, record.apiId);
        entry.apiId = record.apiId;
        entry.applied = true;
        return;
      }
      const api = entry.known?.api ?? (await this.registry.findVisible(caller, apiId));
      const record: ApiVersionRecord = await this.versions.writeFromTree(api, {
        version: item.version,
        spec,
        source,
        stage: entry.stage,
        apiSource: entry.apiSource!,
        ...(entry.what?.includes('details') ? { details: { orgId: api.orgId, ...entityDetails(item) } } : {}),
        ...(entry.action === 'added' && entry.base ? { follows: entry.base.version } : {}),
      });
      entry.apiId = apiId;
      entry.applied = true;
      if (record.warnings?.length) entry.warnings = record.warnings;
    });
  }

  /** Runs an entry's work; a refusal or failure makes it `failed`, with the reason a registration would give. */
  private async attempt(entry: PlannedEntry, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof HttpException)) this.logger.warn(`Tree import of ${entry.path} failed: ${errorSummary(error)}`);
      entry.action = 'failed';
      entry.reason = reasonOf(error);
      delete entry.needsSpec;
      delete entry.applied;
    }
  }

  private answer(request: TreeImportRequest, entries: PlannedEntry[], changed: boolean, generation: number): TreePlan {
    const counts = Object.fromEntries(ACTIONS.map((action) => [action, 0])) as Record<TreePlanAction, number>;
    for (const entry of entries) counts[entry.action] += 1;
    const shown = entries
      .map(publicEntry)
      .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || (a.version ?? '').localeCompare(b.version ?? '') || a.path.localeCompare(b.path));
    return {
      orgId: request.orgId,
      tree: request.tree,
      entries: shown,
      counts,
      blocking: entries.filter((entry) => entry.blocking).length,
      components: request.components?.length ?? 0,
      treeChanged: changed,
      generation,
    };
  }
}

/** What an answer shows of a planned entry. */
function publicEntry(entry: PlannedEntry): TreePlanEntry {
  const { action, path, name, version, apiId, newApi, adopted, what, reason, note, comparison, blocking, needsSpec, applied, warnings, consumers } = entry;
  return Object.fromEntries(
    Object.entries({
      action,
      path,
      name,
      version,
      apiId,
      newApi,
      adopted,
      what,
      reason,
      note,
      comparison,
      blocking,
      needsSpec,
      applied,
      warnings,
      consumers,
    }).filter(([, value]) => value !== undefined),
  ) as unknown as TreePlanEntry;
}

/** A failure as the registration's answer would put it: `409 An API named …`. */
function reasonOf(error: unknown): string {
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message = typeof response === 'object' && response !== null && 'message' in response ? (response as { message: unknown }).message : error.message;
    return `${error.getStatus()} ${Array.isArray(message) ? message.join('; ') : String(message)}`;
  }
  return errorSummary(error);
}
