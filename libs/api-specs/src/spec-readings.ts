import { NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ANSWER_MAX_CHARS, type OperationDetail, type OperationSelector } from '#contracts';
import { fitJson, ServiceBusyException } from '#http';
import type { SpecFormats } from './formats/spec-formats.js';
import { SPEC_LIMITS } from './spec-limits.js';
import { isRefusal, type ParsedSpec, type StoredSpec } from './spec-tasks.js';
import { SpecThreads, SpecThreadsBusyError } from './spec-threads.js';

/** Specs kept parsed: the APIs people are looking at, a few at a time. */
const CACHE_ENTRIES = 32;
/** Their spec text together (a parsed document takes a few times its text). */
const CACHE_MAX_CHARS = 64 * 1024 * 1024;

/**
 * Stored specs read for the operation-detail routes. Each is parsed once, on a spec thread of its
 * own (never behind an indexing job or a registration's check), and kept while people look at it;
 * an operation's schemas are then expanded from the parsed document per call, which
 * `maxChars` (OPERATION_DETAIL_MAX_CHARS) keeps cheap. Every answer is fitted to ANSWER_MAX_CHARS.
 */
export class SpecReadings {
  private readonly parsed = new LRUCache<string, Promise<ParsedSpec>>({ max: CACHE_ENTRIES, maxSize: CACHE_MAX_CHARS });
  private readonly threads: SpecThreads;

  constructor(
    private readonly formats: SpecFormats,
    private readonly options: { timeoutMs: number; maxChars: number },
  ) {
    this.threads = new SpecThreads({ threads: 1, queue: 16, timeoutMs: options.timeoutMs, formats: formats.all });
  }

  /**
   * The spec `key` names (a revision: its text never changes), read once; `load` gives its text
   * when it is not kept. `undefined` from `load` is a 404 saying `gone`. `tenant`: the org it
   * belongs to, whose turn at the thread it takes (`SpecThreads`).
   */
  async read(key: string, load: () => Promise<StoredSpec | undefined>, gone: string, tenant?: string): Promise<ParsedSpec> {
    let spec = this.parsed.get(key);
    if (!spec) {
      const stored = await load();
      if (stored === undefined) throw new NotFoundException(gone);
      spec = this.parse(stored, tenant);
      this.parsed.set(key, spec, { size: stored.text.length || 1 });
      // A failure is not kept: the next call tries again.
      spec.catch(() => this.parsed.peek(key) === spec && this.parsed.delete(key));
    }
    return spec;
  }

  /** One operation in full, by its spec's own format (a kind no longer loaded reads as not found). */
  detail(spec: ParsedSpec, selector: OperationSelector): OperationDetail | undefined {
    const operation = this.formats.byKind(spec.spec.kind)?.operation(spec.spec, selector, this.options.maxChars);
    if (!operation) return undefined;
    // Its schemas are within maxChars already; this bounds the rest (texts, lists of parameters).
    const { value, cuts } = fitJson(operation, this.options.maxChars + ANSWER_MAX_CHARS.detailBeyondSchemas);
    return { ...value, ...(cuts.length ? { cuts } : {}) };
  }

  async close(): Promise<void> {
    await this.threads.close();
  }

  /** As the format the spec was registered as, or the one that recognises it. */
  private async parse(stored: StoredSpec, tenant?: string): Promise<ParsedSpec> {
    const read = await this.threads.run('specDocumentOf', stored, { tenant }).catch((error: unknown) => {
      if (error instanceof SpecThreadsBusyError)
        throw new ServiceBusyException(`${error.message}; try again in ${error.retryAfterSeconds} s`, error.retryAfterSeconds);
      throw error;
    });
    if (isRefusal(read)) throw new UnprocessableEntityException(`The spec cannot be read: ${read.refused}`);
    // Fitted once per spec: servers, auth schemes and operations as long as the spec made them.
    const { operations, ...head } = read.overview;
    const fittedHead = fitJson(head, ANSWER_MAX_CHARS.overview);
    const fittedOperations = fitJson(operations, ANSWER_MAX_CHARS.operations, { items: SPEC_LIMITS.maxOperations, path: 'operations' });
    const cuts = [...fittedHead.cuts, ...fittedOperations.cuts];
    return { ...read, overview: { ...fittedHead.value, operations: fittedOperations.value, ...(cuts.length ? { cuts } : {}) } };
  }
}
