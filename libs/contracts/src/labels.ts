/**
 * Labels: an org's own `{key: value}` pairs on an API (`team: payments`, `tier: gold`), shown on
 * records and cards and filtered on by search (`filters.labels`), the catalogue (`?label=key:value`)
 * and the MCP tools. Keys are compared as given (they are lower case by rule), values in any case.
 */
export const LABEL_LIMITS = {
  /** Labels an API may carry. */
  maxLabels: 20,
  /** Lower case letters and digits, then also `.`, `_`, `/` or `-`: up to 63 characters. */
  key: /^[a-z0-9]([a-z0-9._/-]{0,62})$/,
  keyRule: '1-63 lower case letters, digits, ".", "_", "/" or "-", starting with a letter or digit',
  /** A value's length once trimmed. */
  valueMinChars: 1,
  valueMaxChars: 100,
  /**
   * Keys that name JavaScript's object machinery: in a copy of the labels they vanish or replace
   * the object's prototype, and a look-up of one finds a function. Refused, by name.
   */
  reservedKeys: ['__proto__', 'constructor', 'prototype'],
} as const;

/** C0 and C1 control characters (tabs and line breaks among them): never in a label value. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * What is wrong with these labels, in words naming the label (`field` is how the request calls
 * them); undefined when they keep the rules of `LABEL_LIMITS`. Values are checked trimmed.
 */
export function labelsProblem(labels: unknown, field = 'labels'): string | undefined {
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) return `${field} must be an object of "key": "value" strings`;
  const entries = Object.entries(labels);
  if (entries.length > LABEL_LIMITS.maxLabels) return `${field} may hold at most ${LABEL_LIMITS.maxLabels} labels (it has ${entries.length})`;
  for (const [key, value] of entries) {
    const problem = labelProblem(key, value);
    if (problem) return `${field}: ${problem}`;
  }
  return undefined;
}

/** What is wrong with one label, naming it; undefined when it keeps the rules. */
export function labelProblem(key: string, value: unknown): string | undefined {
  const name = JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key);
  if ((LABEL_LIMITS.reservedKeys as readonly string[]).includes(key))
    return `label key ${name} is reserved (${LABEL_LIMITS.reservedKeys.join(', ')} name JavaScript's object machinery): choose another`;
  if (!LABEL_LIMITS.key.test(key)) return `label key ${name} must be ${LABEL_LIMITS.keyRule}`;
  if (typeof value !== 'string') return `label ${name} must have a string value`;
  const trimmed = value.trim();
  if (trimmed.length < LABEL_LIMITS.valueMinChars || trimmed.length > LABEL_LIMITS.valueMaxChars) {
    return `label ${name} must have a value of ${LABEL_LIMITS.valueMinChars}-${LABEL_LIMITS.valueMaxChars} characters (trimmed)`;
  }
  if (CONTROL.test(trimmed)) return `label ${name} must have a value without control characters`;
  return undefined;
}

/** The labels as stored: values trimmed, keys in sorted order. Call only on labels that passed `labelsProblem`. */
export function normalizeLabels(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(labels)
      .map(([key, value]) => [key, value.trim()] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/**
 * One `key:value` of a catalogue's `?label=` (the value is everything after the first `:`), or
 * what is wrong with it.
 */
export function parseLabelSelector(selector: string): { key: string; value: string } | { problem: string } {
  const colon = selector.indexOf(':');
  if (colon < 0) return { problem: `label must be "key:value" (got ${JSON.stringify(selector.slice(0, 100))})` };
  const key = selector.slice(0, colon);
  const value = selector.slice(colon + 1);
  const problem = labelProblem(key, value);
  return problem ? { problem: `label ${JSON.stringify(selector.slice(0, 100))}: ${problem}` } : { key, value: value.trim() };
}
