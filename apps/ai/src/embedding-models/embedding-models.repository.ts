import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { EmbeddingModelSpec } from '#embeddings';
import { liveApi, liveChunk } from '../scope/live.js';

export type ModelState = 'active' | 'building' | 'retired';

export interface ModelRow {
  model: string;
  spec: EmbeddingModelSpec;
  dimensions: number;
  state: ModelState;
  created_at: Date;
  activated_at: Date | null;
}

/** An indexed API revision that lacks a model's vectors. */
export interface MissingApi {
  apiId: string;
  revision: number;
}

/** A model to register: what identifies it, how to make its provider again, its vectors' size. */
export interface ConfiguredModel {
  model: string;
  spec: EmbeddingModelSpec;
  dimensions: number;
}

/** The SQL of `platform_ai.embedding_models`, and of what the index holds of each model. */
@Injectable()
export class EmbeddingModelsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Registers the configured model: active in a new index; otherwise, unless it is active already,
   * the model to switch to. A switch to yet another model that was not finished is abandoned.
   * Returns the model that was active before, when a switch begins.
   */
  register(configured: ConfiguredModel): Promise<string | undefined> {
    return this.dataSource.transaction(async (manager) => {
      // Processes starting together must not both register a model.
      await manager.query(`LOCK TABLE platform_ai.embedding_models IN SHARE ROW EXCLUSIVE MODE`);
      const [active]: { model: string }[] = await manager.query(`SELECT model FROM platform_ai.embedding_models WHERE state = 'active'`);
      if (active?.model === configured.model) {
        await manager.query(`UPDATE platform_ai.embedding_models SET state = 'retired', updated_at = now() WHERE state = 'building'`);
        return undefined;
      }
      await manager.query(`UPDATE platform_ai.embedding_models SET state = 'retired', updated_at = now() WHERE state = 'building' AND model <> $1`, [
        configured.model,
      ]);
      const state: ModelState = active ? 'building' : 'active';
      await manager.query(
        `INSERT INTO platform_ai.embedding_models (model, spec, dimensions, state, activated_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $4 = 'active' THEN now() END)
         ON CONFLICT (model) DO UPDATE SET spec = excluded.spec, state = excluded.state, created_at = now(), updated_at = now()`,
        [configured.model, JSON.stringify(configured.spec), configured.dimensions, state],
      );
      return active?.model;
    });
  }

  rows(states: ModelState[], manager: EntityManager = this.dataSource.manager): Promise<ModelRow[]> {
    return manager.query(
      `SELECT model, spec, dimensions, state, created_at, activated_at FROM platform_ai.embedding_models
       WHERE state = ANY($1) ORDER BY state`,
      [states],
    );
  }

  /**
   * Inside an index write: fails when the active model is not among those written (a switch
   * completed after the models in use were read), so the job is retried with the right model.
   * Holds the active model's row against a concurrent activation until the write commits. A
   * write without the model being built is fine: the switch re-embeds that API before it can complete.
   */
  async assertActiveCovered(manager: EntityManager, written: string[]): Promise<void> {
    const [active]: { model: string }[] = await manager.query(`SELECT model FROM platform_ai.embedding_models WHERE state = 'active' FOR SHARE`);
    if (active && !written.includes(active.model)) throw new Error(`The embedding model changed to ${active.model} while indexing: retrying`);
  }

  /** Whether `model` is (still) the one being switched to. */
  async isBuilding(manager: EntityManager, model: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM platform_ai.embedding_models WHERE model = $1 AND state = 'building' FOR SHARE`, [model]);
    return rows.length > 0;
  }

  /** Indexed API revisions without the model's vectors (deleted and never-indexed APIs have none to make). */
  async missingApis(model: string, manager: EntityManager = this.dataSource.manager): Promise<MissingApi[]> {
    const rows: { api_id: string; indexed_revision: number }[] = await manager.query(
      `SELECT s.api_id, s.indexed_revision FROM platform_ai.api_indexing_status s
       WHERE ${liveApi('s')}
         AND NOT EXISTS (SELECT 1 FROM platform_ai.api_chunks c WHERE c.api_id = s.api_id AND c.model = $1 AND ${liveChunk('c')})
       ORDER BY s.api_id`,
      [model],
    );
    return rows.map((row) => ({ apiId: row.api_id, revision: row.indexed_revision }));
  }

  /** Makes `model` the one search uses once no indexed API lacks its vectors; false if some still do. */
  activate(model: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [row]: { state: ModelState }[] = await manager.query(`SELECT state FROM platform_ai.embedding_models WHERE model = $1 FOR UPDATE`, [model]);
      if (row?.state !== 'building') return false;
      await manager.query(`SELECT 1 FROM platform_ai.embedding_models WHERE state = 'active' FOR UPDATE`);
      if ((await this.missingApis(model, manager)).length > 0) return false;
      await manager.query(`UPDATE platform_ai.embedding_models SET state = 'retired', updated_at = now() WHERE state = 'active'`);
      await manager.query(
        `UPDATE platform_ai.embedding_models SET state = 'active', activated_at = now(), failures = '{}', updated_at = now() WHERE model = $1`,
        [model],
      );
      return true;
    });
  }

  /** Models retired more than `graceSeconds` ago. */
  async retiredSince(graceSeconds: number): Promise<string[]> {
    const rows: { model: string }[] = await this.dataSource.query(
      `SELECT model FROM platform_ai.embedding_models
       WHERE state = 'retired' AND updated_at < now() - make_interval(secs => $1)`,
      [graceSeconds],
    );
    return rows.map((row) => row.model);
  }

  async forget(model: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM platform_ai.embedding_models WHERE model = $1 AND state = 'retired'`, [model]);
  }

  /** Remembers (or, with no error, forgets) why an API could not be re-embedded for the model. */
  async recordFailure(model: string, apiId: string, error?: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE platform_ai.embedding_models
       SET failures = CASE WHEN $3::text IS NULL THEN failures - $2::text ELSE failures || jsonb_build_object($2::text, $3::text) END
       WHERE model = $1`,
      [model, apiId, error?.slice(0, 2000) ?? null],
    );
  }

  /** Of the indexed APIs, how many have the model's vectors. */
  async progress(model: string): Promise<{ total: number; done: number }> {
    const [row]: { total: string; done: string }[] = await this.dataSource.query(
      `SELECT count(*) AS total,
         count(*) FILTER (WHERE EXISTS (SELECT 1 FROM platform_ai.api_chunks c WHERE c.api_id = s.api_id AND c.model = $1)) AS done
       FROM platform_ai.api_indexing_status s WHERE ${liveApi('s')}`,
      [model],
    );
    return { total: Number(row.total), done: Number(row.done) };
  }

  /** Why APIs of these orgs could not be re-embedded for the model (the first `limit`). */
  async failures(model: string, orgIds: string[], limit: number): Promise<{ apiId: string; error: string }[]> {
    return this.dataSource.query(
      `SELECT f.key AS "apiId", f.value AS error
       FROM platform_ai.embedding_models m
       CROSS JOIN LATERAL jsonb_each_text(m.failures) f
       JOIN platform_ai.api_indexing_status s ON s.api_id::text = f.key
       WHERE m.model = $1 AND s.org_id = ANY($2) ORDER BY f.key LIMIT $3`,
      [model, orgIds, limit],
    );
  }
}
