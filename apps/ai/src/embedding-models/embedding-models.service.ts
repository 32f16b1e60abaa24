import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EmbeddingModelInfo, EmbeddingModelsStatus } from '#contracts';
import { type EmbeddingProvider, EmbeddingProviders } from '#embeddings';
import { EmbeddingModelsRepository, type MissingApi, type ModelRow } from './embedding-models.repository.js';

export type { MissingApi } from './embedding-models.repository.js';

/** How long a retired model's vectors stay, so searches begun just before the switch still find them. */
const RETIRED_GRACE_SECONDS = 10;
const MAX_FAILURES_LISTED = 100;

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
    private readonly repository: EmbeddingModelsRepository,
    private readonly providers: EmbeddingProviders,
  ) {}

  /** Registers the configured model (see `EmbeddingModelsRepository.register`). */
  async onModuleInit(): Promise<void> {
    const configured = this.providers.configured;
    const previous = await this.repository.register({ model: configured.modelId, spec: this.providers.configuredSpec, dimensions: configured.dimensions });
    if (previous) this.logger.log(`Switching embedding model ${previous} → ${configured.modelId}: search uses ${previous} until every API is re-embedded`);
  }

  /** The provider of the model search uses now. */
  async serving(manager?: EntityManager): Promise<EmbeddingProvider> {
    const [row] = await this.repository.rows(['active'], manager);
    if (!row) throw new Error('No active embedding model: the AI app registers one when it starts');
    return this.providerFor(row);
  }

  /** The models an index write covers: the active one and, during a switch, the one being built. */
  async inUse(): Promise<{ active: EmbeddingProvider; building?: EmbeddingProvider }> {
    const { active, building } = await this.activeAndBuilding();
    return { active: this.providerFor(active), ...(building ? { building: this.providerFor(building) } : {}) };
  }

  async building(): Promise<EmbeddingProvider | undefined> {
    const [row] = await this.repository.rows(['building']);
    return row ? this.providerFor(row) : undefined;
  }

  /** Indexed API revisions without the model's vectors. */
  missingApis(model: string): Promise<MissingApi[]> {
    return this.repository.missingApis(model);
  }

  /** Makes `model` the one search uses once no indexed API lacks its vectors; false if some still do. */
  activate(model: string): Promise<boolean> {
    return this.repository.activate(model);
  }

  /** Retired models whose vectors may now be deleted. */
  retiredModels(): Promise<string[]> {
    return this.repository.retiredSince(RETIRED_GRACE_SECONDS);
  }

  /** Drops a retired model from the list once its vectors are gone. */
  forget(model: string): Promise<void> {
    return this.repository.forget(model);
  }

  /** Remembers (or, with no error, forgets) why an API could not be re-embedded for the model. */
  recordFailure(model: string, apiId: string, error?: string): Promise<void> {
    return this.repository.recordFailure(model, apiId, error);
  }

  /** The active model, and the switch under way with its progress (failures only of the caller's orgs). */
  async status(callerOrgs: string[]): Promise<EmbeddingModelsStatus> {
    const { active, building } = await this.activeAndBuilding();
    const status: EmbeddingModelsStatus = { active: { ...info(active), ...(active.activated_at ? { activatedAt: active.activated_at.toISOString() } : {}) } };
    if (!building) return status;
    status.building = {
      ...info(building),
      startedAt: building.created_at.toISOString(),
      ...(await this.repository.progress(building.model)),
      failures: await this.repository.failures(building.model, callerOrgs, MAX_FAILURES_LISTED),
    };
    return status;
  }

  private async activeAndBuilding(): Promise<{ active: ModelRow; building?: ModelRow }> {
    const rows = await this.repository.rows(['active', 'building']);
    const active = rows.find((row) => row.state === 'active');
    if (!active) throw new Error('No active embedding model: the AI app registers one when it starts');
    return { active, building: rows.find((row) => row.state === 'building') };
  }

  private providerFor(row: ModelRow): EmbeddingProvider {
    return this.providers.forSpec(row.spec);
  }
}

function info(row: ModelRow): EmbeddingModelInfo {
  return { model: row.model, provider: row.spec.provider, dimensions: row.dimensions };
}
