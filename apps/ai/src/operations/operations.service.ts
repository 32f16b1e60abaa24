import { Inject, Injectable, NotFoundException, type OnApplicationShutdown, UnprocessableEntityException } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { AiConfig } from '#config';
import { ANSWER_MAX_CHARS, type ApiOperationDetailResponse, type ApiOperationsResponse, type OperationSelector } from '#contracts';
import { fitJson, ServiceBusyException } from '#http';
import { isRefusal, type ParsedSpec, SPEC_FORMATS, SPEC_LIMITS, type SpecFormats, SpecThreads, SpecThreadsBusyError, type StoredSpec } from '#spec';
import { AI_CONFIG } from '../ai.constants.js';
import { ApiSpecsRepository } from '../indexing/api-specs.repository.js';

/** Specs kept parsed: the APIs people are looking at, a few at a time. */
const CACHE_ENTRIES = 32;
/** Their spec text together (a parsed document takes a few times its text). */
const CACHE_MAX_CHARS = 64 * 1024 * 1024;

/**
 * Operation details of an API's live indexed revision. Each revision is parsed once, on a spec
 * thread of its own (never behind an indexing job's); an operation's schemas are then expanded
 * from the parsed document per call, which the size limit keeps cheap.
 */
@Injectable()
export class OperationsService implements OnApplicationShutdown {
  private readonly parsed = new LRUCache<string, Promise<ParsedSpec>>({ max: CACHE_ENTRIES, maxSize: CACHE_MAX_CHARS });
  private readonly threads: SpecThreads;

  constructor(
    @Inject(AI_CONFIG) private readonly config: AiConfig,
    private readonly specs: ApiSpecsRepository,
    @Inject(SPEC_FORMATS) private readonly formats: SpecFormats,
  ) {
    this.threads = new SpecThreads({ threads: 1, queue: 16, timeoutMs: config.specTimeoutMs, formats: formats.all });
  }

  /** The overview carries the API's `kind` and its document's `format`; without its operations when the caller only wants the rest (an MCP get_operation). */
  async overview(apiId: string, orgIds: string[], withOperations = true): Promise<ApiOperationsResponse> {
    const { revision, spec } = await this.liveSpec(apiId, orgIds);
    return { apiId, revision, ...spec.overview, ...(withOperations ? {} : { operations: [] }) };
  }

  async detail(apiId: string, orgIds: string[], selector: OperationSelector): Promise<ApiOperationDetailResponse> {
    const { revision, spec } = await this.liveSpec(apiId, orgIds);
    // The spec's own format expands the operation (a kind no longer loaded reads as not found).
    const operation = this.formats.byKind(spec.spec.kind)?.operation(spec.spec, selector, this.config.operationDetailMaxChars);
    if (!operation) {
      const named = selector.operationId !== undefined ? `operationId "${selector.operationId}"` : `${selector.method} ${selector.path}`;
      throw new NotFoundException(`API "${apiId}" has no operation ${named} (indexed revision ${revision})`);
    }
    // Its schemas are within OPERATION_DETAIL_MAX_CHARS already; this bounds the rest (texts, lists of parameters).
    const { value, cuts } = fitJson(operation, this.config.operationDetailMaxChars + ANSWER_MAX_CHARS.detailBeyondSchemas);
    return { apiId, revision, ...value, ...(cuts.length ? { cuts } : {}) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.threads.close();
  }

  private async liveSpec(apiId: string, orgIds: string[]): Promise<{ revision: number; spec: ParsedSpec }> {
    const live = await this.specs.liveRevision(apiId, orgIds);
    if (!live.found) throw new NotFoundException(`API "${apiId}" not found`);
    const revision = live.indexedRevision;
    if (revision === null) throw new NotFoundException(`API "${apiId}" has not been indexed yet: its operations show once indexing completes`);
    const key = `${apiId}:${revision}`;
    let spec = this.parsed.get(key);
    if (!spec) {
      const stored = await this.specs.storedSpec(apiId, revision);
      // A newer revision went live, and this one's copy was dropped, between the two reads.
      if (stored === undefined) throw new NotFoundException(`API "${apiId}" is being re-indexed; try again in a moment`);
      spec = this.parse(stored);
      this.parsed.set(key, spec, { size: stored.text.length || 1 });
      // A failure is not kept: the next call tries again.
      spec.catch(() => this.parsed.peek(key) === spec && this.parsed.delete(key));
    }
    return { revision, spec: await spec };
  }

  /** As the format the spec was registered as, or the one that recognises it. */
  private async parse(stored: StoredSpec): Promise<ParsedSpec> {
    const read = await this.threads.run('specDocumentOf', stored).catch((error: unknown) => {
      if (error instanceof SpecThreadsBusyError) throw new ServiceBusyException(`${error.message}: many specs are being read right now`, 2);
      throw error;
    });
    if (isRefusal(read)) throw new UnprocessableEntityException(`The indexed spec cannot be read: ${read.refused}`);
    // Fitted once per revision: servers, auth schemes and operations as long as the spec made them.
    const { operations, ...head } = read.overview;
    const fittedHead = fitJson(head, ANSWER_MAX_CHARS.overview);
    const fittedOperations = fitJson(operations, ANSWER_MAX_CHARS.operations, { items: SPEC_LIMITS.maxOperations, path: 'operations' });
    const cuts = [...fittedHead.cuts, ...fittedOperations.cuts];
    return { ...read, overview: { ...fittedHead.value, operations: fittedOperations.value, ...(cuts.length ? { cuts } : {}) } };
  }
}
