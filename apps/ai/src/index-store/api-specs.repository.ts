import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DEFAULT_LIFECYCLE, type IndexApiJob, type LifecycleStage, type VersionSummary } from '#contracts';
import type { StoredSpec } from '#api-specs';
import { apiNotDeleted } from '../scope/live.js';

/** Where an API's live spec stands, as one of the caller's orgs sees it. */
export type LiveRevision = { found: false } | { found: true; indexedRevision: number | null };

/**
 * The SQL of `platform_ai.api_specs`: the spec copy kept for each API revision (the registration's
 * facts, its text and the format it was registered as), from which admin re-indexes, model switches
 * and the operation-detail routes read it again without calling the registry.
 */
@Injectable()
export class ApiSpecsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Keeps the revision's copy (once: a repeated job keeps the first). */
  async keep(manager: EntityManager, job: IndexApiJob): Promise<void> {
    await manager.query(
      `INSERT INTO platform_ai.api_specs (api_id, revision, org_id, name, version, team_name, description, spec, format, labels, lifecycle, sunset_date, versions)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13::jsonb) ON CONFLICT (api_id, revision) DO NOTHING`,
      // A job of an older gateway has no labels (none), nor stage or versions (one, in production).
      [
        job.apiId,
        job.revision,
        job.orgId,
        job.name,
        job.version,
        job.teamName ?? null,
        job.description ?? null,
        job.spec,
        job.format ?? null,
        JSON.stringify(job.labels ?? {}),
        job.lifecycle ?? DEFAULT_LIFECYCLE,
        job.sunsetDate ?? null,
        JSON.stringify(job.versions ?? []),
      ],
    );
  }

  /**
   * The kept spec copy of an API revision as an index job, if that revision is still the API's
   * `latest` (registered) or its `indexed` (live) one and the API is not deleted.
   */
  async keptSpec(apiId: string, revision: number, which: 'latest' | 'indexed'): Promise<IndexApiJob | undefined> {
    const [row]: {
      org_id: string;
      name: string;
      version: string;
      team_name: string | null;
      description: string | null;
      spec: string;
      format: string | null;
      labels: Record<string, string>;
      lifecycle: LifecycleStage;
      sunset_date: string | null;
      versions: VersionSummary[];
    }[] = await this.dataSource.query(
      `SELECT p.org_id, p.name, p.version, p.team_name, p.description, p.spec, p.format, p.labels, p.lifecycle, p.sunset_date, p.versions
         FROM platform_ai.api_specs p JOIN platform_ai.api_indexing_status s ON s.api_id = p.api_id
         WHERE p.api_id = $1 AND p.revision = $2 AND s.${which === 'latest' ? 'revision' : 'indexed_revision'} = $2 AND ${apiNotDeleted('s')}`,
      [apiId, revision],
    );
    if (!row) return undefined;
    return {
      apiId,
      orgId: row.org_id,
      revision,
      name: row.name,
      version: row.version,
      teamName: row.team_name ?? undefined,
      description: row.description ?? undefined,
      labels: row.labels ?? {},
      spec: row.spec,
      ...(row.format ? { format: row.format } : {}),
      lifecycle: row.lifecycle,
      ...(row.sunset_date ? { sunsetDate: row.sunset_date } : {}),
      versions: row.versions,
    };
  }

  /** What the cards show when the registration gave no description. */
  async setSpecDescription(manager: EntityManager, apiId: string, revision: number, description: string | undefined): Promise<void> {
    await manager.query(`UPDATE platform_ai.api_specs SET spec_description = $3 WHERE api_id = $1 AND revision = $2`, [apiId, revision, description ?? null]);
  }

  /** Older spec copies are no longer needed once a newer one is live. */
  async dropOlder(manager: EntityManager, apiId: string, revision: number): Promise<void> {
    await manager.query(`DELETE FROM platform_ai.api_specs WHERE api_id = $1 AND revision < $2`, [apiId, revision]);
  }

  async deleteApi(manager: EntityManager, apiId: string): Promise<void> {
    await manager.query(`DELETE FROM platform_ai.api_specs WHERE api_id = $1`, [apiId]);
  }

  /** For the operation-detail routes: another org's API, or a deleted one, is not found: nothing of it shows. */
  async liveRevision(apiId: string, orgIds: string[]): Promise<LiveRevision> {
    if (orgIds.length === 0) return { found: false };
    const [row]: { indexed_revision: number | null }[] = await this.dataSource.query(
      `SELECT indexed_revision FROM platform_ai.api_indexing_status WHERE api_id = $1 AND org_id = ANY($2::text[]) AND ${apiNotDeleted()}`,
      [apiId, orgIds],
    );
    return row ? { found: true, indexedRevision: row.indexed_revision } : { found: false };
  }

  /** The revision's spec text and the format it was registered as (none: detected when read). */
  async storedSpec(apiId: string, revision: number): Promise<StoredSpec | undefined> {
    const [row]: { spec: string; format: string | null }[] = await this.dataSource.query(
      `SELECT spec, format FROM platform_ai.api_specs WHERE api_id = $1 AND revision = $2`,
      [apiId, revision],
    );
    return row && { text: row.spec, ...(row.format ? { format: row.format } : {}) };
  }
}
