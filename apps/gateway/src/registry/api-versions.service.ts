import { ConflictException, Inject, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  type ApiRecord,
  ApiUpdatedEvent,
  type ApiVersionList,
  type ApiVersionRecord,
  type ChangeReport,
  type ChangeReportResponse,
  DEFAULT_LIFECYCLE,
  type LintResponse,
  type ApiSource,
  type LifecycleStage,
  type VersionSource,
  CONSUMER_LIMITS,
  type EventData,
  NOTIFICATION_LIMITS,
} from '#contracts';
import type { GatewayConfig } from '#config';
import { ServiceBusyException } from '#http';
import { type CheckedSpec, errorSummary } from '#api-specs';
import { assertOrgMember } from '../auth/org-access.js';
import type { Caller } from '../auth/caller.js';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { AiClient } from '../ai-client/ai-client.js';
import { ConsumersRepository } from '../consumers/consumers.repository.js';
import { affectedConsumer, namedList, withImpact } from '../consumers/impact.js';
import type { ApiBodyDto, ChangesQueryDto, VersionBodyDto, VersionPatchDto, VersionSpecDto } from './api.dto.js';
import type { ApiEntity } from './api.entity.js';
import type { ApiVersionEntity } from './api-version.entity.js';
import { type ApiDetails, ApiVersionsRepository, type VersionsChange } from './api-versions.repository.js';
import { LintScheduler } from './lint-scheduler.js';
import { followedVersion, inReleaseOrder, majorOf, moveToFor, recommendedVersion, versionSummary } from './recommended-version.js';
import { detailsOf, RegistryService, toRecord } from './registry.service.js';
import { SpecWork } from './spec-work.service.js';
import { nextStage } from './version-stage.js';

/**
 * What a registration tells its publisher beside the record: the changes from the spec it
 * follows and the consumers they reach; and the `api.breaking_change` event the change raises.
 */
type ChangeNotes = Pick<ApiRecord, 'warnings' | 'changes' | 'impact'> & { breaking?: { event: EventData['api.breaking_change']; guarded: boolean } };

/** What a tree's file writes of its version (`ApiVersionsService.writeFromTree`). */
export interface TreeVersionWrite {
  version: string;
  /** A new text (absent: only the file, stage or details changed). */
  spec?: CheckedSpec;
  source: VersionSource;
  /** A new version's stage, or the stage its descriptor gives. */
  stage?: LifecycleStage;
  /** A new version: the version its file held before, which it follows (`followedVersion`). */
  follows?: string;
  details?: ApiDetails;
  apiSource: ApiSource;
}

/** A new spec against the version it replaces or follows (`ApiVersionsService.assess`). */
export interface ChangeAssessment {
  guarded: boolean;
  report?: ChangeReport;
  notCompared?: { why: string; busy?: ServiceBusyException };
}

/** Breaking changes a warning names before "and N more". */
const CHANGES_NAMED = 3;

/** What an org that refuses breaking changes (BREAKING_CHANGES_REFUSED_ORGS) answers with its 409. */
const REFUSED = 'This org refuses changes to a version in production that break it or are not proven safe: register it as a new major version';

/**
 * An API's versions: add, revise, stage, delete, compare and lint them. Every change to the
 * versions goes through `ApiVersionsRepository.change` (one transaction, the API row locked), which
 * re-indexes the API when what search holds of it changed.
 */
