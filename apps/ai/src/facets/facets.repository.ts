import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { READ_DATA_SOURCE } from '#database';
import { FACET_LIMIT, type FacetCount, SEARCH_LIMITS, type SearchFacets } from '#contracts';
import { liveApi, liveChunkOf } from '../scope/live.js';

/**
 * Teams of the revisions live in the index, as search's `teamNames` filter sees them (`lower`).
 * `mode()` names a group by its most common spelling.
 */
const TEAMS = `SELECT mode() WITHIN GROUP (ORDER BY p.team_name) AS name, count(*) AS "apiCount"
  FROM platform_ai.api_indexing_status s
  JOIN platform_ai.api_specs p ON p.api_id = s.api_id AND p.revision = s.indexed_revision
  WHERE s.org_id = ANY($1) AND ${liveApi('s')} AND btrim(coalesce(p.team_name, '')) <> ''
  GROUP BY lower(p.team_name)
  ORDER BY "apiCount" DESC, lower(p.team_name)
  LIMIT $2`;

/**
 * Operation tags of the live chunks, as search's `tags` filter sees them: an API counts once per
 * tag however many operations (or embedding models) carry it. A tag longer than a filter may name
 * is left out (indexing leaves them out since; an index made before may still hold some). Left out: a generation still being
 * staged, and the chunks of a deleted API, which are removed after its status says so.
 */
const TAGS = `SELECT mode() WITHIN GROUP (ORDER BY tag) AS name, count(DISTINCT api_id) AS "apiCount"
  FROM (
    SELECT DISTINCT c.api_id, t.tag
    FROM platform_ai.api_chunks c
    JOIN platform_ai.api_indexing_status s ON s.api_id = c.api_id
    CROSS JOIN LATERAL unnest(c.tags) AS t(tag)
    WHERE c.org_id = ANY($1) AND c.level = 'L2' AND ${liveApi('s')} AND ${liveChunkOf('c', 's')}
      AND btrim(t.tag) <> '' AND length(t.tag) <= $3
  ) tagged
  GROUP BY lower(tag)
  ORDER BY "apiCount" DESC, lower(tag)
  LIMIT $2`;

/** Kinds of the revisions live in the index, as search's `kinds` filter sees them. */
const KINDS = `SELECT s.kind AS name, count(*) AS "apiCount"
  FROM platform_ai.api_indexing_status s
  WHERE s.org_id = ANY($1) AND ${liveApi('s')}
  GROUP BY s.kind
  ORDER BY "apiCount" DESC, s.kind
  LIMIT $2`;

/** The SQL of search facets, read where search reads (the read replica, with `DATABASE_READ_URL`). */
@Injectable()
export class FacetsRepository {
  constructor(@Inject(READ_DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Teams, tags and kinds from one snapshot, as a search reads: an API deleted meanwhile leaves all or none. */
  facetsOf(orgIds: string[]): Promise<SearchFacets> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => ({
      teams: await count(manager, TEAMS, orgIds),
      tags: await count(manager, TAGS, orgIds, SEARCH_LIMITS.tagMaxChars),
      kinds: await count(manager, KINDS, orgIds),
    }));
  }
}

async function count(manager: EntityManager, sql: string, orgIds: string[], ...more: unknown[]): Promise<FacetCount[]> {
  const rows: { name: string; apiCount: string }[] = await manager.query(sql, [orgIds, FACET_LIMIT, ...more]);
  // count() is a bigint, which the driver hands over as text.
  return rows.map((row) => ({ name: row.name, apiCount: Number(row.apiCount) }));
}
