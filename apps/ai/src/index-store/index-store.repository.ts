import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pgvector from 'pgvector';
import { DataSource, type EntityManager } from 'typeorm';
import { type DeleteApiJob, DEFAULT_LIFECYCLE, type IndexApiJob } from '#contracts';
import { EmbeddingModelsRepository } from '../embedding-models/embedding-models.repository.js';
import { ApiSpecsRepository } from './api-specs.repository.js';
import { apiNotDeleted } from '../scope/live.js';
import { type ChunkOwner, countWords, type EmbeddedChunk, insertChunks, removeLiveChunks } from './chunk-rows.js';

/** An API's chunks embedded by one model. */
export interface ModelChunks {
  model: string;
  chunks: EmbeddedChunk[];
}

/**
 * Chunks staged per transaction: each costs an HNSW insert (5–17 ms on PGlite, whose one session
 * every other query waits for), so a transaction holds it for a second at most.
 */
const STAGE_SLICE = 50;

/**
 * The SQL of everything the indexing worker writes: an API's chunks, their word statistics and the
 * status row that says which revision is live, with its kept spec copy (`ApiSpecsRepository`).
 * Each write first checks that its revision is still the newest one for the API, so a late or
 * repeated job can never overwrite newer work.
 */
@Injectable()
export class IndexStoreRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly models: EmbeddingModelsRepository,
    private readonly specs: ApiSpecsRepository,
  ) {}

  /** Keeps the spec copy and marks the revision IN_PROGRESS; false when a newer revision exists. */
  async beginRevision(job: IndexApiJob): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await this.specs.keep(manager, job);
      const rows: unknown[] = await manager.query(
        `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, status)
         VALUES ($1, $2, $3, 'IN_PROGRESS')
         ON CONFLICT (api_id) DO UPDATE
           SET revision = excluded.revision, status = 'IN_PROGRESS', error = NULL, updated_at = now()
           WHERE api_indexing_status.revision <= excluded.revision AND ${apiNotDeleted('api_indexing_status')}
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
   * Swaps the API's chunks for the new ones (one set per embedding model written): search sees the
   * old index or the new one, never a mix. The new rows are written first, in short transactions,
   * as a generation search does not see (`staging_generation`); one short transaction then deletes
   * the old rows, makes the new ones live and updates the word statistics, so no other query waits
   * long for the database. `kind`: the format that read the spec; `specDescription` is what the cards
   * show when the registration gave no description; `warnings`, what the index limits left out. Returns how many old chunk rows it
   * replaced, or `undefined` (leaving nothing behind) when the revision is stale.
   */
  async replaceChunks(
    job: IndexApiJob,
    embedded: ModelChunks[],
    { kind, specDescription, warnings }: { kind: string; specDescription?: string; warnings: string[] },
  ): Promise<number | undefined> {
    const generation = await this.beginStaging(job);
    if (generation === undefined) return undefined;
    for (const { model, chunks } of embedded) {
      for (let start = 0; start < chunks.length; start += STAGE_SLICE) {
        const staged = await this.dataSource.transaction(async (manager) => {
          if (!(await this.isStaging(manager, job, generation))) return false;
          await insertChunks(manager, job, model, chunks.slice(start, start + STAGE_SLICE), generation);
          return true;
        });
        if (!staged) return this.dropStaged(job.apiId, generation);
      }
    }
    const removed = await this.dataSource.transaction(async (manager) => {
      if (!(await this.isStaging(manager, job, generation))) return undefined;
      await this.models.assertActiveCovered(
        manager,
        embedded.map((set) => set.model),
      );
      const removed = await removeLiveChunks(manager, job.apiId, job.orgId);
      await manager.query(
        `UPDATE platform_ai.api_indexing_status
         SET status = 'COMPLETED', indexed_revision = $2, chunk_count = $3, warnings = $4, kind = $5, lifecycle = $6, staging_generation = NULL,
           indexed_at = now(), error = NULL, updated_at = now()
         WHERE api_id = $1`,
        [job.apiId, job.revision, embedded[0]?.chunks.length ?? 0, warnings.length > 0 ? warnings : null, kind, job.lifecycle ?? DEFAULT_LIFECYCLE],
      );
      await countWords(manager, job.apiId, job.orgId, +1);
      await this.specs.setSpecDescription(manager, job.apiId, job.revision, specDescription);
      await this.specs.dropOlder(manager, job.apiId, job.revision);
      return removed;
    });
    return removed ?? this.dropStaged(job.apiId, generation);
  }

  /**
   * A new generation for the revision's rows, if it is still the API's newest; rows an earlier,
   * interrupted attempt staged are deleted first.
   */
  private async beginStaging(job: IndexApiJob): Promise<string | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const [row]: { staging_generation: string | null }[] = await manager.query(
        `SELECT staging_generation FROM platform_ai.api_indexing_status WHERE api_id = $1 AND revision = $2 AND ${apiNotDeleted()} FOR UPDATE`,
        [job.apiId, job.revision],
      );
      if (!row) return undefined;
      if (row.staging_generation !== null) {
        await manager.query(`DELETE FROM platform_ai.api_chunks WHERE api_id = $1 AND generation = $2`, [job.apiId, row.staging_generation]);
      }
      const [{ generation }]: { generation: string }[] = await manager.query(`SELECT nextval('platform_ai.chunk_generations') AS generation`);
      await manager.query(`UPDATE platform_ai.api_indexing_status SET staging_generation = $2 WHERE api_id = $1`, [job.apiId, generation]);
      return generation;
    });
  }

  /** Whether the revision is still the API's newest and `generation` still its staging one (the row locked). */
  private async isStaging(manager: EntityManager, job: IndexApiJob, generation: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM platform_ai.api_indexing_status WHERE api_id = $1 AND revision = $2 AND ${apiNotDeleted()} AND staging_generation = $3 FOR UPDATE`,
      [job.apiId, job.revision, generation],
    );
    return rows.length > 0;
  }

  /** Deletes a staged generation that will not go live (a newer revision came, or the API was deleted). */
  private async dropStaged(apiId: string, generation: string): Promise<undefined> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`DELETE FROM platform_ai.api_chunks WHERE api_id = $1 AND generation = $2`, [apiId, generation]);
      await manager.query(`UPDATE platform_ai.api_indexing_status SET staging_generation = NULL WHERE api_id = $1 AND staging_generation = $2`, [
        apiId,
        generation,
      ]);
    });
    return undefined;
  }

  /**
   * Adds (or redoes) one model's chunks of the API's live revision during a model switch; the
   * other models' chunks stay. False, having written nothing, when that revision is no longer
   * live or the switch to the model was abandoned.
   */
  async addModelChunks(owner: ChunkOwner, embedded: ModelChunks): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const live: unknown[] = await manager.query(
        `SELECT 1 FROM platform_ai.api_indexing_status WHERE api_id = $1 AND indexed_revision = $2 AND ${apiNotDeleted()} FOR UPDATE`,
        [owner.apiId, owner.revision],
      );
      if (live.length === 0 || !(await this.models.isBuilding(manager, embedded.model))) return false;
      await countWords(manager, owner.apiId, owner.orgId, -1);
      await manager.query(`DELETE FROM platform_ai.api_chunks WHERE api_id = $1 AND model = $2`, [owner.apiId, embedded.model]);
      await insertChunks(manager, owner, embedded.model, embedded.chunks, null);
      await countWords(manager, owner.apiId, owner.orgId, +1);
      return true;
    });
  }

  /** Deletes one API's chunks of these models, if they are (still) retired; returns how many rows. */
  async removeModelChunks(apiId: string, orgId: string, models: string[]): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await countWords(manager, apiId, orgId, -1);
      const [, removed]: [unknown, number] = await manager.query(
        `DELETE FROM platform_ai.api_chunks WHERE api_id = $1 AND model = ANY($2)
           AND model IN (SELECT model FROM platform_ai.embedding_models WHERE state = 'retired')`,
        [apiId, models],
      );
      await countWords(manager, apiId, orgId, +1);
      return removed;
    });
  }

  /** APIs that still have chunks of these models. */
  async apisWithModels(models: string[]): Promise<{ apiId: string; orgId: string }[]> {
    return this.dataSource.query(`SELECT DISTINCT api_id AS "apiId", org_id AS "orgId" FROM platform_ai.api_chunks WHERE model = ANY($1)`, [models]);
  }

  /**
   * Records why this revision cannot be indexed; the previous index (if any) keeps serving. A
   * revision already COMPLETED stays so: a job can fail after its work committed (its BullMQ lock
   * lapsed before it could report), and every job starts by setting IN_PROGRESS.
   */
  async markFailed(apiId: string, revision: number, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE platform_ai.api_indexing_status SET status = 'FAILED', error = $3, updated_at = now()
       WHERE api_id = $1 AND revision = $2 AND ${apiNotDeleted()} AND status <> 'COMPLETED'`,
      [apiId, revision, reason.slice(0, 2000)],
    );
  }

  /**
   * Marks the API deleted at once, without waiting for its lease: a job indexing it now can no
   * longer stage or commit (`isStaging`), and search shows no card for it. `deleteApi` removes its chunks
   * once it holds the lease.
   */
  async markDeleted(job: DeleteApiJob): Promise<void> {
    await this.tombstone(this.dataSource.manager, job);
  }

  /** Removes an API from the index (returns how many chunks); the tombstone stops older jobs from bringing it back. */
  async deleteApi(job: DeleteApiJob): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const removed = await removeLiveChunks(manager, job.apiId, job.orgId);
      // And any staged by a job that will not finish.
      await manager.query(`DELETE FROM platform_ai.api_chunks WHERE api_id = $1`, [job.apiId]);
      await this.specs.deleteApi(manager, job.apiId);
      await this.tombstone(manager, job);
      await manager.query(`UPDATE platform_ai.api_indexing_status SET indexed_revision = NULL, chunk_count = 0, staging_generation = NULL WHERE api_id = $1`, [
        job.apiId,
      ]);
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
}
