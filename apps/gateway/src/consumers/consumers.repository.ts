import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CONSUMER_LIMITS, type ConsumedOperation, type ConsumerSource, type LifecycleStage } from '#contracts';
import { UUID } from '../common/ids.js';
import { liveApi } from '../common/live-apis.js';
import type { Consumer } from './consumer.js';

/** The API a consumer uses, as consumers need it. */
export interface ConsumedApiRow {
  id: string;
  orgId: string;
  name: string;
  teamName: string | null;
  /** The recommended version. */
  version: string;
}

/** What a consumer says of itself (`declare`). */
export interface ConsumerFields {
  name: string;
  teamName: string | null;
  contact: string | null;
  version: string | null;
  operations: ConsumedOperation[];
  source: ConsumerSource;
  entityRef?: string | null;
  tree?: string | null;
  /** A `catalog` consumer's descriptor file in its tree. */
  catalogPath?: string | null;
  declaredBy?: string | null;
}

/** One use in the org's dependency view. */
export interface DependencyRow {
  consumer: Consumer;
  apiName: string;
  version: string;
  lifecycle: LifecycleStage;
  sunsetDate: string | null;
}

const COLUMNS = `c.id, c.org_id, c.api_id, c.name, c.team_name, c.contact, c.version, c.operations, c.source, c.entity_ref, c.tree, c.catalog_path, c.declared_by, c.last_seen_at, c.created_at`;

