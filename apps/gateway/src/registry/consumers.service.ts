import { BadRequestException, ConflictException, ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  CONSUMER_LIMITS,
  type ChangeReport,
  type ConsumedApi,
  type ConsumedOperation,
  type ConsumerDependencies,
  type ConsumerDependencyView,
  type ConsumerList,
  type ConsumerRecord,
  type TreeComponent,
} from '#contracts';
import type { EntityManager } from 'typeorm';
import { assertOrgMember } from '../auth/org-access.js';
import { type Caller, hasRole } from '../auth/caller.js';
import { DomainEvent } from '../events/domain-event.js';
import { EventOutbox } from '../events/event-outbox.js';
import type { Consumer } from '../consumers/consumer.js';
import type { ConsumerDeclarationDto, ConsumerDependencyQueryDto } from './consumers.dto.js';
import { RegistryService } from './registry.service.js';
import { type ConsumedApiRow, ConsumersRepository } from '../consumers/consumers.repository.js';
import { operationKey, withImpact } from '../consumers/impact.js';

/** An observed client's `lastSeenAt` is brought up to date at most this often (a new operation is recorded at once). */
const OBSERVED_REFRESH_MS = 5 * 60_000;

/** Who uses an API: declared by a team, read from a tree's catalog, or observed from a client's calls. */
@Injectable()
export class ConsumersService {
  private readonly logger = new Logger(ConsumersService.name);

  constructor(
    private readonly consumers: ConsumersRepository,
    private readonly outbox: EventOutbox,
    private readonly registry: RegistryService,
  ) {}

  async list(caller: Caller, apiId: string): Promise<ConsumerList> {
    const api = await this.consumers.visibleApi(caller.orgs, apiId);
    return { items: (await this.consumers.ofApi(api.id)).map(toConsumerRecord) };
  }

  /** Any member of the API's org declares what their service uses; the same name and version again updates it (its declarer, or a publisher). */
  async declare(caller: Caller, apiId: string, body: ConsumerDeclarationDto): Promise<ConsumerRecord> {
    const api = await this.consumers.visibleApi(caller.orgs, apiId);
    const version = body.version?.trim() || null;
    if (version !== null && !(await this.consumers.hasVersion(api.id, version))) throw new NotFoundException(`API "${api.id}" has no version "${version}"`);
    // Declaring again updates a consumer: only its declarer or a publisher may (others could narrow what it is told).
    const existing = await this.consumers.findNamed(api.id, 'declared', body.name.trim(), version);
    if (existing && existing.declaredBy !== caller.sub && !hasRole(caller, 'publisher')) {
      throw new ForbiddenException(`"${existing.name}" is declared by someone else: only they, a publisher or an admin may change it`);
    }
    const fields = {
      name: body.name.trim(),
      teamName: body.teamName?.trim() || null,
      contact: body.contact?.trim() || null,
      version,
      operations: distinctOperations(body.operations ?? []),
      source: 'declared' as const,
      declaredBy: caller.sub,
    };
    await this.assertOperationsExist(caller, api.id, version, fields.operations);
    return toConsumerRecord(await this.save(api, (manager) => this.consumers.upsert(manager, api, fields)));
  }

  /** Its declarer, or a publisher (an admin is one too). */
  async remove(caller: Caller, apiId: string, consumerId: string): Promise<void> {
    const api = await this.consumers.visibleApi(caller.orgs, apiId);
    const consumer = await this.consumers.find(api.id, consumerId);
    if (!consumer) throw new NotFoundException(`API "${api.id}" has no consumer "${consumerId}"`);
    if (consumer.declaredBy !== caller.sub && !hasRole(caller, 'publisher')) {
      throw new ForbiddenException('Only whoever declared this consumer, a publisher or an admin may remove it');
    }
    await this.consumers.remove(consumer.id);
  }

