/** A spec's name and version as far as its text (or file name) tells, to fill a registration's name and version. */
export interface SpecInfo {
  title?: string;
  version?: string;
}

/**
 * What a spec says its name and version are, without a parser for any format, by what its text
 * looks like (no kind of API is named here: the server says which it reads):
 *
 * - A JSON or YAML document: `info.title` and `info.version` (OpenAPI's and AsyncAPI's); from
 *   YAML, the plain or quoted one-line scalars directly under a top-level `info:` block.
 * - Protocol Buffers text: its first `service` (else its `package`) as the name, and the
 *   package's last part as the version when it is one (`payments.v1` is `v1`).
 * - Other text (a GraphQL schema) names nothing: the file's name does.
 *
 * With `fileName`, a spec that names nothing is named after its file (`github.graphql` is
 * "github"). What it cannot read for certain (flow style, block scalars, anchors) it leaves out:
 * a person types it.
 */
export function specInfo(text: string, fileName?: string): SpecInfo {
  const trimmed = text.trim();
  const extension = /\.([a-z]+)$/i.exec(fileName ?? '')?.[1].toLowerCase();
  // A JSON or YAML file is a document whatever its text mentions; other text is looked at.
  const found =
    !DATA_EXTENSIONS.has(extension ?? '') && looksLikeProto(trimmed) ? protoInfo(trimmed) : trimmed.startsWith('{') ? jsonInfo(trimmed) : yamlInfo(trimmed);
  const stem = fileName
    ?.replace(/^.*[\\/]/, '')
    .replace(/\.[a-z]+$/i, '')
    .trim();
  return found.title === undefined && stem ? { ...found, title: stem } : found;
}

/** JSON's and YAML's file names: data formats, whichever kinds of API are written in them. */
const DATA_EXTENSIONS = new Set(['json', 'yaml', 'yml']);

function jsonInfo(text: string): SpecInfo {
  try {
    const info = (JSON.parse(text) as { info?: Record<string, unknown> }).info;
    return { title: scalar(info?.title), version: scalar(info?.version) };
  } catch {
    return {};
  }
}

/**
 * `syntax = "proto3";`, a `package x.y;` statement, or a top-level `service X {` or `message X {`:
 * no JSON, YAML or GraphQL SDL starts a line so.
 */
function looksLikeProto(text: string): boolean {
  const code = withoutProtoComments(text);
  return /^\s*syntax\s*=\s*["']proto[23]["']\s*;/m.test(code) || /^\s*package\s+[\w.]+\s*;/m.test(code) || /^(service|message)\s+[A-Za-z_]\w*\s*\{/m.test(code);
}

function protoInfo(text: string): SpecInfo {
  const code = withoutProtoComments(text);
  const pkg = /^\s*package\s+([A-Za-z_][\w.]*)\s*;/m.exec(code)?.[1];
  const service = /^\s*service\s+([A-Za-z_]\w*)\s*\{/m.exec(code)?.[1];
  // Buf's and Google's style: the package ends in its major version (`v1`, `v2beta1`).
  const version = /(?:^|\.)(v\d+(?:(?:alpha|beta)\d*)?)$/.exec(pkg ?? '')?.[1];
  return { title: service ?? pkg, version };
}

/** The .proto text without `//` and `/* *\/` comments (strings are left alone, as a commented-out `service` is not one). */
function withoutProtoComments(text: string): string {
  return text.replace(
    /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
    (match, quoted: string | undefined) => quoted ?? (match.startsWith('/*') ? match.replace(/[^\n]/g, ' ') : ''),
  );
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
