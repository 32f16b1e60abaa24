import { Inject, Injectable, NotFoundException, type OnApplicationShutdown } from '@nestjs/common';
import type { AiConfig } from '#config';
import type { ApiOperationDetailResponse, ApiOperationsResponse, OperationSelector } from '#contracts';
import { type ParsedSpec, SPEC_FORMATS, type SpecFormats, SpecReadings } from '#api-specs';
import { AI_CONFIG } from '../ai.constants.js';
import { ApiSpecsRepository } from '../index-store/api-specs.repository.js';

/** Operation details of an API's live indexed revision, from the spec copy the index keeps (see `SpecReadings`). */
@Injectable()
export class OperationsService implements OnApplicationShutdown {
  private readonly readings: SpecReadings;

  constructor(
    @Inject(AI_CONFIG) config: AiConfig,
    private readonly specs: ApiSpecsRepository,
    @Inject(SPEC_FORMATS) formats: SpecFormats,
  ) {
    this.readings = new SpecReadings(formats, { timeoutMs: config.specTimeoutMs, maxChars: config.operationDetailMaxChars });
  }

  /** The overview carries the API's `kind` and its document's `format`; without its operations when the caller only wants the rest (an MCP get_operation). */
  async overview(apiId: string, orgIds: string[], withOperations = true): Promise<ApiOperationsResponse> {
    const { revision, spec } = await this.liveSpec(apiId, orgIds);
    return { apiId, revision, ...spec.overview, ...(withOperations ? {} : { operations: [] }) };
  }

  async detail(apiId: string, orgIds: string[], selector: OperationSelector): Promise<ApiOperationDetailResponse> {
    const { revision, spec } = await this.liveSpec(apiId, orgIds);
    const operation = this.readings.detail(spec, selector);
    if (!operation) {
      const named = selector.operationId !== undefined ? `operationId "${selector.operationId}"` : `${selector.method} ${selector.path}`;
      throw new NotFoundException(`API "${apiId}" has no operation ${named} (indexed revision ${revision})`);
    }
    return { apiId, revision, ...operation };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.readings.close();
  }

  private async liveSpec(apiId: string, orgIds: string[]): Promise<{ revision: number; spec: ParsedSpec }> {
    const live = await this.specs.liveRevision(apiId, orgIds);
    if (!live.found) throw new NotFoundException(`API "${apiId}" not found`);
    const revision = live.indexedRevision;
    if (revision === null) throw new NotFoundException(`API "${apiId}" has not been indexed yet: its operations show once indexing completes`);
    // A newer revision went live, and this one's copy was dropped, between the two reads.
    const spec = await this.readings.read(
      `${apiId}:${revision}`,
      () => this.specs.storedSpec(apiId, revision),
      `API "${apiId}" is being re-indexed; try again in a moment`,
    );
    return { revision, spec };
  }
}
