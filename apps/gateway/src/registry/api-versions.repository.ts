import { createHash } from 'node:crypto';
import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In } from 'typeorm';
import {
  type ApiSource,
  type CatalogInfo,
  type EventData,
  type EventType,
  type LifecycleStage,
  type LintReport,
  type VersionSource,
  type VersionSummary,
} from '#contracts';
import { ConsumersRepository } from '../consumers/consumers.repository.js';
import type { Consumer } from '../consumers/consumer.js';
import { assertUnused, toldConsumers } from '../consumers/impact.js';
import { DomainEvent } from '../events/domain-event.js';
import { EventOutbox } from '../events/event-outbox.js';
import { ApiEntity } from './api.entity.js';
import { ApiVersionEntity, ApiVersionRevisionEntity } from './api-version.entity.js';
import { liveApi } from '../common/live-apis.js';
import { inReleaseOrder, recommendedVersion, versionSummary } from './recommended-version.js';

/** Revisions kept of each version (the current one and those before it), for change reports between consecutive ones. */
export const REVISIONS_KEPT = 20;

/** The API's own details, as a registration gives them. */
export interface ApiDetails {
  orgId: string;
  name: string;
  teamName: string | null;
  description: string | null;
  labels: Record<string, string>;
  /** A Backstage entity's (a tree import's); left as it is when absent. */
  catalog?: CatalogInfo | null;
}

/** A deprecated version whose sunset date comes near (`dueSunsets`). */
export interface DueSunset {
  api_id: string;
  org_id: string;
  name: string;
  team_name: string | null;
  recommended: string;
  version: string;
  sunset_date: string;
  days_left: number;
}

export interface NewVersion {
  version: string;
  lifecycle: LifecycleStage;
  kind: string;
  spec: string;
  /** The file of a tree it is read from. */
  source?: VersionSource | null;
}

/** An API's versions as one change sees and makes them, inside its transaction, with the API row locked. */
export class VersionsChange {
  /** What the change did, for the outbox: written in its transaction. */
  readonly events: DomainEvent[] = [];

  constructor(
    readonly manager: EntityManager,
    readonly api: ApiEntity,
    public versions: ApiVersionEntity[],
    private readonly consumers: ConsumersRepository,
    /** A new API: its first version is `api.created`, not `api.version.created`. */
    private readonly creating = false,
  ) {}

  /**
   * The consumers of a version as the change finds it: those that named it, and those that follow
   * it as the recommended version (the API's recommended version before this change).
   */
  consumersOf(version: string): Promise<Consumer[]> {
    return this.consumers.ofVersion(this.api.id, version, this.api.version === version, this.manager);
  }

  /** An event of this change (the API's name and team as they are when the change ends). */
  raise<T extends EventType>(type: T, data: EventData[T]): void {
    this.events.push(new DomainEvent(type, this.api, data));
  }

  find(version: string): ApiVersionEntity | undefined {
    return this.versions.find((item) => item.version === version);
  }

  get(version: string): ApiVersionEntity {
    const found = this.find(version);
    if (!found) throw new NotFoundException(`API "${this.api.id}" has no version "${version}"`);
    return found;
  }

  async addVersion(version: NewVersion): Promise<ApiVersionEntity> {
    if (this.find(version.version))
      throw new ConflictException(
        `API "${this.api.id}" already has a version "${version.version}": PUT …/versions/${encodeURIComponent(version.version)} adds a revision of it`,
      );
    const entity = await this.manager.save(
      this.manager.create(ApiVersionEntity, {
        apiId: this.api.id,
        version: version.version,
        lifecycle: version.lifecycle,
        kind: version.kind,
        revision: 1,
        sunsetDate: null,
        source: version.source ?? null,
        createdAt: new Date(),
        updatedAt: new Date(),
      }),
    );
    await this.manager.insert(ApiVersionRevisionEntity, { apiId: this.api.id, version: version.version, revision: 1, kind: version.kind, spec: version.spec });
    this.versions.push(entity);
    this.raise(this.creating ? 'api.created' : 'api.version.created', { version: version.version, lifecycle: version.lifecycle });
    return entity;
  }

