import { isJsonText } from '#spec';

export type SpecTextFormat = 'json' | 'yaml';

/** A registered spec as the registry serves it back: the text it was sent as. */
export interface RegisteredSpec {
  text: string;
  format: SpecTextFormat;
  /** `<name>-<version>.<json|yaml>`, safe in a header and on any file system. */
  fileName: string;
}

export const SPEC_CONTENT_TYPE: Record<SpecTextFormat, string> = { json: 'application/json', yaml: 'application/yaml' };

/**
 * JSON or YAML, told apart as registration did (`isJsonText`): a text read as JSON had to parse
 * as JSON to be accepted, so no parsing (seconds for a large spec) is needed.
 */
export function specTextFormat(text: string): SpecTextFormat {
  return isJsonText(text) ? 'json' : 'yaml';
}

export function registeredSpec(api: { name: string; version: string; spec: string }): RegisteredSpec {
  const format = specTextFormat(api.spec);
  return { text: api.spec, format, fileName: `${fileStem(api.name, api.version)}.${format}` };
}

/** Letters without accents, digits, `.`, `_` and `-`: the rest of a name (slashes, quotes, spaces) becomes one `-`. */
function fileStem(name: string, version: string): string {
  const safe = (part: string) =>
    part
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '');
  return [safe(name), safe(version)].filter(Boolean).join('-').slice(0, 150) || 'spec';
}
