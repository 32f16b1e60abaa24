import { posix } from 'node:path';
import { BadRequestException, ConflictException, HttpException, Injectable, Logger } from '@nestjs/common';
import { type ApiRecord, type ApiRefreshResult, type ApiSource, DEFAULT_LIFECYCLE, REGISTRATION_LIMITS } from '#contracts';
import { errorSummary } from '#api-specs';
import { assertOrgMember } from '../auth/org-access.js';
import type { Caller } from '../auth/caller.js';
import type { ApiEntity } from '../registry/api.entity.js';
import { ApiVersionsRepository, sha256 } from '../registry/api-versions.repository.js';
import { ApiVersionsService } from '../registry/api-versions.service.js';
import { RegistryService } from '../registry/registry.service.js';
import { SpecWork } from '../registry/spec-work.service.js';
import type { ImportBodyDto } from './import.dto.js';
import { ImportSlots } from './import-slots.js';
import { httpUrl, SpecFetcher } from './spec-fetcher.js';

/**
 * APIs imported from a URL: the first import registers the API with its `source`; a refresh
 * fetches it again (conditionally) and makes a new revision of the source's version only when the
 * text changed, through the versions' revise path (so with its change notes). A failed refresh
 * keeps the last good spec and says why on `source.lastError`.
 */
@Injectable()
export class ImportService {
  private readonly logger = new Logger(ImportService.name);

  constructor(
    private readonly registry: RegistryService,
    private readonly versions: ApiVersionsService,
    private readonly repository: ApiVersionsRepository,
    private readonly specs: SpecWork,
    private readonly fetcher: SpecFetcher,
    private readonly slots: ImportSlots,
  ) {}

  /** `cancel`: the client went away (the fetch stops; a spec already being checked is checked and stored). */
  async import(caller: Caller, body: ImportBodyDto, cancel?: AbortSignal): Promise<ApiRecord> {
    assertOrgMember(caller, body.orgId);
    const url = httpUrl(body.url.trim());
    // A 429 or 503 before a byte is fetched; held until the spec is checked and stored, the text in memory until then.
    const slot = this.slots.acquire(caller.sub);
    try {
      return await this.importFrom(url, body, cancel);
    } finally {
      slot.release();
    }
  }

  private async importFrom(url: URL, body: ImportBodyDto, cancel?: AbortSignal): Promise<ApiRecord> {
    const fetched = await this.fetcher.fetch(url.href, {}, cancel);
    // Without validators sent, a server answers 200.
    if (fetched.notModified) throw new BadRequestException('The URL answered 304 Not Modified to a request without validators');
    const spec = await this.specs.check(body.orgId, { spec: fetched.text, format: body.format });
    const name = (body.name?.trim() || spec.title || fileName(url)).slice(0, REGISTRATION_LIMITS.nameMaxChars);
    if (!name) throw new BadRequestException('name is required: the spec has no info.title and the URL no file name');
    const version = (body.version?.trim() || spec.version || '1').slice(0, REGISTRATION_LIMITS.versionMaxChars);
    const source: ApiSource = {
      url: url.href,
      version,
      sha256: sha256(spec.text),
      ...(fetched.etag ? { etag: fetched.etag } : {}),
      ...(fetched.lastModified ? { lastModified: fetched.lastModified } : {}),
      fetchedAt: new Date().toISOString(),
    };
    const details = { orgId: body.orgId, name, teamName: body.teamName?.trim() || null, description: null, labels: {} };
    return this.registry.register(details, { version, lifecycle: body.lifecycle ?? DEFAULT_LIFECYCLE, kind: spec.kind, spec: spec.text }, source);
  }

  async refresh(caller: Caller, apiId: string): Promise<ApiRefreshResult> {
    const api = await this.registry.findVisible(caller, apiId);
    if (!api.source?.url) throw new ConflictException(`API "${apiId}" was not imported from a URL: there is nothing to refresh it from`);
    const slot = this.slots.acquire(caller.sub);
    try {
      return await this.refreshApi(api);
    } finally {
      slot.release();
    }
  }

  /** Fetches an API's URL again (in a slot of `ImportSlots` its caller holds): `unchanged` (304, or the same text), `updated` (one new revision) or `failed` (the last good spec stays). */
  async refreshApi(api: ApiEntity): Promise<ApiRefreshResult> {
    const source = api.source!;
    // A URL import's source always names the version it feeds.
    const version = source.version!;
    const fetchedAt = new Date().toISOString();
    try {
      const fetched = await this.fetcher.fetch(source.url!, source);
      if (fetched.notModified || sha256(fetched.text) === source.sha256) {
        await this.saveSource(api.id, { fetchedAt, ...(fetched.notModified ? {} : { etag: fetched.etag, lastModified: fetched.lastModified }) });
        return { outcome: 'unchanged', apiId: api.id };
      }
      const current = await this.repository.version(api.id, version);
      const spec = await this.specs.check(api.orgId, { spec: fetched.text, format: current?.kind });
      const { record, revised } = await this.versions.reviseChecked(api, version, spec);
      await this.saveSource(api.id, { fetchedAt, etag: fetched.etag, lastModified: fetched.lastModified, sha256: sha256(spec.text) });
      if (!revised) return { outcome: 'unchanged', apiId: api.id };
      return {
        outcome: 'updated',
        apiId: api.id,
        revision: record.revision,
        ...(record.warnings ? { warnings: record.warnings } : {}),
        ...(record.changes ? { changes: record.changes } : {}),
      };
    } catch (error) {
      if (!(error instanceof HttpException)) this.logger.error(`Refresh of API ${api.id} failed: ${errorSummary(error)}`);
      const why = error instanceof HttpException ? error.message : 'An unexpected error occurred; it has been logged';
      await this.saveSource(api.id, { fetchedAt, lastError: why });
      return { outcome: 'failed', apiId: api.id, error: why };
    }
  }

  /** Records a fetch on the API's URL source (a good one clears `lastError`); nothing search holds changes. */
  private async saveSource(apiId: string, fetch: Pick<ApiSource, 'fetchedAt' | 'etag' | 'lastModified' | 'lastError' | 'sha256'>): Promise<void> {
    await this.repository.change(apiId, async (change) => {
      // Imported again from elsewhere meanwhile: not this fetch's to record.
      if (!change.api.source?.url) return;
      // Told once per failure, not at every refresh that fails the same way.
      if (fetch.lastError && fetch.lastError !== change.api.source.lastError)
        change.raise('api.import.failed', { source: change.api.source.url, error: fetch.lastError });
      const kept: ApiSource = { ...change.api.source };
      delete kept.lastError;
      // A 200's validators replace the last ones (a key left undefined vanishes in the jsonb column); a 304 or a failure keeps them.
      change.setSource({ ...kept, ...fetch });
    });
  }
}

/** `payments` of `https://host/specs/payments.graphql`: a name for a spec that names none. */
function fileName(url: URL): string {
  const last = posix.basename(url.pathname);
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // A malformed escape: the name as the URL spells it.
  }
  return decoded.replace(/\.[^.]*$/, '').trim();
}