  /**
   * A new spec for a version: its next revision; the oldest past `REVISIONS_KEPT` go. The same
   * text as the current revision's makes none (`undefined`): importing again changes nothing.
   */
  async addRevision(version: string, { kind, spec }: { kind: string; spec: string }): Promise<ApiVersionEntity | undefined> {
    const entity = this.get(version);
    const [current]: { same: boolean }[] = await this.manager.query(
      `SELECT spec = $4 AND kind = $5 AS same FROM platform_backend.api_version_revisions WHERE api_id = $1 AND version = $2 AND revision = $3`,
      [this.api.id, version, entity.revision, spec, kind],
    );
    if (current?.same) return undefined;
    if (this.api.source?.version === version) this.api.source = { ...this.api.source, sha256: sha256(spec) };
    // A version's file is known by its text's hash: a revision sent by hand no longer is the file's, so the next import of the tree sends the file again.
    if (entity.source) entity.source = { ...entity.source, sha256: sha256(spec) };
    entity.revision += 1;
    entity.kind = kind;
    entity.updatedAt = new Date();
    await this.manager.update(
      ApiVersionEntity,
      { apiId: this.api.id, version },
      { revision: entity.revision, kind, source: entity.source, updatedAt: () => 'now()' },
    );
    await this.manager.insert(ApiVersionRevisionEntity, { apiId: this.api.id, version, revision: entity.revision, kind, spec });
    await this.manager.query(`DELETE FROM platform_backend.api_version_revisions WHERE api_id = $1 AND version = $2 AND revision <= $3`, [
      this.api.id,
      version,
      entity.revision - REVISIONS_KEPT,
    ]);
    this.raise('api.version.revised', { version, revision: entity.revision });
    return entity;
  }

  /**
   * A version's stage. Retiring one that consumers use is a 409 naming them unless `force`; a
   * new stage is `api.lifecycle.changed`, naming them. Answers the version's consumers, to tell.
   */
  async setStage(version: string, stage: { lifecycle: LifecycleStage; sunsetDate: string | null }, force = false): Promise<Consumer[]> {
    const entity = this.get(version);
    const from = entity.lifecycle;
    const users = await this.consumersOf(version);
    if (stage.lifecycle === 'retired' && from !== 'retired' && !force) assertUnused(`Version "${version}" of API "${this.api.id}"`, users, 'retire');
    Object.assign(entity, stage);
    await this.manager.update(ApiVersionEntity, { apiId: this.api.id, version }, { ...stage, updatedAt: () => 'now()' });
    if (from !== stage.lifecycle)
      this.raise('api.lifecycle.changed', {
        version,
        from,
        to: stage.lifecycle,
        ...(stage.sunsetDate ? { sunsetDate: stage.sunsetDate } : {}),
        ...toldConsumers(users),
      });
    return users;
  }

  /** Renames a version, its revisions with it (the legacy `PUT /apis/:apiId` with another `version`). */
  async rename(version: string, to: string): Promise<void> {
    if (version === to) return;
    if (this.find(to)) throw new ConflictException(`API "${this.api.id}" already has a version "${to}"`);
    this.get(version).version = to;
    if (this.api.source?.version === version) this.api.source = { ...this.api.source, version: to };
    await this.manager.update(ApiVersionEntity, { apiId: this.api.id, version }, { version: to, updatedAt: () => 'now()' });
    // Its consumers use it under its new name.
    await this.consumers.renameVersion(this.manager, this.api.id, version, to);
  }

  /**
   * Deletes a version: one that consumers use is a 409 naming them unless `force`; then
   * `api.version.deleted` names them, and those that named it go with it.
   */
  async deleteVersion(version: string, force = false): Promise<void> {
    this.get(version);
    if (this.versions.length === 1) throw new ConflictException(`"${version}" is the only version of API "${this.api.id}": delete the API instead`);
    const users = await this.consumersOf(version);
    if (!force) assertUnused(`Version "${version}" of API "${this.api.id}"`, users, 'delete');
    await this.manager.delete(ApiVersionEntity, { apiId: this.api.id, version });
    this.versions = this.versions.filter((item) => item.version !== version);
    await this.consumers.removeOfVersion(this.manager, this.api.id, version);
    this.raise('api.version.deleted', { version, ...toldConsumers(users) });
  }

  /** Where the spec comes from (`null`: nowhere the platform knows of); saved with the change. */
  setSource(source: ApiSource | null): void {
    this.api.source = source;
  }

  /** The file of a tree a version is read from (`null`: none). */
  async setVersionSource(version: string, source: VersionSource | null): Promise<void> {
    const entity = this.get(version);
    entity.source = source;
    await this.manager.update(ApiVersionEntity, { apiId: this.api.id, version }, { source });
  }

  /** The name must not be another live API's in the org. */
  async setDetails(details: ApiDetails): Promise<void> {
    if (details.name.toLowerCase() !== this.api.name.toLowerCase()) await assertNameFree(this.manager, details.orgId, details.name, this.api.id);
    Object.assign(this.api, details);
  }
}

/**
 * The SQL of an API's versions and their revisions. Every change runs in one transaction that
 * locks the API row, and ends by bringing the row's search projection (the recommended version's
 * name, kind and stage) up to date: `revision` goes up only when something search holds changed,
 * so only then is the API indexed again.
 */
