import SwaggerParser from '@apidevtools/swagger-parser';
import { isObject } from '../../is-object.js';
import { SpecError } from '../../spec-error.js';
import { type OpenApiDocument, readSpecDocument, type SpecDocument, type SpecFlavor } from './read-openapi.js';

export interface LoadedSpec {
  flavor: SpecFlavor;
  /** Dereferenced document; may contain cycles where the spec's `$ref`s are circular. */
  document: SpecDocument;
}

/**
 * How deep swagger-parser may follow `$ref`s into `$ref`s. A chain of 2,000 schemas that refer
 * to each other in turn (circular, and valid) goes about 4,000 levels deep; the library's own
 * default of 500 failed it. It recurses, so this wants the stack of a spec thread (`SpecThreads`),
 * and the paths it builds grow with the depth: 20,000 levels ran out of 1 GB.
 */
export const MAX_REF_DEPTH = 10_000;

// Never read files or fetch URLs named by a spec: a spec is untrusted input.
const PARSER_OPTIONS = {
  resolve: { external: false, file: false, http: false },
  // Vendor extensions (`x-…`) are not the API's shape and often point at files we never read.
  dereference: { circular: true, excludedPathMatcher: isExtensionPath, maxDepth: MAX_REF_DEPTH },
  validate: { schema: false, spec: false },
} as SwaggerParser.Options;

/** Parses, checks (see `readSpecDocument`) and dereferences a spec: internal `$ref`s only, circular ones kept as cycles. */
export async function loadSpec(input: string | Record<string, unknown>): Promise<LoadedSpec> {
  return dereference(readSpecDocument(input));
}

/** A checked document with its internal `$ref`s replaced by what they point at. */
export async function dereference({ document, flavor }: OpenApiDocument): Promise<LoadedSpec> {
  let dereferenced: unknown;
  try {
    dereferenced = await SwaggerParser.dereference(structuredClone(document) as never, PARSER_OPTIONS);
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith('Maximum dereference depth')) {
      throw new SpecError(
        `The spec could not be resolved: its $refs lead more than ${MAX_REF_DEPTH.toLocaleString('en-US')} levels deep (a chain of schemas, each referring to the next, that long)`,
      );
    }
    throw new SpecError(`The spec could not be resolved: ${firstLine(message)}`);
  }
  if (!isObject(dereferenced)) throw new SpecError('The spec could not be resolved to an object');
  return { flavor, document: dereferenced };
}

function isExtensionPath(path: string): boolean {
  return /\/x-[^/]*/.test(path);
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 500);
}
