import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { StoredSpec } from '#spec';

/** Where an API's live spec stands, as one of the caller's orgs sees it. */
export type LiveRevision = { found: false } | { found: true; indexedRevision: number | null };

/** The kept spec copy of an API's live (indexed) revision, for the operation-detail routes. */
@Injectable()
export class LiveSpecRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Another org's API, or a deleted one, is not found: nothing of it shows. */
  async liveRevision(apiId: string, orgIds: string[]): Promise<LiveRevision> {
    if (orgIds.length === 0) return { found: false };
    const [row]: { indexed_revision: number | null }[] = await this.dataSource.query(
      `SELECT indexed_revision FROM platform_ai.api_indexing_status WHERE api_id = $1 AND org_id = ANY($2::text[]) AND NOT deleted`,
      [apiId, orgIds],
    );
    return row ? { found: true, indexedRevision: row.indexed_revision } : { found: false };
  }

  /** The revision's spec text and the format it was registered as (none: detected when read). */
  async specText(apiId: string, revision: number): Promise<StoredSpec | undefined> {
    const [row]: { spec: string; format: string | null }[] = await this.dataSource.query(
      `SELECT spec, format FROM platform_ai.api_specs WHERE api_id = $1 AND revision = $2`,
      [apiId, revision],
    );
    return row && { text: row.spec, ...(row.format ? { format: row.format } : {}) };
  }
}