@Injectable()
export class ApiVersionsService {
  constructor(
    private readonly registry: RegistryService,
    private readonly versions: ApiVersionsRepository,
    private readonly specs: SpecWork,
    private readonly lint: LintScheduler,
    private readonly ai: AiClient,
    private readonly events: EventEmitter2,
    private readonly consumers: ConsumersRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async list(caller: Caller, apiId: string): Promise<ApiVersionList> {
    const api = await this.registry.findVisible(caller, apiId);
    const versions = (await this.versions.versionsOf([api.id])).get(api.id) ?? [];
    return { items: await this.records(api, versions) };
  }

  /** A new version beside the others (409 when the API has one of that name). */
  async add(caller: Caller, apiId: string, body: VersionBodyDto): Promise<ApiVersionRecord> {
    const api = await this.registry.findVisible(caller, apiId);
    const spec = await this.specs.check(api.orgId, body);
    const version = body.version.trim();
    const before = (await this.versions.versionsOf([api.id])).get(api.id) ?? [];
    if (before.some((item) => item.version === version)) throw duplicate(api.id, version);
    // A new version is compared with the one in production it follows.
    const followed = followedVersion(before, version);
    const notes = followed ? await this.changeNotes(api, followed, version, spec) : {};
    const lifecycle = body.lifecycle ?? DEFAULT_LIFECYCLE;
    const changed = await this.change(api.id, async (change) => {
      await change.addVersion({ version, lifecycle, kind: spec.kind, spec: spec.text });
      raiseBreaking(change, notes);
    });
    this.lint.schedule(api.orgId, api.id, version, 1);
    return { ...(await this.record(changed, version)), ...publicNotes(notes) };
  }

  /** A new spec for a version: its next revision, compared with the one before. */
  async revise(caller: Caller, apiId: string, version: string, body: VersionSpecDto): Promise<ApiVersionRecord> {
    const api = await this.registry.findVisible(caller, apiId);
    return (await this.reviseChecked(api, version, await this.specs.check(api.orgId, body))).record;
  }

  /**
   * A checked spec as the next revision of a version, with the change notes; the same text as
   * its current revision's makes none (`revised: false`), so importing again changes nothing.
   */
  async reviseChecked(api: ApiEntity, version: string, spec: CheckedSpec): Promise<{ record: ApiVersionRecord; revised: boolean }> {
    const current = await this.currentVersion(api, version);
    if (await this.isCurrentText(api, current, spec))
      return { record: await this.record({ api, versions: await this.versionsOf(api) }, version), revised: false };
    const notes = await this.changeNotes(api, current, version, spec);
    const changed = await this.change(api.id, async (change) => {
      const revised = await change.addRevision(version, { kind: spec.kind, spec: spec.text });
      if (revised) raiseBreaking(change, notes);
      return revised;
    });
    if (changed.result) this.lint.schedule(api.orgId, api.id, version, changed.result.revision);
    return { record: { ...(await this.record(changed, version)), ...(changed.result ? publicNotes(notes) : {}) }, revised: changed.result !== undefined };
  }

  /**
   * A version from a tree's file (`npm run import`, #42), in one change: added with its stage, or
   * revised (the same text makes no revision); with its file, its stage, the API's tree and key,
   * and an entity's details. The change notes are a registration's.
   */
  async writeFromTree(api: ApiEntity, write: TreeVersionWrite): Promise<ApiVersionRecord> {
    const before = await this.versionsOf(api);
    const current = before.find((item) => item.version === write.version);
    let notes: ChangeNotes = {};
    if (write.spec) {
      const heldBefore = write.follows === undefined ? undefined : before.find((item) => item.version === write.follows);
      const base = current ?? followedVersion(before, write.version, heldBefore);
      const same = current !== undefined && (await this.isCurrentText(api, current, write.spec));
      if (base && !same) notes = await this.changeNotes(api, base, write.version, write.spec);
    }
    const changed = await this.change(api.id, async (change) => {
      if (write.details) await change.setDetails(write.details);
      change.setSource(write.apiSource);
      if (!change.find(write.version)) {
        if (!write.spec) throw new NotFoundException(`API "${api.id}" has no version "${write.version}"`);
        const lifecycle = write.stage ?? DEFAULT_LIFECYCLE;
        await change.addVersion({ version: write.version, lifecycle, kind: write.spec.kind, spec: write.spec.text, source: write.source });
        raiseBreaking(change, notes);
        return 1;
      }
      const revised = write.spec ? await change.addRevision(write.version, { kind: write.spec.kind, spec: write.spec.text }) : undefined;
      if (revised) raiseBreaking(change, notes);
      await change.setVersionSource(write.version, write.source);
      const stage = change.get(write.version);
      // The tree is the source of truth: a stage its descriptor gives goes ahead, and the consumers are told.
      if (write.stage && write.stage !== stage.lifecycle) await change.setStage(write.version, nextStage(stage, { lifecycle: write.stage }), true);
      return revised?.revision;
    });
    if (changed.result) this.lint.schedule(api.orgId, api.id, write.version, changed.result);
    return { ...(await this.record(changed, write.version)), ...publicNotes(notes) };
  }

  /** A version's stage, and its sunset date (only a deprecated version has one: `nextStage`). */
  async patch(caller: Caller, apiId: string, version: string, body: VersionPatchDto): Promise<ApiVersionRecord> {
    const api = await this.registry.findVisible(caller, apiId);
    const changed = await this.change(api.id, (change) => change.setStage(version, nextStage(change.get(version), body), body.force === true));
    const record = await this.record(changed, version);
    const telling = (record.lifecycle === 'deprecated' || record.lifecycle === 'retired') && changed.result.length > 0;
    return {
      ...record,
      ...(telling ? { consumersToTell: changed.result.slice(0, NOTIFICATION_LIMITS.consumersCarried).map((user) => affectedConsumer(user, true)) } : {}),
    };
  }

  /** A version that consumers use is deleted only with `force` (they are told: `api.version.deleted`). */
  async remove(caller: Caller, apiId: string, version: string, force = false): Promise<void> {
    const api = await this.registry.findVisible(caller, apiId);
    await this.change(api.id, (change) => change.deleteVersion(version, force));
  }

  /**
   * `PUT /api-management/apis/:apiId`: the API's details, and a new revision of a version (the
   * recommended one unless `?version=` names another). A `version` in the body other than that
   * version's name renames it, as this route always did for the API's one version.
   */
  async update(caller: Caller, apiId: string, body: ApiBodyDto, version?: string): Promise<ApiRecord> {
    const api = await this.registry.findVisible(caller, apiId);
    // An org the caller is not in is refused as at registration, whatever the API's own org.
    assertOrgMember(caller, body.orgId);
    if (body.orgId !== api.orgId) throw new ConflictException(`An API cannot move between orgs (it belongs to "${api.orgId}")`);
    const spec = await this.specs.check(api.orgId, body);
    const target = version ?? api.version;
    const current = await this.currentVersion(api, target);
    const renamed = body.version.trim();
    const notes = (await this.isCurrentText(api, current, spec)) ? {} : await this.changeNotes(api, current, renamed, spec);
    const changed = await this.change(api.id, async (change) => {
      await change.setDetails(detailsOf(body, api.labels));
      await change.rename(target, renamed);
      const revised = await change.addRevision(renamed, { kind: spec.kind, spec: spec.text });
      if (revised) raiseBreaking(change, notes);
      if (body.lifecycle)
        await change.setStage(
          renamed,
          { lifecycle: body.lifecycle, sunsetDate: body.lifecycle === 'deprecated' ? change.get(renamed).sunsetDate : null },
          body.force === true,
        );
      return revised;
    });
    if (changed.result) this.lint.schedule(api.orgId, api.id, renamed, changed.result.revision);
    const statuses = await this.ai.indexingStatuses([changed.api]);
    return {
      ...toRecord(changed.api, inReleaseOrder(changed.versions), changed.reindexed ? { status: 'PENDING' } : statuses.get(api.id)),
      ...publicNotes(notes),
    };
  }

  /**
   * What changed between two kept revisions: `from` and `to` are `version` (its current revision)
   * or `version@revision`; `to` is the recommended version when left out.
   */
  async changes(caller: Caller, apiId: string, query: ChangesQueryDto): Promise<ChangeReportResponse> {
    const api = await this.registry.findVisible(caller, apiId);
    const [from, to] = await Promise.all([this.kept(api, query.from), this.kept(api, query.to ?? api.version)]);
    // A revision's text never changes; a version deleted and added again starts its revisions anew (hence the time).
    const key = [from, to].map((side) => `${side.version}@${side.revision}@${new Date(side.createdAt).getTime()}`).join('\n');
    const report = await this.specs.changes(api.orgId, `${api.id}\n${key}`, { text: from.spec, format: from.kind }, { text: to.spec, format: to.kind });
    const users = await this.consumers.ofVersion(api.id, from.version, from.version === api.version);
    return withImpact(
      { apiId: api.id, from: { version: from.version, revision: from.revision }, to: { version: to.version, revision: to.revision }, ...report },
      users,
    );
  }

  /** A version's lint findings (its current revision's unless `revision` names a kept one). */
  async lintOf(caller: Caller, apiId: string, version: string, revision?: number): Promise<LintResponse> {
    const api = await this.registry.findVisible(caller, apiId);
    const which = revision ?? (await this.currentVersion(api, version)).revision;
    const report = await this.lint.report(api.orgId, api.id, version, which);
    if (!report) throw new NotFoundException(`API "${apiId}" has no revision ${which} of version "${version}" (the newest revisions of each version are kept)`);
    return { apiId: api.id, version, revision: which, ...report };
  }

  /** Runs a change; search is told when what it holds changed. */
  async change<T>(apiId: string, work: (change: VersionsChange) => Promise<T>) {
    const changed = await this.versions.change(apiId, work);
    if (changed.reindexed) this.events.emit(ApiUpdatedEvent.eventName, new ApiUpdatedEvent(apiId));
    return changed;
  }

  private async versionsOf(api: ApiEntity): Promise<ApiVersionEntity[]> {
    return (await this.versions.versionsOf([api.id])).get(api.id) ?? [];
  }

  /** Whether a spec is the version's current revision, text and kind. */
  private async isCurrentText(api: ApiEntity, current: ApiVersionEntity, spec: CheckedSpec): Promise<boolean> {
    const kept = await this.versions.revision(api.id, current.version, current.revision);
    return kept?.spec === spec.text && kept.kind === spec.kind;
  }

  private async currentVersion(api: ApiEntity, version: string): Promise<ApiVersionEntity> {
    const found = await this.versions.version(api.id, version);
    if (!found) throw new NotFoundException(`API "${api.id}" has no version "${version}"`);
    return found;
  }

  /** `version` or `version@revision`, kept. */
  private async kept(api: ApiEntity, named: string) {
    const at = named.lastIndexOf('@');
    const revision = at > 0 && /^\d+$/.test(named.slice(at + 1)) ? Number(named.slice(at + 1)) : undefined;
    const version = revision === undefined ? named : named.slice(0, at);
    const kept = await this.versions.revision(api.id, version, revision);
    if (!kept) {
      throw new NotFoundException(
        revision === undefined ? `API "${api.id}" has no version "${version}"` : `API "${api.id}" has no kept revision ${revision} of version "${version}"`,
      );
    }
    return kept;
  }

  /**
   * How a new spec of `version` changes the version it replaces or follows (`base`): the report, or
   * why there is none (a busy moment, a pair too large to compare within SPEC_TIMEOUT_MS). It is
   * `guarded` when `base` is in production and `version` has its major version: a breaking or
   * incomplete report there is what `--fail-on-breaking` and BREAKING_CHANGES_REFUSED_ORGS stop.
   */
  async assess(api: ApiEntity, base: ApiVersionEntity, version: string, spec: { text: string; kind: string }): Promise<ChangeAssessment> {
    const guarded = base.lifecycle === 'production' && majorOf(base.version) === majorOf(version);
    const kept = await this.versions.revision(api.id, base.version, base.revision);
    if (!kept) return { guarded };
    try {
      return { guarded, report: await this.specs.compare(api.orgId, { text: kept.spec, format: kept.kind }, { text: spec.text, format: spec.kind }, true) };
    } catch (error) {
      if (error instanceof ServiceBusyException) return { guarded, notCompared: { why: 'the spec threads were busy', busy: error } };
      if (error instanceof UnprocessableEntityException) return { guarded, notCompared: { why: errorSummary(error) } };
      throw error;
    }
  }

  /**
   * The changes a new spec makes to the version it follows (`base`). A new spec of a version in
   * production, without a new major version, that breaks it, or that could not be compared in full
   * (not proven safe), gets a warning, or a 409 in an org that refuses them
   * (BREAKING_CHANGES_REFUSED_ORGS).
   */
  private async changeNotes(api: ApiEntity, base: ApiVersionEntity, version: string, spec: { text: string; kind: string }): Promise<ChangeNotes> {
    const { guarded, report, notCompared } = await this.assess(api, base, version, spec);
    const refuses = guarded && this.config.breakingChangesRefusedOrgs.some((org) => org === '*' || org === api.orgId);
    if (notCompared) {
      // Comparing is a courtesy where breaking changes are allowed: neither a busy moment nor a
      // pair too large to compare holds up the registration. Where the comparison decides, a busy
      // moment is worth a retry (503).
      if (refuses && notCompared.busy) throw notCompared.busy;
      const warning = `Not compared with version "${base.version}"${guarded ? ', in production' : ''}: ${notCompared.why}`;
      if (refuses) throw new ConflictException(`${warning}, so it is not proven safe. ${REFUSED}`);
      return { warnings: [warning] };
    }
    if (!report) return {};
    const changes = { breaking: report.breaking, nonBreaking: report.nonBreaking, info: report.info, complete: report.complete };
    const reaching =
      report.breaking > 0 || !report.complete
        ? withImpact(report, await this.consumers.ofVersion(api.id, base.version, base.version === api.version))
        : undefined;
    const breaking = reaching && report.breaking > 0 ? { event: breakingEvent(base.version, version, reaching), guarded } : undefined;
    const reached = { ...(reaching?.impact ? { impact: reaching.impact } : {}), ...(breaking ? { breaking } : {}) };
    if (!guarded || (report.breaking === 0 && report.complete)) return { changes, ...reached };
    const warnings: string[] = [];
    if (report.breaking > 0) {
      const named = report.changes.filter((change) => change.severity === 'breaking').slice(0, CHANGES_NAMED);
      const more = report.breaking - named.length;
      warnings.push(
        `${report.breaking} breaking change${report.breaking === 1 ? '' : 's'} to version "${base.version}", in production, without a new major version: ` +
          named.map((change) => (change.operation ? `${change.operation}: ${change.message}` : change.message)).join('; ') +
          (more > 0 ? `; and ${more} more (GET /api-management/apis/${api.id}/changes)` : ''),
      );
    }
    if (!report.complete) {
      warnings.push(
        `The comparison with version "${base.version}", in production, is not complete, so it does not prove that nothing ${report.breaking > 0 ? 'else ' : ''}breaks: ${report.incompleteReason}`,
      );
    }
    const told = reaching?.impact ? [...reaching.impact.affected, ...reaching.impact.mayBeAffected] : [];
    if (told.length > 0) warnings.push(`It reaches consumers of version "${base.version}": ${namedList(told, CONSUMER_LIMITS.named)}`);
    if (refuses) throw new ConflictException(`${warnings.join('. ')}. ${REFUSED}`);
    return { changes, warnings, ...reached };
  }

  private async record(changed: { api: ApiEntity; versions: ApiVersionEntity[] }, version: string): Promise<ApiVersionRecord> {
    const records = await this.records(changed.api, changed.versions);
    return records.find((item) => item.version === version)!;
  }

  private async records(api: ApiEntity, versions: ApiVersionEntity[]): Promise<ApiVersionRecord[]> {
    const [statuses, lint] = await Promise.all([this.ai.indexingStatuses([api]), this.versions.lintSummaries(versions)]);
    const recommended = versions.find((item) => item.version === api.version) ?? recommendedVersion(versions);
    return inReleaseOrder(versions).map((item) => {
      const moveTo = moveToFor(item, recommended);
      const indexing = item === recommended ? statuses.get(api.id) : undefined;
      const summary = lint.get(item.version);
      return {
        apiId: api.id,
        ...versionSummary(item),
        kind: item.kind,
        revision: item.revision,
        recommended: item === recommended,
        ...(item.source ? { source: item.source } : {}),
        ...(moveTo ? { moveTo } : {}),
        ...(indexing ? { indexing } : {}),
        ...(summary ? { lint: summary } : {}),
        createdAt: new Date(item.createdAt).toISOString(),
        updatedAt: new Date(item.updatedAt).toISOString(),
      };
    });
  }
}

/** The notes a registration answers with (the event is raised, not shown). */
function publicNotes({ breaking: _event, ...notes }: ChangeNotes): Omit<ChangeNotes, 'breaking'> {
  return notes;
}

/**
 * `api.breaking_change` of a change that makes a new spec, in its transaction, when it breaks
 * someone: a revision in place, a new spec of a version in production's major version, or a new
 * version that takes the recommended one's place (its followers move to it).
 */
function raiseBreaking(change: VersionsChange, notes: ChangeNotes): void {
  if (!notes.breaking) return;
  const { event, guarded } = notes.breaking;
  const movesFollowers = change.api.version === event.from && recommendedVersion(change.versions).version === event.version;
  if (guarded || event.from === event.version || movesFollowers) change.raise('api.breaking_change', event);
}

function breakingEvent(from: string, version: string, report: ChangeReport): EventData['api.breaking_change'] {
  const impact = report.impact ?? { affected: [], mayBeAffected: [], unaffected: 0 };
  return {
    version,
    from,
    counts: { breaking: report.breaking, nonBreaking: report.nonBreaking, info: report.info, complete: report.complete },
    changes: report.changes.filter((change) => change.severity === 'breaking').slice(0, NOTIFICATION_LIMITS.changesCarried),
    affected: impact.affected.slice(0, NOTIFICATION_LIMITS.consumersCarried),
    mayBeAffected: impact.mayBeAffected.slice(0, NOTIFICATION_LIMITS.consumersCarried),
  };
}

function duplicate(apiId: string, version: string): ConflictException {
  return new ConflictException(`API "${apiId}" already has a version "${version}": PUT …/versions/${encodeURIComponent(version)} adds a revision of it`);
}