@Injectable()
export class ApiVersionsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly consumers: ConsumersRepository,
    private readonly outbox: EventOutbox,
  ) {}

  /** A new API and its first version; 409 when a live API of the org has that name. */
  async createApi(details: ApiDetails, first: NewVersion, source: ApiSource | null = null): Promise<{ api: ApiEntity; versions: ApiVersionEntity[] }> {
    const created = await this.dataSource.transaction(async (manager) => {
      await assertNameFree(manager, details.orgId, details.name);
      const api = await manager.save(
        manager.create(ApiEntity, { ...details, version: first.version, kind: first.kind, lifecycle: first.lifecycle, sunsetDate: null, source }),
      );
      const change = new VersionsChange(manager, api, [], this.consumers, true);
      await change.addVersion(first);
      await this.project(manager, change, false);
      await this.outbox.raise(manager, change.events);
      return { api: change.api, versions: change.versions };
    });
    this.outbox.committed();
    return created;
  }

  /**
   * Runs `work` on the API's versions in one transaction, the API row locked (one change of an
   * API at a time, across replicas), then updates its search projection. `reindexed` says whether
   * search must see the change (a new revision of the API was made).
   */
  async change<T>(
    apiId: string,
    work: (change: VersionsChange) => Promise<T>,
  ): Promise<{ api: ApiEntity; versions: ApiVersionEntity[]; reindexed: boolean; result: T }> {
    const changed = await this.dataSource.transaction(async (manager) => {
      const api = await manager
        .getRepository(ApiEntity)
        .createQueryBuilder('api')
        .setLock('pessimistic_write')
        .where(`api.id = :apiId AND ${liveApi('api')}`, { apiId })
        .getOne();
      if (!api) throw new NotFoundException(`API "${apiId}" not found`);
      const versions = await manager.findBy(ApiVersionEntity, { apiId });
      const change = new VersionsChange(manager, api, versions, this.consumers);
      const before = searchView(api, versions);
      const result = await work(change);
      const reindexed = searchView(change.api, change.versions) !== before;
      await this.project(manager, change, reindexed);
      await this.outbox.raise(manager, change.events);
      return { api: change.api, versions: change.versions, reindexed, result, events: change.events.length };
    });
    if (changed.events > 0) this.outbox.committed();
    return changed;
  }

  /** Live APIs imported from a URL whose last fetch is older than `olderThanMs`, the longest unfetched first (`ApiSource.fetchedAt`). */
  async urlSourcesDue(olderThanMs: number, limit: number): Promise<ApiEntity[]> {
    return this.dataSource
      .getRepository(ApiEntity)
      .createQueryBuilder('api')
      .where(`${liveApi('api')} AND api.source ? 'url'`)
      .andWhere(`coalesce((api.source ->> 'fetchedAt')::timestamptz, '-infinity') <= now() - make_interval(secs => :seconds)`, { seconds: olderThanMs / 1000 })
      .orderBy(`api.source ->> 'fetchedAt'`, 'ASC', 'NULLS FIRST')
      .limit(limit)
      .getMany();
  }

  /**
   * Deprecated versions of live APIs whose sunset date is `days` away or less and not noticed for
   * that date yet, the soonest first, locked for this transaction (a replica's round skips them).
   */
  async dueSunsets(manager: EntityManager, days: number, limit: number): Promise<DueSunset[]> {
    return manager.query(
      `SELECT a.id AS api_id, a.org_id, a.name, a.team_name, a.version AS recommended, v.version, v.sunset_date::text AS sunset_date,
              (v.sunset_date - current_date) AS days_left
         FROM platform_backend.api_versions v
         JOIN platform_backend.apis a ON a.id = v.api_id AND ${liveApi('a')}
        WHERE v.lifecycle = 'deprecated' AND v.sunset_date IS NOT NULL AND v.sunset_date >= current_date
          AND v.sunset_date <= current_date + $1::int
          AND v.sunset_notified IS DISTINCT FROM v.sunset_date::text
        ORDER BY v.sunset_date
        LIMIT $2
        FOR UPDATE OF v SKIP LOCKED`,
      [days, limit],
    );
  }

  /** `api.sunset.approaching` went for the version's sunset date: a new date is noticed again. */
  async markSunsetNoticed(manager: EntityManager, apiId: string, version: string): Promise<void> {
    await manager.query(`UPDATE platform_backend.api_versions SET sunset_notified = sunset_date::text WHERE api_id = $1 AND version = $2`, [apiId, version]);
  }

  /** Each API's versions, newest release first. */
  async versionsOf(apiIds: string[]): Promise<Map<string, ApiVersionEntity[]>> {
    const rows = apiIds.length ? await this.dataSource.getRepository(ApiVersionEntity).findBy({ apiId: In(apiIds) }) : [];
    const byApi = new Map<string, ApiVersionEntity[]>(apiIds.map((id) => [id, []]));
    for (const row of rows) byApi.get(row.apiId)?.push(row);
    for (const [id, versions] of byApi) byApi.set(id, inReleaseOrder(versions));
    return byApi;
  }

  /** One version of an API, if it has one of that name. */
  async version(apiId: string, version: string): Promise<ApiVersionEntity | undefined> {
    return (await this.dataSource.getRepository(ApiVersionEntity).findOneBy({ apiId, version })) ?? undefined;
  }

  /** A kept revision of a version (its current one when `revision` is absent). */
  async revision(apiId: string, version: string, revision?: number): Promise<ApiVersionRevisionEntity | undefined> {
    const which = revision ?? (await this.version(apiId, version))?.revision;
    if (which === undefined) return undefined;
    return (await this.dataSource.getRepository(ApiVersionRevisionEntity).findOneBy({ apiId, version, revision: which })) ?? undefined;
  }

  /** The lint summaries of these versions' current revisions (those linted so far). */
  async lintSummaries(versions: ApiVersionEntity[]): Promise<Map<string, LintReport['summary']>> {
    if (versions.length === 0) return new Map();
    const rows: { version: string; summary: LintReport['summary'] }[] = await this.dataSource.query(
      `SELECT r.version, r.lint -> 'summary' AS summary FROM platform_backend.api_version_revisions r
       JOIN unnest($2::text[], $3::int[]) AS v(version, revision) ON v.version = r.version AND v.revision = r.revision
       WHERE r.api_id = $1 AND r.lint IS NOT NULL`,
      [versions[0].apiId, versions.map((item) => item.version), versions.map((item) => item.revision)],
    );
    return new Map(rows.map((row) => [row.version, row.summary]));
  }

  async saveLint(apiId: string, version: string, revision: number, lint: LintReport): Promise<void> {
    await this.dataSource.getRepository(ApiVersionRevisionEntity).update({ apiId, version, revision }, { lint });
  }

  /** What the index job of the API's current revision carries beside its details: the recommended version's spec, and the versions a card lists. */
  async forIndex(api: ApiEntity): Promise<{ spec: string; versions: VersionSummary[] } | undefined> {
    const versions = (await this.versionsOf([api.id])).get(api.id) ?? [];
    const recommended = versions.find((item) => item.version === api.version);
    const current = recommended && (await this.revision(api.id, recommended.version, recommended.revision));
    if (!current) return undefined;
    return { spec: current.spec, versions: versions.filter((item) => item.lifecycle !== 'retired').map(versionSummary) };
  }

  private async project(manager: EntityManager, change: VersionsChange, reindexed: boolean): Promise<void> {
    const recommended = recommendedVersion(change.versions);
    Object.assign(change.api, {
      version: recommended.version,
      kind: recommended.kind,
      lifecycle: recommended.lifecycle,
      sunsetDate: recommended.lifecycle === 'deprecated' ? recommended.sunsetDate : null,
    });
    const { id, orgId, name, teamName, description, labels, version, kind, lifecycle, sunsetDate, source, catalog } = change.api;
    await manager
      .createQueryBuilder()
      .update(ApiEntity)
      .set({
        orgId,
        name,
        teamName,
        description,
        labels,
        version,
        kind,
        lifecycle,
        sunsetDate,
        source,
        catalog,
        ...(reindexed ? { revision: () => 'revision + 1' } : {}),
      })
      .where('id = :id', { id })
      .execute();
    Object.assign(change.api, await manager.findOneByOrFail(ApiEntity, { id }));
  }
}