/** The SQL of consumers: who uses which API, version and operations. */
@Injectable()
export class ConsumersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** A live API of one of these orgs; another org's API is indistinguishable from none. */
  async visibleApi(orgs: string[], apiId: string): Promise<ConsumedApiRow> {
    const [row]: { id: string; org_id: string; name: string; team_name: string | null; version: string }[] = UUID.test(apiId)
      ? await this.dataSource.query(
          `SELECT id, org_id, name, team_name, version FROM platform_backend.apis WHERE id = $1 AND org_id = ANY($2) AND ${liveApi()}`,
          [apiId, orgs],
        )
      : [];
    if (!row) throw new NotFoundException(`API "${apiId}" not found`);
    return { id: row.id, orgId: row.org_id, name: row.name, teamName: row.team_name, version: row.version };
  }

  async hasVersion(apiId: string, version: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM platform_backend.api_versions WHERE api_id = $1 AND version = $2`, [apiId, version]);
    return rows.length > 0;
  }

  /** The org's live APIs that Backstage entity refs name (in any case), by ref in lower case. */
  async apisByEntityRef(orgId: string, refs: string[]): Promise<Map<string, ConsumedApiRow>> {
    if (refs.length === 0) return new Map();
    const rows: { id: string; org_id: string; name: string; team_name: string | null; version: string; ref: string }[] = await this.dataSource.query(
      `SELECT id, org_id, name, team_name, version, lower(catalog ->> 'entityRef') AS ref FROM platform_backend.apis
        WHERE org_id = $1 AND ${liveApi()} AND lower(catalog ->> 'entityRef') = ANY($2)`,
      [orgId, refs.map((ref) => ref.toLowerCase())],
    );
    return new Map(rows.map((row) => [row.ref, { id: row.id, orgId: row.org_id, name: row.name, teamName: row.team_name, version: row.version }]));
  }

  /** Every consumer of an API, by name. */
  async ofApi(apiId: string, manager: EntityManager = this.dataSource.manager): Promise<Consumer[]> {
    return this.select(manager, `c.api_id = $1 ORDER BY lower(c.name), c.version NULLS FIRST, c.source`, [apiId]);
  }

  /** The consumers of a version: those that named it, and those that named none when it is the recommended one. */
  async ofVersion(apiId: string, version: string, recommended: boolean, manager: EntityManager = this.dataSource.manager): Promise<Consumer[]> {
    return this.select(manager, `c.api_id = $1 AND (c.version = $2 OR (c.version IS NULL AND $3)) ORDER BY lower(c.name), c.source`, [
      apiId,
      version,
      recommended,
    ]);
  }

  /** The consumer of this source, name (any case) and version, if there is one: the row a declaration or an observation updates. */
  async findNamed(apiId: string, source: ConsumerSource, name: string, version: string | null): Promise<Consumer | undefined> {
    const [found] = await this.select(
      this.dataSource.manager,
      `c.api_id = $1 AND c.source = $2 AND lower(c.name) = lower($3) AND coalesce(c.version, '') = coalesce($4, '')`,
      [apiId, source, name, version],
    );
    return found;
  }

  async find(apiId: string, consumerId: string): Promise<Consumer | undefined> {
    if (!UUID.test(consumerId)) return undefined;
    const [found] = await this.select(this.dataSource.manager, `c.api_id = $1 AND c.id = $2`, [apiId, consumerId]);
    return found;
  }

  async count(apiId: string, manager: EntityManager): Promise<number> {
    const [row]: { count: string }[] = await manager.query(`SELECT count(*) FROM platform_backend.consumers WHERE api_id = $1`, [apiId]);
    return Number(row.count);
  }

  /**
   * A consumer, new or declared again (same API, source, name in any case and version): its
   * details are replaced and it is seen now. `added`: it is new.
   */
  async upsert(manager: EntityManager, api: ConsumedApiRow, fields: ConsumerFields): Promise<{ consumer: Consumer; added: boolean }> {
    const rows: Record<string, unknown>[] = await manager.query(
      `INSERT INTO platform_backend.consumers AS c (org_id, api_id, name, team_name, contact, version, operations, source, entity_ref, tree, catalog_path, declared_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12)
       ON CONFLICT (api_id, source, lower(name), coalesce(version, ''), coalesce(tree, '')) DO UPDATE SET
         name = EXCLUDED.name, team_name = EXCLUDED.team_name, contact = EXCLUDED.contact, operations = EXCLUDED.operations,
         entity_ref = EXCLUDED.entity_ref, catalog_path = EXCLUDED.catalog_path, last_seen_at = now()
       RETURNING ${COLUMNS}, (xmax = 0) AS added`,
      [
        api.orgId,
        api.id,
        fields.name,
        fields.teamName,
        fields.contact,
        fields.version,
        JSON.stringify(fields.operations),
        fields.source,
        fields.entityRef ?? null,
        fields.tree ?? null,
        fields.catalogPath ?? null,
        fields.declaredBy ?? null,
      ],
    );
    return { consumer: fromRow(rows[0]), added: rows[0].added === true };
  }

  /**
   * A client seen calling an operation (or reading the API: no operation): it is recorded, the
   * operation added to those it calls (up to `CONSUMER_LIMITS.maxOperations`), and its time
   * updated. `added`: it was not known before.
   */
  async observe(
    manager: EntityManager,
    api: ConsumedApiRow,
    client: string,
    version: string | null,
    operation: ConsumedOperation | undefined,
  ): Promise<{ consumer: Consumer; added: boolean }> {
    const rows: Record<string, unknown>[] = await manager.query(
      `INSERT INTO platform_backend.consumers AS c (org_id, api_id, name, version, operations, source)
       VALUES ($1, $2, $3, $4, $5::jsonb, 'observed')
       ON CONFLICT (api_id, source, lower(name), coalesce(version, ''), coalesce(tree, '')) DO UPDATE SET
         operations = CASE WHEN c.operations @> EXCLUDED.operations OR jsonb_array_length(c.operations) >= $6
                           THEN c.operations ELSE c.operations || EXCLUDED.operations END,
         last_seen_at = now()
       RETURNING ${COLUMNS}, (xmax = 0) AS added`,
      [api.orgId, api.id, client, version, JSON.stringify(operation ? [operation] : []), CONSUMER_LIMITS.maxOperations],
    );
    return { consumer: fromRow(rows[0]), added: rows[0].added === true };
  }

  async remove(consumerId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM platform_backend.consumers WHERE id = $1`, [consumerId]);
  }

  /** A deleted version's consumers go with it (they were named in the 409 first, and  told: `api.version.deleted`). */
  async removeOfVersion(manager: EntityManager, apiId: string, version: string): Promise<void> {
    await manager.query(`DELETE FROM platform_backend.consumers WHERE api_id = $1 AND version = $2`, [apiId, version]);
  }

  async renameVersion(manager: EntityManager, apiId: string, version: string, to: string): Promise<void> {
    await manager.query(`UPDATE platform_backend.consumers SET version = $3 WHERE api_id = $1 AND version = $2`, [apiId, version, to]);
  }

  /** A tree's catalog consumers that are not in `kept` (by id) go, but for those of descriptors that could not be read (`spared`). */
  async pruneCatalog(manager: EntityManager, orgId: string, tree: string, kept: string[], spared: string[]): Promise<void> {
    await manager.query(
      `DELETE FROM platform_backend.consumers
        WHERE org_id = $1 AND tree = $2 AND source = 'catalog' AND NOT (id = ANY($3::uuid[])) AND NOT (coalesce(catalog_path, '') = ANY($4::text[]))`,
      [orgId, tree, kept, spared],
    );
  }

  /** The org's uses of live APIs' versions (a consumer without one uses the recommended version), in these stages when given. */
  async dependencies(orgId: string, stages: LifecycleStage[] | undefined): Promise<DependencyRow[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, a.name AS api_name, v.version AS used_version, v.lifecycle, v.sunset_date::text AS sunset_date
         FROM platform_backend.consumers c
         JOIN platform_backend.apis a ON a.id = c.api_id AND ${liveApi('a')}
         JOIN platform_backend.api_versions v ON v.api_id = c.api_id AND v.version = coalesce(c.version, a.version)
        WHERE c.org_id = $1 AND ($2::text[] IS NULL OR v.lifecycle = ANY($2))
        ORDER BY lower(c.name), lower(a.name), v.version
        LIMIT $3`,
      [orgId, stages?.length ? stages : null, CONSUMER_LIMITS.maxDependencyRows + 1],
    );
    return rows.map((row) => ({
      consumer: fromRow(row),
      apiName: row.api_name as string,
      version: row.used_version as string,
      lifecycle: row.lifecycle as LifecycleStage,
      sunsetDate: (row.sunset_date as string | null) ?? null,
    }));
  }

  /** APIs (of these orgs) whose consumers this person declared or whose team is one of `teams`: their notifications feed. */
  async consumedBy(orgs: string[], sub: string, teams: string[]): Promise<string[]> {
    const rows: { api_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT api_id FROM platform_backend.consumers
        WHERE org_id = ANY($1) AND (declared_by = $2 OR lower(team_name) = ANY($3))
        LIMIT 1000`,
      [orgs, sub, teams.map((team) => team.toLowerCase())],
    );
    return rows.map((row) => row.api_id);
  }

  private async select(manager: EntityManager, where: string, parameters: unknown[]): Promise<Consumer[]> {
    const rows: Record<string, unknown>[] = await manager.query(`SELECT ${COLUMNS} FROM platform_backend.consumers c WHERE ${where}`, parameters);
    return rows.map(fromRow);
  }
}

function fromRow(row: Record<string, unknown>): Consumer {
  return {
    id: row.id as string,
    orgId: row.org_id as string,
    apiId: row.api_id as string,
    name: row.name as string,
    teamName: (row.team_name as string | null) ?? null,
    contact: (row.contact as string | null) ?? null,
    version: (row.version as string | null) ?? null,
    operations: ((typeof row.operations === 'string' ? JSON.parse(row.operations) : row.operations) as ConsumedOperation[] | null) ?? [],
    source: row.source as ConsumerSource,
    entityRef: (row.entity_ref as string | null) ?? null,
    tree: (row.tree as string | null) ?? null,
    catalogPath: (row.catalog_path as string | null) ?? null,
    declaredBy: (row.declared_by as string | null) ?? null,
    lastSeenAt: new Date(row.last_seen_at as string),
    createdAt: new Date(row.created_at as string),
  };
}
