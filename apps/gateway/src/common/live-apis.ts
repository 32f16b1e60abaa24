import { type FindOptionsWhere, IsNull } from 'typeorm';

/**
 * A live API in `platform_backend.apis` (alias `api`, none: the table's own columns): one not deleted.
 * A deleted API's row stays as a tombstone until the index has removed it; the partial indexes on
 * `apis` hold live rows only, under this same condition, so the planner can use them.
 */
export function liveApi(api?: string): string {
  return `${api ? `${api}.` : ''}deleted_at IS NULL`;
}

/** `liveApi` as TypeORM find options. */
export const LIVE_API = { deletedAt: IsNull() } satisfies FindOptionsWhere<{ deletedAt: Date | null }>;
