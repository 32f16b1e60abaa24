import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { type FindOptionsWhere, In, Raw, Repository } from 'typeorm';
import {
  API_DETAILS_PATCH_FIELDS,
  ApiDeletedEvent,
  type ApiEndpointsResponse,
  type ApiListResponse,
  type ApiRecord,
  type ApiSource,
  ApiRegisteredEvent,
  ApiUpdatedEvent,
  DEFAULT_LIFECYCLE,
  normalizeLabels,
  parseLabelSelector,
} from '#contracts';
import { SPEC_FORMATS, type SpecFormats } from '#api-specs';
import { assertOrgMember } from '../auth/org-access.js';
import type { Caller } from '../auth/caller.js';
import { AiClient } from '../ai-client/ai-client.js';
import { ConsumersRepository } from '../consumers/consumers.repository.js';
import { assertUnused, toldConsumers } from '../consumers/impact.js';
import { DomainEvent } from '../events/domain-event.js';
import { EventOutbox } from '../events/event-outbox.js';
import type { ApiBodyDto, ApiDetailsPatchDto, ListApisQueryDto } from './api.dto.js';
import { ApiEntity } from './api.entity.js';
import type { ApiVersionEntity, ApiVersionRevisionEntity } from './api-version.entity.js';
import { type ApiDetails, ApiVersionsRepository, type NewVersion } from './api-versions.repository.js';
import { LintScheduler } from './lint-scheduler.js';
import { UUID } from '../common/ids.js';
import { LIVE_API, liveApi } from '../common/live-apis.js';
import { inReleaseOrder, versionSummary } from './recommended-version.js';
import { type RegisteredSpec, registeredSpec } from './registered-spec.js';
import { SpecWork } from './spec-work.service.js';
import { nextStage } from './version-stage.js';

@Injectable()
export class RegistryService {
  constructor(
    @InjectRepository(ApiEntity) private readonly apis: Repository<ApiEntity>,
    private readonly versions: ApiVersionsRepository,
    private readonly events: EventEmitter2,
    private readonly ai: AiClient,
    private readonly specs: SpecWork,
    private readonly lint: LintScheduler,
    private readonly consumers: ConsumersRepository,
    private readonly outbox: EventOutbox,
    @Inject(SPEC_FORMATS) private readonly formats: SpecFormats,
  ) {}

  /** A new API and its first version (`lifecycle`, default `production`). */
  async create(caller: Caller, body: ApiBodyDto): Promise<ApiRecord> {
    assertOrgMember(caller, body.orgId);
    const { text: spec, kind } = await this.specs.check(body.orgId, body);
    return this.register(detailsOf(body), { version: body.version.trim(), lifecycle: body.lifecycle ?? DEFAULT_LIFECYCLE, kind, spec }, null);
  }

  /** A new API from a checked spec (`SpecWork.check`); the caller's right to its org is checked already. */
  async register(details: ApiDetails, first: NewVersion, source: ApiSource | null): Promise<ApiRecord> {
    const { api, versions } = await this.versions.createApi(details, first, source);
    this.events.emit(ApiRegisteredEvent.eventName, new ApiRegisteredEvent(api.id));
    this.lint.schedule(api.orgId, api.id, first.version, 1);
    return toRecord(api, versions, { status: 'PENDING' });
  }

  /**
   * `PATCH /api-management/apis/:apiId`: the API's own details and its recommended version's
   * stage, without a spec. No version gets a new revision; the API is indexed again (`PENDING`)
   * only when something search holds changed, and the indexing job then re-embeds only chunks
   * whose text changed (a label change: none; the team or description: the API's L1 chunk).
   */
  async patch(caller: Caller, apiId: string, body: ApiDetailsPatchDto): Promise<ApiRecord> {
    if (API_DETAILS_PATCH_FIELDS.every((field) => body[field] === undefined)) {
      throw new BadRequestException(`Nothing to change: give one of ${API_DETAILS_PATCH_FIELDS.join(', ')} (a new spec is a PUT)`);
    }
    const api = await this.findVisible(caller, apiId);
    const changed = await this.versions.change(api.id, async (change) => {
      await change.setDetails(patchedDetails(change.api, body));
      if (body.lifecycle)
        await change.setStage(change.api.version, nextStage(change.get(change.api.version), { lifecycle: body.lifecycle }), body.force === true);
    });
    if (changed.reindexed) this.events.emit(ApiUpdatedEvent.eventName, new ApiUpdatedEvent(api.id));
    const indexing = changed.reindexed ? { status: 'PENDING' as const } : (await this.ai.indexingStatuses([changed.api])).get(api.id);
    return toRecord(changed.api, inReleaseOrder(changed.versions), indexing);
  }

  /** An API that consumers use is deleted only with `force` (they are told: `api.deleted`). */
  async remove(caller: Caller, apiId: string, force = false): Promise<void> {
    await this.findVisible(caller, apiId);
    await this.removeApi(apiId, force);
  }