/** SHA-256 (hex) of a spec text, as `ApiSource.sha256`. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Everything an index job of the API carries: when it changes, the API is indexed again. */
function searchView(api: ApiEntity, versions: ApiVersionEntity[]): string {
  const recommended = recommendedVersion(versions);
  return JSON.stringify([
    api.name,
    api.teamName,
    api.description,
    api.labels,
    recommended.version,
    recommended.revision,
    inReleaseOrder(versions).map((item) => [item.version, item.lifecycle, item.sunsetDate]),
  ]);
}

/**
 * 409 when a live API of the org has this name (in any case). The name is locked for the rest of
 * the transaction, so two registrations of one new name cannot both pass.
 */
async function assertNameFree(manager: EntityManager, orgId: string, name: string, exceptApiId?: string): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`api-name:${orgId}:${name.toLowerCase()}`]);
  const [taken]: { id: string }[] = await manager.query(
    `SELECT id FROM platform_backend.apis WHERE org_id = $1 AND lower(name) = lower($2) AND ${liveApi()} AND id <> coalesce($3::uuid, '00000000-0000-0000-0000-000000000000') LIMIT 1`,
    [orgId, name, exceptApiId ?? null],
  );
  if (taken) {
    throw new ConflictException(
      `An API named "${name}" already exists in org "${orgId}" (apiId ${taken.id}): add a version to it with POST /api-management/apis/${taken.id}/versions`,
    );
  }
}
