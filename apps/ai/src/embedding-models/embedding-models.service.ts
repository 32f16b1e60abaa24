import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { EmbeddingModelInfo, EmbeddingModelsStatus } from '#contracts';
import { type EmbeddingModelSpec, type EmbeddingProvider, EmbeddingProviders } from '#embeddings';
import { LIVE_ROW } from '../indexing/chunk-rows.js';

type ModelState = 'active' | 'building' | 'retired';

interface ModelRow {
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

/** How long a retired model's vectors stay, so searches begun just before the switch still find them. */
const RETIRED_GRACE_SECONDS = 10;

/**
 * Which embedding models the index holds, in the database so every process agrees: the `active`
 * one search uses, and while a switch is under way the `building` one that indexing fills as well.
 * Starting with another model configured begins a switch; the last API re-embedded makes the new
 * model active in the same transaction that checks nothing is missing.
 */
@Injectable()
export class EmbeddingModelsService implements OnModuleInit {
  private readonly logger = new Logger(EmbeddingModelsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly providers: EmbeddingProviders,
  ) {}

  /**
   * Registers the configured model: active in a new index; otherwise, unless it is active already,
   * the model to switch to. A switch to yet another model that was not finished is abandoned.
   */
  async onModuleInit(): Promise<void> {
    const configured = this.providers.configured;
    await this.dataSource.transaction(async (manager) => {
      // Processes starting together must not both register a model.
      await manager.query(`LOCK TABLE platform_ai.embedding_models IN SHARE ROW EXCLUSIVE MODE`);
      const [active]: { model: string }[] = await manager.query(`SELECT model FROM platform_ai.embedding_models WHERE state = 'active'`);
      if (active?.model === configured.modelId) {
        await manager.query(`UPDATE platform_ai.embedding_models SET state = 'retired', updated_at = now() WHERE state = 'building'`);
        return;
      }
      await manager.query(
        `UPDATE platform_ai.embedding_models SET state = 'retired', updated_at = now() WHERE state = 'building' AND model <> $1`,
        [configured.modelId],
      );
      const state: ModelState = active ? 'building' : 'active';
      await manager.query(
        `INSERT INTO platform_ai.embedding_models (model, spec, dimensions, state, activated_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $4 = 'active' THEN now() END)
         ON CONFLICT (model) DO UPDATE SET spec = excluded.spec, state = excluded.state, created_at = now(), updated_at = now()`,
        [configured.modelId, JSON.stringify(this.providers.configuredSpec), configured.dimensions, state],
      );
      if (active) this.logger.log(`Switching embedding model ${active.model} → ${configured.modelId}: search uses ${active.model} until every API is re-embedded`);
    });
  }

  /** The provider of the model search uses now. */
  async serving(manager: EntityManager = this.dataSource.manager): Promise<EmbeddingProvider> {
    const [row] = await this.rows(manager, ['active']);
    if (!row) throw new Error('No active embedding model: the AI app registers one when it starts');
    return this.providerFor(row);
  }

  /** The models an index write covers: the active one and, during a switch, the one being built. */
  async inUse(): Promise<{ active: EmbeddingProvider; building?: EmbeddingProvider }> {
    const rows = await this.rows(this.dataSource.manager, ['active', 'building']);
    const active = rows.find((row) => row.state === 'active');
    if (!active) throw new Error('No active embedding model: the AI app registers one when it starts');
    const building = rows.find((row) => row.state === 'building');
    return { active: this.providerFor(active), ...(building ? { building: this.providerFor(building) } : {}) };
  }

  /**
   * Inside an index write: fails when the active model is not among those written (a switch
   * completed after `inUse` was read), so the job is retried with the right model. Holds the
   * active model's row against a concurrent activation until the write commits. A write without
   * the model being built is fine: the switch re-embeds that API before it can complete.
   */
  async assertActiveCovered(manager: EntityManager, written: string[]): Promise<void> {
    const [active]: { model: string }[] = await manager.query(
      `SELECT model FROM platform_ai.embedding_models WHERE state = 'active' FOR SHARE`,
    );
    if (active && !written.includes(active.model)) throw new Error(`The embedding model changed to ${active.model} while indexing: retrying`);
  }

