import type { ApiEndpoint, ApiOverview } from '#contracts';
import { type ApiFacts, type ChunkLimits, chunkSpec, type SpecChunk, specDescription } from './chunk-spec.js';
import { loadSpec } from './load-spec.js';
import { listOperations } from './operations.js';
import { apiOverview } from './operation-detail.js';
import { readSpecDocument, type SpecDocument, type SpecFlavor } from './read-spec.js';
import { SpecError } from './spec-error.js';

/**
 * The CPU-heavy work on a spec, as `SpecThreads` runs it in worker threads: parsing (seconds for
 * a large YAML text), the safety walk, dereferencing and chunking. Each task answers a
 * `SpecError` as a value, since an error that crosses threads loses its class.
 */

/** Why a spec was refused, in words for its publisher. */
export interface SpecRefusal {
  refused: string;
  /** The text is over the size limit (413), rather than not a spec that can be indexed (422). */
  tooLarge?: boolean;
}

export interface CheckInput {
  spec: string | Record<string, unknown>;
  maxBytes: number;
}

/** A registration's spec as the registry stores it (its text), once it passed the checks a worker repeats. */
export function checkRegistration({ spec, maxBytes }: CheckInput): { text: string } | SpecRefusal {
  const text = typeof spec === 'string' ? spec : JSON.stringify(spec);
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) return { refused: `The spec is ${bytes} bytes; the limit is ${maxBytes} bytes (SPEC_MAX_BYTES)`, tooLarge: true };
  return refusalOf(() => {
    readSpecDocument(spec);
    return { text };
  });
}

/** Every operation of a registered spec (no `$ref` resolution needed). */
export function operationsOf({ text }: { text: string }): { operations: ApiEndpoint[] } | SpecRefusal {
  return refusalOf(() => ({ operations: listOperations(readSpecDocument(text).document) }));
}

/** A stored spec read for the operation-detail routes: the document (its `$ref`s as written) and its overview. */
export function specDocumentOf({ text }: { text: string }): ParsedSpec | SpecRefusal {
  return refusalOf(() => {
    const { document, flavor } = readSpecDocument(text);
    return { document, flavor, overview: apiOverview(document, flavor) };
  });
}

export interface ParsedSpec {
  document: SpecDocument;
  flavor: SpecFlavor;
  overview: ApiOverview;
}

export interface ChunkInput {
  spec: string;
  facts: ApiFacts;
  limits: ChunkLimits;
}

export interface ChunkOutput {
  chunks: SpecChunk[];
  /** What the limits left out. */
  warnings: string[];
  /** What a card shows when the registration gave no description. */
  description?: string;
}

/** Parse → dereference → chunk, for the indexing worker. */
export async function chunksOf({ spec, facts, limits }: ChunkInput): Promise<ChunkOutput | SpecRefusal> {
  try {
    const loaded = await loadSpec(spec);
    return { ...chunkSpec(loaded, facts, limits), description: specDescription(loaded) };
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
