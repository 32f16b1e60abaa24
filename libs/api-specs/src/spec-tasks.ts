import type { ApiEndpoint, ApiOverview } from '#contracts';
import { type ApiFacts, chunkApi, type ChunkLimits, modelDescription, type SpecChunk } from './chunk-api.js';
import type { ReadSpec } from './formats/spec-format.js';
import type { SpecFormats } from './formats/spec-formats.js';
import { SpecError } from './spec-error.js';
import { writtenInfo } from './written-info.js';

/**
 * The CPU-heavy work on a spec, as `SpecThreads` runs it in worker threads: parsing (seconds for
 * a large YAML text), the safety walk, dereferencing and chunking, by the spec's format. Each task
 * answers a `SpecError` as a value, since an error that crosses threads loses its class.
 */

/** Why a spec was refused, in words for its publisher. */
export interface SpecRefusal {
  refused: string;
  /** The text is over the size limit (413), rather than not a spec that can be indexed (422). */
  tooLarge?: boolean;
}

/** A registered spec: its text as the registry stores it, and the format it was registered as (detected when absent). */
export interface StoredSpec {
  text: string;
  format?: string;
}

export interface CheckInput {
  spec: string | Record<string, unknown>;
  format?: string;
  maxBytes: number;
}

/** A checked registration: the text as the registry stores it, its kind, and the document's own `info.title` and `info.version` where it has them (OpenAPI, AsyncAPI). */
export interface CheckedSpec {
  text: string;
  kind: string;
  title?: string;
  version?: string;
}

/** A registration's spec as the registry stores it, once it passed the checks a worker repeats. */
export function checkRegistration(formats: SpecFormats, { spec, format, maxBytes }: CheckInput): CheckedSpec | SpecRefusal {
  const text = typeof spec === 'string' ? spec : JSON.stringify(spec);
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) return { refused: `The spec is ${bytes} bytes; the limit is ${maxBytes} bytes (SPEC_MAX_BYTES)`, tooLarge: true };
  return refusalOf(() => {
    const read = formats.read(spec, format);
    const info = read.format.info?.(read.spec);
    // A typed YAML read makes `1.10` the number 1.1 (or `2024-06-20` a Date): the version is the text as written.
    const version = info?.version === undefined || typeof info.version === 'string' ? info?.version : (writtenInfo(text).version ?? info.version);
    return { text, kind: read.format.kind, ...named('title', info?.title), ...named('version', version) };
  });
}

/** A name the document gives itself: a string or number with more than spaces. */
function named(key: 'title' | 'version', value: unknown): Partial<Record<typeof key, string>> {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  return text ? { [key]: text } : {};
}

/** Every operation of a registered spec (no `$ref` resolution needed). */
export function operationsOf(formats: SpecFormats, { text, format }: StoredSpec): { kind: string; operations: ApiEndpoint[] } | SpecRefusal {
  return refusalOf(() => {
    const read = formats.read(text, format);
    return { kind: read.format.kind, operations: read.format.overview(read.spec).operations };
  });
}

/** A stored spec read for the operation-detail routes: the document as its format read it, and its overview. */
export function specDocumentOf(formats: SpecFormats, { text, format }: StoredSpec): ParsedSpec | SpecRefusal {
  return refusalOf(() => {
    const read = formats.read(text, format);
    return { spec: read.spec, overview: read.format.overview(read.spec) };
  });
}

export interface ParsedSpec {
  spec: ReadSpec;
  overview: ApiOverview;
}

export interface ChunkInput {
  spec: string;
  format?: string;
  facts: ApiFacts;
  limits: ChunkLimits;
}

export interface ChunkOutput {
  /** The format that read it. */
  kind: string;
  chunks: SpecChunk[];
  /** What the limits left out. */
  warnings: string[];
  /** What a card shows when the registration gave no description. */
  description?: string;
}

/** Read → model → chunk, for the indexing worker. */
export async function chunksOf(formats: SpecFormats, { spec, format, facts, limits }: ChunkInput): Promise<ChunkOutput | SpecRefusal> {
  try {
    const read = formats.read(spec, format);
    const model = await read.format.model(read.spec);
    return { kind: read.format.kind, ...chunkApi(model, facts, limits), description: modelDescription(model) };
  } catch (error) {
    if (error instanceof SpecError) return { refused: error.message };
    throw error;
  }
}

function refusalOf<T>(task: () => T): T | SpecRefusal {
  try {
    return task();
  } catch (error) {
    if (error instanceof SpecError) return { refused: error.message };
    throw error;
  }
}

export function isRefusal(result: object): result is SpecRefusal {
  return 'refused' in result;
}
