import yaml from 'js-yaml';
import { isJsonText } from './formats/spec-source.js';
import { isObject } from './is-object.js';

/** A document's `info.title` and `info.version` as its text writes them, trimmed. */
export interface WrittenInfo {
  title?: string;
  version?: string;
}

/**
 * JSON or YAML text read so that every value keeps its written form: JSON as `JSON.parse` reads
 * it, YAML with `FAILSAFE_SCHEMA` (a date `2024-06-20` or a number `1.10` stays that text, never
 * a Date or `1.1`). Throws what the parser threw.
 */
export function parseWritten(text: string, as: 'json' | 'yaml' = isJsonText(text) ? 'json' : 'yaml'): unknown {
  return as === 'json' ? JSON.parse(text) : yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA });
}

/** The `info.title` and `info.version` of a document `parseWritten` read (a JSON number as `String(n)`). */
export function writtenInfoOf(document: unknown): WrittenInfo {
  const info = isObject(document) && isObject(document.info) ? document.info : {};
  return { ...written('title', info.title), ...written('version', info.version) };
}

/** The `info.title` and `info.version` a JSON or YAML text writes; none when it is neither. */
export function writtenInfo(text: string): WrittenInfo {
  try {
    return writtenInfoOf(parseWritten(text));
  } catch {
    return {};
  }
}

function written(key: keyof WrittenInfo, value: unknown): WrittenInfo {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  return text ? { [key]: text } : {};
}
