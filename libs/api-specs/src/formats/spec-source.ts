import yaml from 'js-yaml';
import { isObject } from '../is-object.js';
import { SpecError } from '../spec-error.js';
import { assertSafeSpec } from '../spec-limits.js';

/**
 * A registered spec as formats see it: its text (or the object a JSON body carried), and that
 * text read as JSON or YAML once, on demand, for the formats written in them. What it reads has
 * passed `assertSafeSpec` (SPEC_LIMITS: values, characters, depth; no NUL, no external `$ref`
 * outside vendor extensions) before any format, detection included, sees it: a YAML alias bomb
 * never reaches a parser.
 */
export class SpecSource {
  private structured?: { value: unknown } | { error: SpecError };
  private serialized?: string;

  constructor(readonly input: string | Record<string, unknown>) {
    if (typeof input === 'string' && input.includes('\u0000')) throw new SpecError('The spec contains NUL characters');
  }

  /** The text (JSON for an object input, made once: each format may ask). */
  get text(): string {
    if (typeof this.input === 'string') return this.input;
    return (this.serialized ??= JSON.stringify(this.input));
  }

  /**
   * The source read as a JSON or YAML object, or undefined when it is not one (plain text such as
   * SDL) or is one no format may read (over SPEC_LIMITS: `parsed()` says why).
   */
  object(): Record<string, unknown> | undefined {
    try {
      const value = this.parsed();
      return isObject(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** The source read as JSON or YAML; throws the `SpecError` saying why it is neither, or why it may not be read. */
  parsed(): unknown {
    this.structured ??= this.parse();
    if ('error' in this.structured) throw this.structured.error;
    return this.structured.value;
  }

  private parse(): { value: unknown } | { error: SpecError } {
    try {
      const value = typeof this.input === 'string' ? parseStructuredText(this.input) : this.input;
      assertSafeSpec(value);
      return { value };
    } catch (error) {
      if (error instanceof SpecError) return { error };
      throw error;
    }
  }
}

/** JSON or YAML, told apart as reading did (`isJsonText`): no parsing needed. */
export function structuredFileType(text: string): { extension: string; mediaType: string } {
  return isJsonText(text) ? { extension: 'json', mediaType: 'application/json' } : { extension: 'yaml', mediaType: 'application/yaml' };
}

/** A spec text read as JSON (it must parse as JSON) rather than YAML: it opens with `{` or `[`. */
export function isJsonText(text: string): boolean {
  return /^\s*[{[]/.test(text);
}

/** JSON or YAML text as a value; a `SpecError` says why it is neither. */
export function parseStructuredText(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) throw new SpecError('The spec is empty');
  if (isJsonText(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch (error) {
      throw new SpecError(`The spec is not valid JSON: ${tooDeep(error) ?? (error as Error).message}`);
    }
  }
  try {
    // JSON_SCHEMA: no custom tags, no dates turned into objects; `json` lets duplicate keys win last.
    return yaml.load(trimmed, { schema: yaml.JSON_SCHEMA, json: true });
  } catch (error) {
    const reason = error instanceof yaml.YAMLException ? error.message.split('\n')[0] : (tooDeep(error) ?? String(error));
    throw new SpecError(`The spec is neither valid JSON nor valid YAML: ${reason}`);
  }
}

/** The parsers recurse: absurd nesting ends in a stack overflow, which says nothing to a user. */
export function tooDeep(error: unknown): string | undefined {
  return (error as Error)?.name === 'RangeError' ? 'it is nested too deeply' : undefined;
}
