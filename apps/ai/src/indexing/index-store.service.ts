import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pgvector from 'pgvector';
import { DataSource, type EntityManager } from 'typeorm';
import type { DeleteApiJob, IndexApiJob } from '#contracts';
import type { SpecChunk } from '#spec';
import { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';

export interface EmbeddedChunk extends SpecChunk {
  contentHash: string;
  embedding: number[];
}

/** An API's chunks embedded by one model. */
export interface ModelChunks {
  model: string;
  chunks: EmbeddedChunk[];
}

/** Where chunk rows belong. */
interface ChunkOwner {
  apiId: string;
  orgId: string;
  revision: number;
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
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly models: EmbeddingModelsService,
  ) {}

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

  /**
   * The kept spec copy of an API revision as an index job, if that revision is still the API's
   * `latest` (registered) or its `indexed` (live) one and the API is not deleted.
   */
  async keptSpec(apiId: string, revision: number, which: 'latest' | 'indexed'): Promise<IndexApiJob | undefined> {
    const [row]: { org_id: string; name: string; version: string; team_name: string | null; description: string | null; spec: string }[] =
      await this.dataSource.query(
        `SELECT p.org_id, p.name, p.version, p.team_name, p.description, p.spec
         FROM platform_ai.api_specs p JOIN platform_ai.api_indexing_status s ON s.api_id = p.api_id
         WHERE p.api_id = $1 AND p.revision = $2 AND s.${which === 'latest' ? 'revision' : 'indexed_revision'} = $2 AND NOT s.deleted`,
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
      spec: row.spec,
    };
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
   * Swaps the API's chunks for the new ones (one set per embedding model written) in one
   * transaction: search sees the old index or the new one, never a mix. `specDescription` is
   * what the cards show when the registration gave no description; `warnings`, what the index
   * limits left out. Returns how many old chunk rows it replaced, or `undefined` (having written
   * nothing) when the revision is stale.
   */
  async replaceChunks(
    job: IndexApiJob,
    embedded: ModelChunks[],
    { specDescription, warnings }: { specDescription?: string; warnings: string[] },
  ): Promise<number | undefined> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.isCurrent(manager, job.apiId, job.revision))) return undefined;
      await this.models.assertActiveCovered(manager, embedded.map((set) => set.model));
      const removed = await this.removeChunks(manager, job.apiId, job.orgId);
      for (const { model, chunks } of embedded) await this.insertChunks(manager, job, model, chunks);
      await this.countWords(manager, job.apiId, job.orgId, +1);
      await manager.query(
        `UPDATE platform_ai.api_indexing_status
         SET status = 'COMPLETED', indexed_revision = $2, chunk_count = $3, warnings = $4, indexed_at = now(), error = NULL, updated_at = now()
         WHERE api_id = $1`,
        [job.apiId, job.revision, embedded[0]?.chunks.length ?? 0, warnings.length > 0 ? warnings : null],
      );
      await manager.query(`UPDATE platform_ai.api_specs SET spec_description = $3 WHERE api_id = $1 AND revision = $2`, [
        job.apiId,
        job.revision,
        specDescription ?? null,
      ]);
      // Older spec copies are no longer needed once a newer one is live.
      await manager.query(`DELETE FROM platform_ai.api_specs WHERE api_id = $1 AND revision < $2`, [job.apiId, job.revision]);
      return removed;
    });
  }

  /**
   * Adds (or redoes) one model's chunks of the API's live revision during a model switch; the
   * other models' chunks stay. False, having written nothing, when that revision is no longer
   * live or the switch to the model was abandoned.
   */
  async addModelChunks(owner: ChunkOwner, embedded: ModelChunks): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const live: unknown[] = await manager.query(
        `SELECT 1 FROM platform_ai.api_indexing_status WHERE api_id = $1 AND indexed_revision = $2 AND NOT deleted FOR UPDATE`,
        [owner.apiId, owner.revision],
      );
      if (live.length === 0 || !(await this.models.isBuilding(manager, embedded.model))) return false;
      await this.countWords(manager, owner.apiId, owner.orgId, -1);
      await manager.query(`DELETE FROM platform_ai.api_chunks WHERE api_id = $1 AND model = $2`, [owner.apiId, embedded.model]);
      await this.insertChunks(manager, owner, embedded.model, embedded.chunks);
      await this.countWords(manager, owner.apiId, owner.orgId, +1);
      return true;
    });
  }

  /** Deletes one API's chunks of these models, if they are (still) retired; returns how many rows. */
  async removeModelChunks(apiId: string, orgId: string, models: string[]): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await this.countWords(manager, apiId, orgId, -1);
      const [, removed]: [unknown, number] = await manager.query(
        `DELETE FROM platform_ai.api_chunks WHERE api_id = $1 AND model = ANY($2)
           AND model IN (SELECT model FROM platform_ai.embedding_models WHERE state = 'retired')`,
        [apiId, models],
      );
      await this.countWords(manager, apiId, orgId, +1);
      return removed;
    });
  }

  /** APIs that still have chunks of these models. */
  async apisWithModels(models: string[]): Promise<{ apiId: string; orgId: string }[]> {
    return this.dataSource.query(
      `SELECT DISTINCT api_id AS "apiId", org_id AS "orgId" FROM platform_ai.api_chunks WHERE model = ANY($1)`,
      [models],
    );
  }

  /**
   * Records why this revision cannot be indexed; the previous index (if any) keeps serving. A
   * revision already COMPLETED stays so: a job can fail after its work committed (its BullMQ lock
   * lapsed before it could report), and every job starts by setting IN_PROGRESS.
   */
  async markFailed(apiId: string, revision: number, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE platform_ai.api_indexing_status SET status = 'FAILED', error = $3, updated_at = now()
       WHERE api_id = $1 AND revision = $2 AND NOT deleted AND status <> 'COMPLETED'`,
      [apiId, revision, reason.slice(0, 2000)],
    );
  }

  /**
   * Marks the API deleted at once, without waiting for its lease: a job indexing it now can no
   * longer commit (`isCurrent`), and search shows no card for it. `deleteApi` removes its chunks
   * once it holds the lease.
   */
  async markDeleted(job: DeleteApiJob): Promise<void> {
    await this.tombstone(this.dataSource.manager, job);
  }

  /** Removes an API from the index (returns how many chunks); the tombstone stops older jobs from bringing it back. */
  async deleteApi(job: DeleteApiJob): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const removed = await this.removeChunks(manager, job.apiId, job.orgId);
      await manager.query(`DELETE FROM platform_ai.api_specs WHERE api_id = $1`, [job.apiId]);
      await this.tombstone(manager, job);
      await manager.query(`UPDATE platform_ai.api_indexing_status SET indexed_revision = NULL, chunk_count = 0 WHERE api_id = $1`, [job.apiId]);
      return removed;
    });
  }

  private async tombstone(manager: EntityManager, job: DeleteApiJob): Promise<void> {
    await manager.query(
      `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, status, deleted)
       VALUES ($1, $2, $3, 'COMPLETED', true)
       ON CONFLICT (api_id) DO UPDATE
         SET revision = GREATEST(api_indexing_status.revision, excluded.revision), deleted = true, updated_at = now()`,
      [job.apiId, job.orgId, job.revision],
    );
  }

  private async removeChunks(manager: EntityManager, apiId: string, orgId: string): Promise<number> {
    await this.countWords(manager, apiId, orgId, -1);
    const [, removed]: [unknown, number] = await manager.query(`DELETE FROM platform_ai.api_chunks WHERE api_id = $1`, [apiId]);
    return removed;
  }

  /**
   * Adds (or takes away) the API's chunks to the org's word statistics: the lexicon's chunk
   * counts (words in a fixed order, so concurrent workers never deadlock) and the API's own word
   * counts for API-level keyword relevance. Every change to an API's chunks is wrapped in a
   * take-away before and an add after. A chunk held for two models (during a switch) counts once.
   */
  private async countWords(manager: EntityManager, apiId: string, orgId: string, sign: 1 | -1): Promise<void> {
    await manager.query(
      `INSERT INTO platform_ai.lexicon (org_id, word, chunk_count)
       SELECT $2, w.lexeme, $3 * count(DISTINCT c.chunk_key) FROM platform_ai.api_chunks c, unnest(c.search_vector) w
       WHERE c.api_id = $1 GROUP BY w.lexeme ORDER BY w.lexeme
       ON CONFLICT (org_id, word) DO UPDATE SET chunk_count = lexicon.chunk_count + excluded.chunk_count`,
      [apiId, orgId, sign],
    );
    if (sign < 0) {
      await manager.query(`DELETE FROM platform_ai.lexicon WHERE org_id = $1 AND chunk_count <= 0`, [orgId]);
      await manager.query(`DELETE FROM platform_ai.api_terms WHERE api_id = $1`, [apiId]);
      return;
    }
    // Words with a backslash, which search never asks for, are left out.
    await manager.query(
      `INSERT INTO platform_ai.api_terms (api_id, org_id, lexeme, occurrences)
       SELECT $1, $2, w.lexeme, sum(coalesce(array_length(w.positions, 1), 1))
       FROM (SELECT DISTINCT ON (chunk_key) search_vector FROM platform_ai.api_chunks WHERE api_id = $1) c, unnest(c.search_vector) w
       WHERE strpos(w.lexeme, E'\\\\') = 0
       GROUP BY w.lexeme`,
      [apiId, orgId],
    );
    await manager.query(
      `UPDATE platform_ai.api_indexing_status SET term_count = (SELECT sum(occurrences) FROM platform_ai.api_terms WHERE api_id = $1) WHERE api_id = $1`,
      [apiId],
    );
  }

  private async isCurrent(manager: EntityManager, apiId: string, revision: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM platform_ai.api_indexing_status WHERE api_id = $1 AND revision = $2 AND NOT deleted FOR UPDATE`,
      [apiId, revision],
    );
    return rows.length > 0;
  }

  private async insertChunks(manager: EntityManager, owner: ChunkOwner, model: string, chunks: EmbeddedChunk[]): Promise<void> {
    for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
      await this.insertBatch(manager, owner, model, chunks.slice(start, start + INSERT_BATCH));
    }
    // Keyword search's postings: each word's text rank in each chunk (title words count more,
    // long chunks less), computed once here instead of at every search. Deleting a chunk deletes
    // its postings. Words with a backslash, which search never asks for, are left out.
    await manager.query(
      `INSERT INTO platform_ai.chunk_terms (chunk_id, org_id, api_id, model, level, lexeme, rank)
       SELECT c.id, c.org_id, c.api_id, c.model, c.level, w.lexeme, ts_rank(c.search_vector, to_tsquery('simple', quote_literal(w.lexeme)), 1)
       FROM platform_ai.api_chunks c, unnest(c.search_vector) w
       WHERE c.api_id = $1 AND c.model = $2 AND strpos(w.lexeme, E'\\\\') = 0`,
      [owner.apiId, model],
    );
  }

  private async insertBatch(manager: EntityManager, owner: ChunkOwner, model: string, chunks: EmbeddedChunk[]): Promise<void> {
    const params: unknown[] = [];
    const tuples = chunks.map((chunk) => {
      const values = [
        owner.apiId, owner.orgId, owner.revision, chunk.level, chunk.key, chunk.title, chunk.text, chunk.method ?? null,
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
