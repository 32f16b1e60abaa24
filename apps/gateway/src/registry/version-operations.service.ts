import { Inject, Injectable, NotFoundException, type OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '#config';
import type { ApiOperationDetailResponse, ApiOperationsResponse, OperationSelector } from '#contracts';
import { type ParsedSpec, SPEC_FORMATS, type SpecFormats, SpecReadings } from '#api-specs';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import type { ApiEntity } from './api.entity.js';
import { ApiVersionsRepository } from './api-versions.repository.js';

/**
 * The operation-detail routes for a version search does not hold (`?version=` naming another
 * than the recommended one): read from the registry's own copy of that version's spec, as the AI
 * app reads the indexed one (`SpecReadings`).
 */
@Injectable()
export class VersionOperations implements OnApplicationShutdown {
  private readonly readings: SpecReadings;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(SPEC_FORMATS) formats: SpecFormats,
    private readonly versions: ApiVersionsRepository,
  ) {
    this.readings = new SpecReadings(formats, { timeoutMs: config.specTimeoutMs, maxChars: config.operationDetailMaxChars });
  }

  async overview(api: ApiEntity, version: string, withOperations: boolean): Promise<ApiOperationsResponse> {
    const { revision, spec } = await this.read(api, version);
    return { apiId: api.id, version, revision, ...spec.overview, ...(withOperations ? {} : { operations: [] }) };
  }

  async detail(api: ApiEntity, version: string, selector: OperationSelector): Promise<ApiOperationDetailResponse> {
    const { revision, spec } = await this.read(api, version);
    const operation = this.readings.detail(spec, selector);
    if (!operation) {
      const named = selector.operationId !== undefined ? `operationId "${selector.operationId}"` : `${selector.method} ${selector.path}`;
      throw new NotFoundException(`Version "${version}" of API "${api.id}" has no operation ${named}`);
    }
    return { apiId: api.id, version, revision, ...operation };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.readings.close();
  }

  private async read(api: ApiEntity, version: string): Promise<{ revision: number; spec: ParsedSpec }> {
    const current = await this.versions.version(api.id, version);
    if (!current) throw new NotFoundException(`API "${api.id}" has no version "${version}"`);
    const { revision } = current;
    const spec = await this.readings.read(
      `${api.id}\n${version}@${revision}`,
      async () => {
        const kept = await this.versions.revision(api.id, version, revision);
        return kept && { text: kept.spec, format: kept.kind };
      },
      `Version "${version}" of API "${api.id}" has a newer revision; try again`,
      api.orgId,
    );
    return { revision, spec };
  }
}