  /** The org's dependency view: each consumer (by name, any case) with the API versions it uses. */
  async dependencies(caller: Caller, query: ConsumerDependencyQueryDto): Promise<ConsumerDependencyView> {
    assertOrgMember(caller, query.orgId);
    const rows = await this.consumers.dependencies(query.orgId, query.stage);
    const truncated = rows.length > CONSUMER_LIMITS.maxDependencyRows;
    const byName = new Map<string, ConsumerDependencies>();
    for (const row of rows.slice(0, CONSUMER_LIMITS.maxDependencyRows)) {
      const { consumer } = row;
      const key = consumer.name.toLowerCase();
      const entry = byName.get(key) ?? { name: consumer.name, teamNames: [], contacts: [], uses: [] };
      if (consumer.teamName && !entry.teamNames.includes(consumer.teamName)) entry.teamNames.push(consumer.teamName);
      if (consumer.contact && !entry.contacts.includes(consumer.contact)) entry.contacts.push(consumer.contact);
      const use: ConsumedApi = {
        consumerId: consumer.id,
        apiId: consumer.apiId,
        apiName: row.apiName,
        version: row.version,
        followsRecommended: consumer.version === null,
        lifecycle: row.lifecycle,
        ...(row.sunsetDate ? { sunsetDate: row.sunsetDate } : {}),
        operations: consumer.operations,
        source: consumer.source,
        lastSeenAt: consumer.lastSeenAt.toISOString(),
      };
      entry.uses.push(use);
      byName.set(key, entry);
    }
    return { orgId: query.orgId, items: [...byName.values()], ...(truncated ? { truncated } : {}) };
  }

  /**
   * A client token's read of an API or one of its operations (MCP `get_api`, `get_operation`):
   * the client is recorded as an observed consumer. Never fails the read it comes with.
   */
  async observe(caller: Caller, apiId: string, version: string | undefined, operation?: ConsumedOperation): Promise<void> {
    if (!caller.client) return;
    try {
      const api = await this.consumers.visibleApi(caller.orgs, apiId);
      const used = version && version !== api.version ? version : null;
      const client = caller.client.slice(0, CONSUMER_LIMITS.nameMaxChars);
      // A read that tells nothing new writes nothing: an agent's reads are many.
      const known = await this.consumers.findNamed(api.id, 'observed', client, used);
      const called = operation && distinctOperations([operation])[0];
      const recent = known && Date.now() - known.lastSeenAt.getTime() < OBSERVED_REFRESH_MS;
      if (recent && (!called || known.operations.some((item) => item.method === called.method && item.path === called.path))) return;
      await this.save(api, (manager) => this.consumers.observe(manager, api, client, used, called));
    } catch (error) {
      this.logger.warn(`A call by client "${caller.client}" was not recorded as a consumer of API ${apiId}: ${(error as Error).message}`);
    }
  }

  /**
   * A tree's Backstage components (`consumesApis`) as `catalog` consumers of the org's APIs those
   * refs name, each known by its full entity ref (two namespaces' `web` are two). With `prune`,
   * the tree's catalog consumers it no longer names go, but for those of descriptors that could
   * not be read this time (`spared`): a broken file loses nothing.
   */
  async syncCatalog(orgId: string, tree: string, components: TreeComponent[], prune: boolean, spared: string[]): Promise<void> {
    const refs = [...new Set(components.flatMap((component) => component.consumesApis))];
    const apis = await this.consumers.apisByEntityRef(orgId, refs);
    await this.consumers.transaction(async (manager) => {
      const kept: string[] = [];
      const events: DomainEvent[] = [];
      const grown = new Set<string>();
      for (const component of components) {
        for (const ref of new Set(component.consumesApis)) {
          const api = apis.get(ref.toLowerCase());
          if (!api) continue;
          const fields = { name: component.entityRef, teamName: null, contact: null, version: null, operations: [], source: 'catalog' as const };
          const saved = await this.consumers.upsert(manager, api, { ...fields, entityRef: component.entityRef, tree, catalogPath: component.path });
          kept.push(saved.consumer.id);
          if (!saved.added) continue;
          events.push(consumerAdded(api, saved.consumer));
          grown.add(api.id);
        }
      }
      for (const apiId of grown) await this.assertRoom(manager, apiId);
      if (prune) await this.consumers.pruneCatalog(manager, orgId, tree, kept, spared);
      await this.outbox.raise(manager, events);
    });
    this.outbox.committed();
  }

