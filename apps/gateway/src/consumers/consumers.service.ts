import { ConflictException, ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
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
import type { Consumer } from './consumer.js';
import type { ConsumerDeclarationDto, ConsumerDependencyQueryDto } from './consumers.dto.js';
import { type ConsumedApiRow, ConsumersRepository } from './consumers.repository.js';
import { withImpact } from './impact.js';

/** Who uses an API: declared by a team, read from a tree's catalog, or observed from a client's calls. */
@Injectable()
export class ConsumersService {
  private readonly logger = new Logger(ConsumersService.name);

  constructor(
    private readonly consumers: ConsumersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async list(caller: Caller, apiId: string): Promise<ConsumerList> {
    const api = await this.consumers.visibleApi(caller.orgs, apiId);
    return { items: (await this.consumers.ofApi(api.id)).map(toConsumerRecord) };
  }

  /** Any member of the API's org declares what their service uses; the same name and version again updates it. */
  async declare(caller: Caller, apiId: string, body: ConsumerDeclarationDto): Promise<ConsumerRecord> {
    const api = await this.consumers.visibleApi(caller.orgs, apiId);
    const version = body.version?.trim() || null;
    if (version !== null && !(await this.consumers.hasVersion(api.id, version))) throw new NotFoundException(`API "${api.id}" has no version "${version}"`);
    const fields = {
      name: body.name.trim(),
      teamName: body.teamName?.trim() || null,
      contact: body.contact?.trim() || null,
      version,
      operations: distinctOperations(body.operations ?? []),
      source: 'declared' as const,
      declaredBy: caller.sub,
    };
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
      await this.save(api, (manager) => this.consumers.observe(manager, api, client, used, operation && distinctOperations([operation])[0]));
    } catch (error) {
      this.logger.warn(`A call by client "${caller.client}" was not recorded as a consumer of API ${apiId}: ${(error as Error).message}`);
    }
  }

  /**
   * A tree's Backstage components (`consumesApis`) as `catalog` consumers of the org's APIs those
   * refs name; the tree's catalog consumers it no longer names go.
   */
  async syncCatalog(orgId: string, tree: string, components: TreeComponent[]): Promise<void> {
    const refs = [...new Set(components.flatMap((component) => component.consumesApis))];
    const apis = await this.consumers.apisByEntityRef(orgId, refs);
    await this.consumers.transaction(async (manager) => {
      const kept: string[] = [];
      const events: DomainEvent[] = [];
      for (const component of components) {
        for (const ref of new Set(component.consumesApis)) {
          const api = apis.get(ref.toLowerCase());
          if (!api) continue;
          const fields = { name: entityName(component.entityRef), teamName: null, contact: null, version: null, operations: [], source: 'catalog' as const };
          const { consumer, added } = await this.consumers.upsert(manager, api, { ...fields, entityRef: component.entityRef, tree });
          kept.push(consumer.id);
          if (added) events.push(consumerAdded(api, consumer));
        }
      }
      await this.consumers.pruneCatalog(manager, orgId, tree, kept);
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
        if ((await this.consumers.count(api.id, manager)) > CONSUMER_LIMITS.maxPerApi)
          throw new ConflictException(`API "${api.id}" has ${CONSUMER_LIMITS.maxPerApi} consumers already: remove some first`);
        await this.outbox.raise(manager, [consumerAdded(api, saved.consumer)]);
      }
      return saved;
    });
    if (added) this.outbox.committed();
    return consumer;
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

/** A Backstage entity's name: `component:default/billing` → `billing`. */
function entityName(entityRef: string): string {
  return entityRef.slice(entityRef.lastIndexOf('/') + 1) || entityRef;
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
