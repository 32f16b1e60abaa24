/** A spec's `info.title` and `info.version`, to fill a registration's name and version. */
export interface SpecInfo {
  title?: string;
  version?: string;
}

/**
 * Reads `info.title` and `info.version` from a spec's JSON or YAML text without a YAML library:
 * from YAML, the plain or quoted one-line scalars directly under a top-level `info:` block. What
 * it cannot read for certain (flow style, block scalars, anchors) it leaves out: a person types it.
 */
export function specInfo(text: string): SpecInfo {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const info = (JSON.parse(trimmed) as { info?: Record<string, unknown> }).info;
      return { title: scalar(info?.title), version: scalar(info?.version) };
    } catch {
      return {};
    }
  }
  return yamlInfo(trimmed);
}

function scalar(value: unknown): string | undefined {
  return (typeof value === 'string' || typeof value === 'number') && String(value).trim() ? String(value).trim() : undefined;
}

function yamlInfo(text: string): SpecInfo {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => /^info:\s*(#.*)?$/.test(line));
  if (start < 0) return {};
  const found: SpecInfo = {};
  let indent: number | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const depth = line.length - line.trimStart().length;
    // The next top-level key (or document) ends the block.
    if (depth === 0) break;
    indent ??= depth;
    // Deeper lines belong to nested keys (`info.contact.title`).
    if (depth !== indent) continue;
    const entry = /^\s*(["']?)(title|version)\1\s*:(?:\s+(.*))?$/.exec(line);
    if (entry && found[entry[2] as keyof SpecInfo] === undefined) found[entry[2] as keyof SpecInfo] = yamlScalar(entry[3] ?? '');
  }
  return found;
}

/** A one-line YAML scalar: double-quoted (with escapes), single-quoted (`''` is a quote) or plain (up to a ` #` comment). */
function yamlScalar(raw: string): string | undefined {
  const value = raw.trim();
  if (value.startsWith('"')) {
    const quoted = /^"((?:[^"\\]|\\.)*)"\s*(#.*)?$/.exec(value);
    if (!quoted) return undefined;
    try {
      // YAML's double-quoted escapes are JSON's, plus a few rare ones.
      return scalar(JSON.parse(`"${quoted[1]}"`));
    } catch {
      return undefined;
    }
  }
  if (value.startsWith("'")) {
    const quoted = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(value);
    return quoted ? scalar(quoted[1].replace(/''/g, "'")) : undefined;
  }
  // Block scalars, flow collections, anchors, aliases, tags: not one plain line.
  if (/^[|>[{&*!%@`]/.test(value)) return undefined;
  return scalar(value.replace(/\s+#.*$/, ''));
}