  /** A report with the consumers of its `from` version that its breaking changes reach (`withImpact`). */
  async withImpact<T extends ChangeReport>(apiId: string, fromVersion: string, recommendedVersion: string, report: T): Promise<T> {
    return withImpact(report, await this.consumers.ofVersion(apiId, fromVersion, fromVersion === recommendedVersion));
  }

  /** Saves a consumer in one transaction with `api.consumer.added` when it is new; within `CONSUMER_LIMITS.maxPerApi`. */
  private async save(api: ConsumedApiRow, upsert: (manager: EntityManager) => Promise<{ consumer: Consumer; added: boolean }>): Promise<Consumer> {
    const { consumer, added } = await this.consumers.transaction(async (manager) => {
      const saved = await upsert(manager);
      if (saved.added) {
        await this.assertRoom(manager, api.id);
        await this.outbox.raise(manager, [consumerAdded(api, saved.consumer)]);
      }
      return saved;
    });
    if (added) this.outbox.committed();
    return consumer;
  }

  /**
   * Every operation a consumer names must be one of the version's (the recommended one's when it
   * names none): an operation that matches nothing would never be reached by a change, so the
   * consumer would be called unaffected by every one.
   */
  private async assertOperationsExist(caller: Caller, apiId: string, version: string | null, operations: ConsumedOperation[]): Promise<void> {
    if (operations.length === 0) return;
    const { items } = await this.registry.endpoints(caller, apiId, version ?? undefined);
    const known = new Set(items.map(operationKey));
    const unknown = operations.filter((operation) => !known.has(operationKey(operation)));
    if (unknown.length === 0) return;
    const named = unknown.slice(0, CONSUMER_LIMITS.named).map((operation) => `${operation.method} ${operation.path}`);
    throw new BadRequestException(
      `operations: ${version ? `version "${version}"` : 'the recommended version'} of API "${apiId}" has no ${named.join(', ')}${unknown.length > named.length ? ` and ${unknown.length - named.length} more` : ''} (GET …/endpoints lists them)`,
    );
  }

  /** 409 past `CONSUMER_LIMITS.maxPerApi` consumers of one API, whatever their source. */
  private async assertRoom(manager: EntityManager, apiId: string): Promise<void> {
    if ((await this.consumers.count(apiId, manager)) > CONSUMER_LIMITS.maxPerApi)
      throw new ConflictException(`API "${apiId}" has ${CONSUMER_LIMITS.maxPerApi} consumers already: remove some first`);
  }
}

function consumerAdded(api: ConsumedApiRow, consumer: Consumer): DomainEvent {
  return new DomainEvent('api.consumer.added', api, {
    consumerId: consumer.id,
    name: consumer.name,
    ...(consumer.teamName ? { teamName: consumer.teamName } : {}),
    ...(consumer.version ? { version: consumer.version } : {}),
    source: consumer.source,
  });
}

/** The operations once each, the method in capitals. */
function distinctOperations(operations: ConsumedOperation[]): ConsumedOperation[] {
  const seen = new Map<string, ConsumedOperation>();
  for (const { method, path } of operations) {
    const operation = { method: method.toUpperCase(), path: path.trim() };
    seen.set(`${operation.method} ${operation.path}`, operation);
  }
  return [...seen.values()];
}

export function toConsumerRecord(consumer: Consumer): ConsumerRecord {
  return {
    consumerId: consumer.id,
    apiId: consumer.apiId,
    orgId: consumer.orgId,
    name: consumer.name,
    ...(consumer.teamName ? { teamName: consumer.teamName } : {}),
    ...(consumer.contact ? { contact: consumer.contact } : {}),
    ...(consumer.version ? { version: consumer.version } : {}),
    operations: consumer.operations,
    source: consumer.source,
    ...(consumer.entityRef ? { entityRef: consumer.entityRef } : {}),
    ...(consumer.declaredBy ? { declaredBy: consumer.declaredBy } : {}),
    lastSeenAt: consumer.lastSeenAt.toISOString(),
    createdAt: consumer.createdAt.toISOString(),
  };
}
