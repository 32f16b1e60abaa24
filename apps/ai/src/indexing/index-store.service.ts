import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pgvector from 'pgvector';
import { DataSource, type EntityManager } from 'typeorm';
import type { DeleteApiJob, IndexApiJob } from '#contracts';
import type { SpecChunk } from '#spec';

export interface EmbeddedChunk extends SpecChunk {
  contentHash: string;
  embedding: number[];
}

const INSERT_BATCH = 200;
const CHUNK_COLUMNS = [
  'api_id', 'org_id', 'revision', 'level', 'chunk_key', 'title', 'content', 'method', 'path',
  'operation_id', 'summary', 'tags', 'model', 'content_hash', 'embedding',
] as const;

/**
 * Everything the indexing worker writes. Each write first checks that its revision is still the
 * newest one for the API, so a late or repeated job can never overwrite newer work.
 */
@Injectable()
export class IndexStoreService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Keeps the spec copy and marks the revision IN_PROGRESS; false when a newer revision exists. */
  async beginRevision(job: IndexApiJob): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO platform_ai.api_specs (api_id, revision, org_id, name, version, team_name, description, spec)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (api_id, revision) DO NOTHING`,
        [job.apiId, job.revision, job.orgId, job.name, job.version, job.teamName ?? null, job.description ?? null, job.spec],
      );
      const rows: unknown[] = await manager.query(
        `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, status)
         VALUES ($1, $2, $3, 'IN_PROGRESS')
         ON CONFLICT (api_id) DO UPDATE
           SET revision = excluded.revision, status = 'IN_PROGRESS', error = NULL, updated_at = now()
           WHERE api_indexing_status.revision <= excluded.revision AND NOT api_indexing_status.deleted
         RETURNING api_id`,
        [job.apiId, job.orgId, job.revision],
      );
      return rows.length > 0;
    });
  }

  /** Stored vectors for these content hashes, so unchanged text is never embedded twice. */
  async findEmbeddings(model: string, hashes: string[]): Promise<Map<string, number[]>> {
    if (hashes.length === 0) return new Map();
    const rows: { content_hash: string; embedding: string }[] = await this.dataSource.query(
      `SELECT DISTINCT ON (content_hash) content_hash, embedding::text AS embedding
       FROM platform_ai.api_chunks WHERE model = $1 AND content_hash = ANY($2)`,
      [model, hashes],
    );
    return new Map(rows.map((row) => [row.content_hash, pgvector.fromSql(row.embedding) as number[]]));
  }

  /**
   * Swaps the API's chunks for the new ones in one transaction: search sees the old index or
   * the new one, never a mix. Returns how many old chunks it replaced, or `undefined` (having
   * written nothing) when the revision is stale.
   */
  async replaceChunks(job: IndexApiJob, model: string, chunks: EmbeddedChunk[]): Promise<number | undefined> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.isCurrent(manager, job.apiId, job.revision))) return undefined;
      const removed = await this.removeChunks(manager, job.apiId, job.orgId);
      for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
        await this.insertChunks(manager, job, model, chunks.slice(start, start + INSERT_BATCH));
      }
      await this.countWords(manager, job.apiId, job.orgId, +1);
      await manager.query(
        `UPDATE platform_ai.api_indexing_status
         SET status = 'COMPLETED', indexed_revision = $2, chunk_count = $3, indexed_at = now(), error = NULL, updated_at = now()
         WHERE api_id = $1`,
        [job.apiId, job.revision, chunks.length],
      );
      // Older spec copies are no longer needed once a newer one is live.
      await manager.query(`DELETE FROM platform_ai.api_specs WHERE api_id = $1 AND revision < $2`, [job.apiId, job.revision]);
      return removed;
    });
  }

  /** Records why this revision cannot be indexed; the previous index (if any) keeps serving. */
  async markFailed(apiId: string, revision: number, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE platform_ai.api_indexing_status SET status = 'FAILED', error = $3, updated_at = now()
       WHERE api_id = $1 AND revision = $2 AND NOT deleted`,
      [apiId, revision, reason.slice(0, 2000)],
    );
  }

  /** Removes an API from the index (returns how many chunks); the tombstone stops older jobs from bringing it back. */
  async deleteApi(job: DeleteApiJob): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const removed = await this.removeChunks(manager, job.apiId, job.orgId);
      await manager.query(`DELETE FROM platform_ai.api_specs WHERE api_id = $1`, [job.apiId]);
      await manager.query(
        `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, status, deleted)
         VALUES ($1, $2, $3, 'COMPLETED', true)
         ON CONFLICT (api_id) DO UPDATE
           SET revision = GREATEST(api_indexing_status.revision, excluded.revision), deleted = true,
               indexed_revision = NULL, chunk_count = 0, updated_at = now()`,
        [job.apiId, job.orgId, job.revision],
      );
      return removed;
    });
  }

  private async removeChunks(manager: EntityManager, apiId: string, orgId: string): Promise<number> {
    await this.countWords(manager, apiId, orgId, -1);
    const [, removed]: [unknown, number] = await manager.query(`DELETE FROM platform_ai.api_chunks WHERE api_id = $1`, [apiId]);
    return removed;
  }

  /** Adds (or takes away) the API's chunks to the org's lexicon counts; words in a fixed order, so concurrent workers never deadlock. */
  private async countWords(manager: EntityManager, apiId: string, orgId: string, sign: 1 | -1): Promise<void> {
    await manager.query(
      `INSERT INTO platform_ai.lexicon (org_id, word, chunk_count)
       SELECT $2, w.lexeme, $3 * count(*) FROM platform_ai.api_chunks c, unnest(c.search_vector) w
       WHERE c.api_id = $1 GROUP BY w.lexeme ORDER BY w.lexeme
       ON CONFLICT (org_id, word) DO UPDATE SET chunk_count = lexicon.chunk_count + excluded.chunk_count`,
      [apiId, orgId, sign],
    );
    if (sign < 0) await manager.query(`DELETE FROM platform_ai.lexicon WHERE org_id = $1 AND chunk_count <= 0`, [orgId]);
  }

  private async isCurrent(manager: EntityManager, apiId: string, revision: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM platform_ai.api_indexing_status WHERE api_id = $1 AND revision = $2 AND NOT deleted FOR UPDATE`,
      [apiId, revision],
    );
    return rows.length > 0;
  }

  private async insertChunks(manager: EntityManager, job: IndexApiJob, model: string, chunks: EmbeddedChunk[]): Promise<void> {
    const params: unknown[] = [];
    const tuples = chunks.map((chunk) => {
      const values = [
        job.apiId, job.orgId, job.revision, chunk.level, chunk.key, chunk.title, chunk.text, chunk.method ?? null,
        chunk.path ?? null, chunk.operationId ?? null, chunk.summary ?? null, chunk.tags, model, chunk.contentHash,
        pgvector.toSql(chunk.embedding),
      ];
      const placeholders = values.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      placeholders[placeholders.length - 1] += '::vector';
      return `(${placeholders.join(', ')})`;
    });
    await manager.query(`INSERT INTO platform_ai.api_chunks (${CHUNK_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, params);
  }
}