  /**
   * Deletes an API whose caller's right to it is checked already, with `api.deleted` naming its
   * consumers (without `force`, a 409 names them instead): it leaves search once the index confirms.
   */
  async removeApi(apiId: string, force: boolean): Promise<void> {
    await this.apis.manager.transaction(async (manager) => {
      const [api] = await manager
        .getRepository(ApiEntity)
        .createQueryBuilder('api')
        .setLock('pessimistic_write')
        .where(`api.id = :apiId AND ${liveApi('api')}`, { apiId })
        .getMany();
      if (!api) throw notFound(apiId);
      const users = await this.consumers.ofApi(apiId, manager);
      if (!force) assertUnused(`API "${apiId}"`, users, 'delete');
      await manager.update(ApiEntity, { id: apiId }, { deletedAt: () => 'now()', revision: () => 'revision + 1' });
      await this.outbox.raise(manager, [new DomainEvent('api.deleted', api, toldConsumers(users))]);
    });
    this.outbox.committed();
    this.events.emit(ApiDeletedEvent.eventName, new ApiDeletedEvent(apiId));
  }

  async get(caller: Caller, apiId: string): Promise<ApiRecord> {
    const [record] = await this.records(caller, [apiId]);
    return record;
  }

  /** These APIs' records in the order asked, with one indexing-status call for all (404 for the first the caller cannot see). */
  async records(caller: Caller, apiIds: string[]): Promise<ApiRecord[]> {
    const entities = await this.findAllVisible(caller, apiIds);
    const byId = new Map(entities.map((entity) => [entity.id, entity]));
    return this.withVersions(apiIds.map((id) => byId.get(id)!));
  }

  /** The operations of a version's spec (the recommended one's unless `version` names another), as the registry holds it (no indexing needed). */
  async endpoints(caller: Caller, apiId: string, version?: string): Promise<ApiEndpointsResponse> {
    const { api, revision } = await this.specOf(caller, apiId, version);
    return this.specs.operations(api.orgId, { text: revision.spec, format: revision.kind });
  }

  /** A version's spec as it was registered (its JSON, YAML, SDL or .proto text), to view or download. */
  async spec(caller: Caller, apiId: string, version?: string): Promise<RegisteredSpec> {
    const { api, revision } = await this.specOf(caller, apiId, version);
    return registeredSpec({ name: api.name, version: revision.version, spec: revision.spec, kind: revision.kind }, this.formats);
  }

  /** The current revision of a version of a visible API: the recommended version's unless `version` names another (404 when it has none of that name). */
  async specOf(caller: Caller, apiId: string, version?: string): Promise<{ api: ApiEntity; revision: ApiVersionRevisionEntity }> {
    const api = await this.findVisible(caller, apiId);
    const revision = await this.versions.revision(api.id, version ?? api.version);
    if (!revision) throw new NotFoundException(`API "${apiId}" has no version "${version ?? api.version}"`);
    return { api, revision };
  }

  async list(caller: Caller, query: ListApisQueryDto): Promise<ApiListResponse> {
    if (query.sourceTree && !query.orgId) throw new BadRequestException('sourceTree needs orgId: a tree is imported into one org');
    if (query.orgId) assertOrgMember(caller, query.orgId);
    if (caller.orgs.length === 0) return { items: [], total: 0 };
    const where: FindOptionsWhere<ApiEntity> = {
      orgId: query.orgId ?? In(caller.orgs),
      ...LIVE_API,
      ...(query.kind ? { kind: query.kind } : {}),
      ...(query.lifecycle?.length ? { lifecycle: In(query.lifecycle) } : {}),
      // In any case, as search's teamNames filter matches.
      ...(query.teamName?.trim() ? { teamName: Raw((column) => `lower(${column}) = lower(:teamName)`, { teamName: query.teamName.trim() }) } : {}),
      ...(query.label?.length ? { labels: labelsFilter(query.label) } : {}),
      // As the partial index apis_org_source_tree_idx holds it (migration ApiSources).
      ...(query.sourceTree ? { source: Raw((column) => `${column} ? 'tree' AND ${column} ->> 'tree' = :sourceTree`, { sourceTree: query.sourceTree }) } : {}),
      ...(query.system || query.tag?.length ? { catalog: catalogFilter(query.system, query.tag ?? []) } : {}),
    };
    const [items, total] = await this.apis.findAndCount({
      where,
      order: { name: 'ASC', version: 'ASC', id: 'ASC' },
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    });
    return { items: await this.withVersions(items), total };
  }

  /** The API if it exists in one of the caller's orgs; another org's API is indistinguishable from none. */
  async findVisible(caller: Caller, apiId: string): Promise<ApiEntity> {
    const [entity] = await this.findAllVisible(caller, [apiId]);
    return entity;
  }

