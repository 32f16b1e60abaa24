import { BadRequestException, ConflictException, HttpException, Inject, Injectable, NotFoundException, PayloadTooLargeException, UnprocessableEntityException } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type FindOptionsWhere, In, QueryFailedError, Raw, Repository } from 'typeorm';
import { ANSWER_MAX_CHARS, ApiDeletedEvent, normalizeLabels, parseLabelSelector, type ApiEndpointsResponse, type ApiListResponse, type ApiRecord, ApiRegisteredEvent, ApiUpdatedEvent } from '#contracts';
import type { GatewayConfig } from '#config';
import { fitJson, ServiceBusyException } from '#http';
import { isRefusal, SPEC_FORMATS, SPEC_LIMITS, type SpecFormats, type SpecRefusal, type SpecTask, type SpecTaskInput, type SpecTaskOutput, SpecThreads, SpecThreadsBusyError } from '#spec';
import { assertOrgMember } from '../auth/org-access.js';
import type { Caller } from '../auth/caller.js';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { AiClient } from '../proxy/ai-client.js';
import type { ApiBodyDto, ListApisQueryDto } from './api.dto.js';
import { ApiEntity } from './api.entity.js';
import { type RegisteredSpec, registeredSpec } from './registered-spec.js';

const UNIQUE_VIOLATION = '23505';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class RegistryService {
  constructor(
    @InjectRepository(ApiEntity) private readonly apis: Repository<ApiEntity>,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly events: EventEmitter2,
    private readonly ai: AiClient,
    private readonly specs: SpecThreads,
    @Inject(SPEC_FORMATS) private readonly formats: SpecFormats,
  ) {}

  async create(caller: Caller, body: ApiBodyDto): Promise<ApiRecord> {
    assertOrgMember(caller, body.orgId);
    const { text: spec, kind } = await this.checkSpec(body);
    const entity = await this.saveUnique(() =>
      this.apis.save(
        this.apis.create({
          orgId: body.orgId,
          name: body.name.trim(),
          version: body.version.trim(),
          teamName: body.teamName?.trim() || null,
          description: body.description?.trim() || null,
          labels: normalizeLabels(body.labels ?? {}),
          spec,
          kind,
        }),
      ),
    body);
    this.events.emit(ApiRegisteredEvent.eventName, new ApiRegisteredEvent(entity.id));
    return toRecord(entity, { status: 'PENDING' });
  }

  async update(caller: Caller, apiId: string, body: ApiBodyDto): Promise<ApiRecord> {
    const existing = await this.findVisible(caller, apiId);
    // An org the caller is not in is refused as at registration, whatever the API's own org.
    assertOrgMember(caller, body.orgId);
    if (body.orgId !== existing.orgId) {
      throw new ConflictException(`An API cannot move between orgs (it belongs to "${existing.orgId}")`);
    }
    const { text: spec, kind } = await this.checkSpec(body);
    const entity = await this.saveUnique(async () => {
      const result = await this.apis
        .createQueryBuilder()
        .update()
        .set({
          name: body.name.trim(),
          version: body.version.trim(),
          teamName: body.teamName?.trim() || null,
          description: body.description?.trim() || null,
          // Left out, the API keeps its labels; `{}` clears them.
          ...(body.labels !== undefined ? { labels: normalizeLabels(body.labels) } : {}),
          spec,
          kind,
          revision: () => 'revision + 1',
        })
        .where('id = :apiId AND deleted_at IS NULL', { apiId })
        .execute();
      if (!result.affected) throw notFound(apiId);
      return this.apis.findOneByOrFail({ id: apiId });
    }, body);
    this.events.emit(ApiUpdatedEvent.eventName, new ApiUpdatedEvent(entity.id));
    return toRecord(entity, { status: 'PENDING' });
  }

  async remove(caller: Caller, apiId: string): Promise<void> {
    await this.findVisible(caller, apiId);
    const result = await this.apis
      .createQueryBuilder()
      .update()
      .set({ deletedAt: () => 'now()', revision: () => 'revision + 1' })
      .where('id = :apiId AND deleted_at IS NULL', { apiId })
      .execute();
    if (!result.affected) throw notFound(apiId);
    this.events.emit(ApiDeletedEvent.eventName, new ApiDeletedEvent(apiId));
  }

  async get(caller: Caller, apiId: string): Promise<ApiRecord> {
    const [record] = await this.records(caller, [apiId]);
    return record;
  }

  /** These APIs' records in the order asked, with one indexing-status call for all (404 for the first the caller cannot see). */
  async records(caller: Caller, apiIds: string[]): Promise<ApiRecord[]> {
    const entities = await this.findAllVisible(caller, apiIds);
    const statuses = await this.ai.indexingStatuses(entities);
    const byId = new Map(entities.map((entity) => [entity.id, entity]));
    return apiIds.map((id) => toRecord(byId.get(id)!, statuses.get(id)));
  }

  /** The operations of the registered spec, as the registry holds it (no indexing needed). */
  async endpoints(caller: Caller, apiId: string): Promise<ApiEndpointsResponse> {
    const entity = await this.findVisible(caller, apiId);
    const read = await this.runSpecTask('operationsOf', { text: entity.spec, format: entity.kind });
    if (isRefusal(read)) throw new UnprocessableEntityException(`The registered spec cannot be read: ${read.refused}`);
    const { value, cuts } = fitJson(read.operations, ANSWER_MAX_CHARS.endpoints, { items: SPEC_LIMITS.maxOperations });
    return { items: value, ...(cuts.length ? { cuts } : {}) };
  }

  /** The spec as it was registered (its JSON, YAML, SDL or .proto text), to view or download. */
  async spec(caller: Caller, apiId: string): Promise<RegisteredSpec> {
    return registeredSpec(await this.findVisible(caller, apiId), this.formats);
  }

  async list(caller: Caller, query: ListApisQueryDto): Promise<ApiListResponse> {
    if (query.orgId) assertOrgMember(caller, query.orgId);
    if (caller.orgs.length === 0) return { items: [], total: 0 };
    const where: FindOptionsWhere<ApiEntity> = {
      orgId: query.orgId ?? In(caller.orgs),
      deletedAt: IsNull(),
      ...(query.kind ? { kind: query.kind } : {}),
      // In any case, as search's teamNames filter matches.
      ...(query.teamName?.trim() ? { teamName: Raw((column) => `lower(${column}) = lower(:teamName)`, { teamName: query.teamName.trim() }) } : {}),
      ...(query.label?.length ? { labels: labelsFilter(query.label) } : {}),
    };
    const [items, total] = await this.apis.findAndCount({
      where,
      order: { name: 'ASC', version: 'ASC', id: 'ASC' },
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    });
    const statuses = await this.ai.indexingStatuses(items);
    return { items: items.map((item) => toRecord(item, statuses.get(item.id))), total };
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
    const found = await this.apis.findBy({ id: In(ids), orgId: In(caller.orgs), deletedAt: IsNull() });
    const visible = new Set(found.map((entity) => entity.id));
    const missing = ids.find((id) => !visible.has(id));
    if (missing) throw notFound(missing);
    return found;
  }

  /**
   * The checks the indexing worker repeats (size, a format that reads it, its safety limits), so
   * that a bad spec is refused at once; on a spec thread, as parsing takes seconds for a large one.
   */
  private async checkSpec({ spec, format }: Pick<ApiBodyDto, 'spec' | 'format'>): Promise<{ text: string; kind: string }> {
    if (format !== undefined && !this.formats.byKind(format)) {
      throw new BadRequestException(`format must be one of ${this.formats.kinds.join(', ')} (or left out to detect it)`);
    }
    const checked = await this.runSpecTask('checkRegistration', { spec, format, maxBytes: this.config.specMaxBytes });
    if (isRefusal(checked)) throw refused(checked);
    return checked;
  }

  private async runSpecTask<K extends SpecTask>(task: K, input: SpecTaskInput<K>): Promise<SpecTaskOutput<K>> {
    try {
      return await this.specs.run(task, input);
    } catch (error) {
      if (error instanceof SpecThreadsBusyError) throw new ServiceBusyException(`${error.message}: many specs are being checked right now`, 2);
      throw error;
    }
  }

  private async saveUnique(save: () => Promise<ApiEntity>, body: ApiBodyDto): Promise<ApiEntity> {
    try {
      return await save();
    } catch (error) {
      if (error instanceof HttpException) throw error;
      if (error instanceof QueryFailedError && (error.driverError as { code?: string })?.code === UNIQUE_VIOLATION) {
        throw new ConflictException(
          `An API named "${body.name}" version "${body.version}" already exists in org "${body.orgId}"`,
        );
      }
      throw error;
    }
  }
}

function refused(refusal: SpecRefusal): HttpException {
  return refusal.tooLarge ? new PayloadTooLargeException(refusal.refused) : new UnprocessableEntityException(refusal.refused);
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
  return Raw((column) => Object.keys(parameters).map((name) => `platform_backend.lower_labels(${column}) @> CAST(:${name} AS jsonb)`).join(' AND '), parameters);
}

function notFound(apiId: string): NotFoundException {
  return new NotFoundException(`API "${apiId}" not found`);
}

function toRecord(entity: ApiEntity, indexing: ApiRecord['indexing']): ApiRecord {
  return {
    apiId: entity.id,
    orgId: entity.orgId,
    name: entity.name,
    version: entity.version,
    ...(entity.teamName ? { teamName: entity.teamName } : {}),
    ...(entity.description ? { description: entity.description } : {}),
    labels: entity.labels ?? {},
    kind: entity.kind,
    revision: entity.revision,
    createdAt: new Date(entity.createdAt).toISOString(),
    updatedAt: new Date(entity.updatedAt).toISOString(),
    ...(indexing ? { indexing } : {}),
  };
}