  /** Whether `model` is (still) the one being switched to. */
  async isBuilding(manager: EntityManager, model: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM platform_ai.embedding_models WHERE model = $1 AND state = 'building' FOR SHARE`,
      [model],
    );
    return rows.length > 0;
  }

  async building(): Promise<EmbeddingProvider | undefined> {
    const [row] = await this.rows(this.dataSource.manager, ['building']);
    return row ? this.providerFor(row) : undefined;
  }

  /** Indexed API revisions without the model's vectors (deleted and never-indexed APIs have none to make). */
  async missingApis(model: string, manager: EntityManager = this.dataSource.manager): Promise<MissingApi[]> {
    const rows: { api_id: string; indexed_revision: number }[] = await manager.query(
      `SELECT s.api_id, s.indexed_revision FROM platform_ai.api_indexing_status s
       WHERE NOT s.deleted AND s.indexed_revision IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM platform_ai.api_chunks c WHERE c.api_id = s.api_id AND c.model = $1 AND ${LIVE_ROW})
       ORDER BY s.api_id`,
      [model],
    );
    return rows.map((row) => ({ apiId: row.api_id, revision: row.indexed_revision }));
  }

  /** Makes `model` the one search uses once no indexed API lacks its vectors; false if some still do. */
  async activate(model: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [row]: { state: ModelState }[] = await manager.query(
        `SELECT state FROM platform_ai.embedding_models WHERE model = $1 FOR UPDATE`,
        [model],
      );
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

  /** Retired models whose vectors may now be deleted. */
  async retiredModels(): Promise<string[]> {
    const rows: { model: string }[] = await this.dataSource.query(
      `SELECT model FROM platform_ai.embedding_models
       WHERE state = 'retired' AND updated_at < now() - make_interval(secs => ${RETIRED_GRACE_SECONDS})`,
    );
    return rows.map((row) => row.model);
  }

  /** Drops a retired model from the list once its vectors are gone. */
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

  /** The active model, and the switch under way with its progress (failures only of the caller's orgs). */
  async status(callerOrgs: string[]): Promise<EmbeddingModelsStatus> {
    const rows = await this.rows(this.dataSource.manager, ['active', 'building']);
    const active = rows.find((row) => row.state === 'active');
    if (!active) throw new Error('No active embedding model: the AI app registers one when it starts');
    const building = rows.find((row) => row.state === 'building');
    const status: EmbeddingModelsStatus = { active: { ...info(active), ...(active.activated_at ? { activatedAt: active.activated_at.toISOString() } : {}) } };
    if (!building) return status;
    const [progress]: { total: string; done: string }[] = await this.dataSource.query(
      `SELECT count(*) AS total,
         count(*) FILTER (WHERE EXISTS (SELECT 1 FROM platform_ai.api_chunks c WHERE c.api_id = s.api_id AND c.model = $1)) AS done
       FROM platform_ai.api_indexing_status s WHERE NOT s.deleted AND s.indexed_revision IS NOT NULL`,
      [building.model],
    );
    const failures: { api_id: string; error: string }[] = await this.dataSource.query(
      `SELECT f.key AS api_id, f.value AS error
       FROM platform_ai.embedding_models m
       CROSS JOIN LATERAL jsonb_each_text(m.failures) f
       JOIN platform_ai.api_indexing_status s ON s.api_id::text = f.key
       WHERE m.model = $1 AND s.org_id = ANY($2) ORDER BY f.key LIMIT 100`,
      [building.model, callerOrgs],
    );
    status.building = {
      ...info(building),
      startedAt: building.created_at.toISOString(),
      total: Number(progress.total),
      done: Number(progress.done),
      failures: failures.map((row) => ({ apiId: row.api_id, error: row.error })),
    };
    return status;
  }

  private providerFor(row: ModelRow): EmbeddingProvider {
    return this.providers.forSpec(row.spec);
  }

  private rows(manager: EntityManager, states: ModelState[]): Promise<ModelRow[]> {
    return manager.query(
      `SELECT model, spec, dimensions, state, created_at, activated_at FROM platform_ai.embedding_models
       WHERE state = ANY($1) ORDER BY state`,
      [states],
    );
  }
}

function info(row: ModelRow): EmbeddingModelInfo {
  return { model: row.model, provider: row.spec.provider, dimensions: row.dimensions };
}