  /** All these APIs, if every one is visible to the caller; otherwise 404 for the first that is not. */
  async findAllVisible(caller: Caller, apiIds: string[]): Promise<ApiEntity[]> {
    const ids = [...new Set(apiIds)];
    const malformed = ids.find((id) => !UUID.test(id));
    if (malformed) throw notFound(malformed);
    const found = await this.apis.findBy({ id: In(ids), orgId: In(caller.orgs), ...LIVE_API });
    const visible = new Set(found.map((entity) => entity.id));
    const missing = ids.find((id) => !visible.has(id));
    if (missing) throw notFound(missing);
    return found;
  }

  /** Records of these APIs with their versions, and one indexing-status call for all. */
  private async withVersions(entities: ApiEntity[]): Promise<ApiRecord[]> {
    const [versions, statuses] = await Promise.all([this.versions.versionsOf(entities.map((entity) => entity.id)), this.ai.indexingStatuses(entities)]);
    return entities.map((entity) => toRecord(entity, versions.get(entity.id) ?? [], statuses.get(entity.id)));
  }
}

/** What a registration says of the API itself. */
export function detailsOf(body: ApiBodyDto, labels?: Record<string, string>): ApiDetails {
  return {
    orgId: body.orgId,
    name: body.name.trim(),
    teamName: body.teamName?.trim() || null,
    description: body.description?.trim() || null,
    labels: normalizeLabels(body.labels ?? labels ?? {}),
  };
}

/** An API's details with a PATCH's fields over them: `null` or blank clears the team and description. */
function patchedDetails(api: ApiEntity, patch: ApiDetailsPatchDto): ApiDetails {
  const text = (value: string | null | undefined, current: string | null) => (value === undefined ? current : value?.trim() || null);
  return {
    orgId: api.orgId,
    name: patch.name?.trim() ?? api.name,
    teamName: text(patch.teamName, api.teamName),
    description: text(patch.description, api.description),
    labels: patch.labels === undefined ? (api.labels ?? {}) : sameOrNew(api.labels ?? {}, normalizeLabels(patch.labels ?? {})),
  };
}

/**
 * The labels as they are when the new ones are the same (the database returns a jsonb object's
 * keys in its own order): the same labels in another order must not look like a change to search.
 */
function sameOrNew(current: Record<string, string>, next: Record<string, string>): Record<string, string> {
  return JSON.stringify(normalizeLabels(current)) === JSON.stringify(next) ? current : next;
}

/**
 * Every `key:value` must be among the API's labels, the value in any case (as search's
 * `filters.labels`): the expression the GIN index `apis_labels_idx` holds (migration ApiLabels).
 */
function labelsFilter(selectors: string[]) {
  const parameters: Record<string, string> = {};
  for (const [index, selector] of selectors.entries()) {
    const parsed = parseLabelSelector(selector);
    // The DTO refused malformed ones already.
    if ('problem' in parsed) throw new BadRequestException(parsed.problem);
    parameters[`label${index}`] = JSON.stringify({ [parsed.key]: parsed.value.toLowerCase() });
  }
  return Raw(
    (column) =>
      Object.keys(parameters)
        .map((name) => `platform_backend.lower_labels(${column}) @> CAST(:${name} AS jsonb)`)
        .join(' AND '),
    parameters,
  );
}

/** A Backstage system and tags, as the GIN index `apis_catalog_idx` holds them (migration TreeImports). */
function catalogFilter(system: string | undefined, tags: string[]) {
  const wanted = JSON.stringify({ ...(system ? { system } : {}), ...(tags.length ? { tags } : {}) });
  return Raw((column) => `${column} @> CAST(:catalog AS jsonb)`, { catalog: wanted });
}

export function notFound(apiId: string): NotFoundException {
  return new NotFoundException(`API "${apiId}" not found`);
}

export function toRecord(entity: ApiEntity, versions: ApiVersionEntity[], indexing: ApiRecord['indexing']): ApiRecord {
  return {
    apiId: entity.id,
    orgId: entity.orgId,
    name: entity.name,
    version: entity.version,
    lifecycle: entity.lifecycle,
    ...(entity.sunsetDate ? { sunsetDate: entity.sunsetDate } : {}),
    versions: versions.map(versionSummary),
    ...(entity.teamName ? { teamName: entity.teamName } : {}),
    ...(entity.description ? { description: entity.description } : {}),
    labels: entity.labels ?? {},
    kind: entity.kind,
    revision: entity.revision,
    createdAt: new Date(entity.createdAt).toISOString(),
    updatedAt: new Date(entity.updatedAt).toISOString(),
    ...(entity.source ? { source: entity.source } : {}),
    ...(entity.catalog ? { catalog: entity.catalog } : {}),
    ...(indexing ? { indexing } : {}),
  };
}
