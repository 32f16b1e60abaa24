import SwaggerParser from '@apidevtools/swagger-parser';
import { isObject } from './is-object.js';
import { readSpecDocument, type SpecDocument, type SpecFlavor } from './read-spec.js';
import { SpecError } from './spec-error.js';

export interface LoadedSpec {
  flavor: SpecFlavor;
  /** Dereferenced document; may contain cycles where the spec's `$ref`s are circular. */
  document: SpecDocument;
}

// Never read files or fetch URLs named by a spec: a spec is untrusted input.
const PARSER_OPTIONS = {
  resolve: { external: false, file: false, http: false },
  // Vendor extensions (`x-…`) are not the API's shape and often point at files we never read.
  dereference: { circular: true, excludedPathMatcher: isExtensionPath },
  validate: { schema: false, spec: false },
} as SwaggerParser.Options;

/** Parses, checks (see `readSpecDocument`) and dereferences a spec: internal `$ref`s only, circular ones kept as cycles. */
export async function loadSpec(input: unknown): Promise<LoadedSpec> {
  const { document, flavor } = readSpecDocument(input);
  let dereferenced: unknown;
  try {
    dereferenced = await SwaggerParser.dereference(structuredClone(document) as never, PARSER_OPTIONS);
  } catch (error) {
    throw new SpecError(`The spec could not be resolved: ${firstLine((error as Error).message)}`);
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
