import { createHash } from 'node:crypto';
import { cleanText, splitText, truncate } from './clean-text.js';
import type { LoadedSpec } from './load-spec.js';
import { operationEntries, operationSummary, operationTags } from './operations.js';
import { isObject } from './is-object.js';
import { SpecError } from './spec-error.js';

export type ChunkLevel = 'L1' | 'L2' | 'L3';

/** Registry facts that complete (and override) what the spec says about itself. */
export interface ApiFacts {
  name: string;
  version: string;
  teamName?: string;
  description?: string;
}

export interface SpecChunk {
  /** Stable within one API: `api`, `api#2`, `op:GET /pets`, `schema:Pet`. */
  key: string;
  level: ChunkLevel;
  title: string;
  /** Clean text: stored, shown as a snippet and indexed for keywords. */
  text: string;
  /** What is embedded: `text` with a short context prefix naming the API (and operation). */
  embedText: string;
  method?: string;
  path?: string;
  operationId?: string;
  summary?: string;
  tags: string[];
}

/**
 * What one API may put in the index, so that one publisher cannot hold the embedding model and
 * the database for the others (settings INDEX_MAX_CHUNKS, INDEX_MAX_SCHEMAS, EMBED_MAX_CHARS).
 * What is left out is said in the indexing status, not failed.
 */
export interface ChunkLimits {
  /** Chunks of one API: its overview first, then operations in document order, then schemas. */
  maxChunks: number;
  /** Named schemas made into L3 chunks, in document order. */
  maxSchemas: number;
  /**
   * Characters of one chunk's text given to the embedding model: more only dilutes a sentence
   * encoder's vector, and a batch costs as much as its longest text times its size.
   */
  maxEmbedChars: number;
}

/** The largest API of the public eval corpus has 385 chunks (224 schemas); 18 of its 27k chunks embed more than 2000 characters. */
export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { maxChunks: 2000, maxSchemas: 1000, maxEmbedChars: 2000 };

/** An API's chunks, and what the limits left out (in words, for the indexing status). */
export interface ChunkedSpec {
  chunks: SpecChunk[];
  warnings: string[];
}

const L1_PART_CHARS = 1500;
/** A description longer than this many L1 parts is cut: beyond it, it is a manual, not an overview. */
const MAX_L1_PARTS = 8;
const L1_EMBED_CHARS = 600;
const PROFILE_CHARS = 1200;
const DESCRIPTION_CHARS = 600;
const MAX_FIELDS = 40;
const CARD_DESCRIPTION_CHARS = 300;

/** Cuts a dereferenced spec into L1 (API), L2 (operation) and L3 (named schema) chunks, within `limits`. */
export function chunkSpec(spec: LoadedSpec, facts: ApiFacts, limits: ChunkLimits = DEFAULT_CHUNK_LIMITS): ChunkedSpec {
  const doc = spec.document;
  const tagDescriptions = readTags(doc.tags);
  const operations = operationChunks(spec, facts);
  const schemas = schemaChunks(spec, facts, limits.maxSchemas);
  if (operations.length === 0 && schemas.chunks.length === 0) {
    throw new SpecError('The spec describes no operations and no schemas ("paths" is empty): there is nothing to search for');
  }
  const overview = [...apiChunks(spec, facts, tagDescriptions), profileChunk(facts, operations)];
  const room = Math.max(0, limits.maxChunks - overview.length);
  const keptOperations = operations.slice(0, room);
  const keptSchemas = schemas.chunks.slice(0, room - keptOperations.length);
  const warnings: string[] = [];
  if (keptOperations.length < operations.length || keptSchemas.length < schemas.chunks.length) {
    warnings.push(
      `Indexed ${count(keptOperations.length)} of ${count(operations.length)} operations and ${count(keptSchemas.length)} of ${count(schemas.chunks.length)} schemas: ` +
        `an API may have ${count(limits.maxChunks)} chunks (INDEX_MAX_CHUNKS); the rest cannot be found by search`,
    );
  }
  if (schemas.total > limits.maxSchemas) {
    warnings.push(`Indexed the first ${count(limits.maxSchemas)} of ${count(schemas.total)} schemas (INDEX_MAX_SCHEMAS); the rest cannot be found by search`);
  }
  const chunks = [...overview, ...keptOperations, ...keptSchemas];
  const long = chunks.filter((chunk) => chunk.embedText.length > limits.maxEmbedChars);
  if (long.length > 0) {
    const [noun, verb, pronoun] = long.length === 1 ? ['chunk', 'was', 'its'] : ['chunks', 'were', 'their'];
    warnings.push(`${count(long.length)} ${noun} ${verb} embedded from ${pronoun} first ${count(limits.maxEmbedChars)} characters (EMBED_MAX_CHARS)`);
  }
  return { chunks: chunks.map((chunk) => ({ ...chunk, embedText: truncate(chunk.embedText, limits.maxEmbedChars) })), warnings };
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

/**
 * What the API does, in one L1 chunk: its operations' summaries side by side. Matching one
 * operation finds an endpoint; this finds the API whose operations together fit the need, and
 * gives a small API the same single chance in the candidate lists as a large one.
 */
function profileChunk(facts: ApiFacts, operations: SpecChunk[]): SpecChunk {
  const abilities = [...new Set(operations.map((op) => op.summary ?? humanize(op.operationId)).filter((text): text is string => Boolean(text)))];
  const text = truncate(abilities.join('; '), PROFILE_CHARS);
  return {
    key: 'api#profile',
    level: 'L1',
    title: `${facts.name} — what it does`,
    text: text || `${facts.name} has no documented operations`,
    embedText: `[${facts.name}] ${text}`,
    tags: [],
  };
}

/** What a card shows of an API registered without a description: the start of the spec's own. */
export function specDescription(spec: LoadedSpec): string | undefined {
  const info = isObject(spec.document.info) ? spec.document.info : {};
  return truncate(cleanText(info.description), CARD_DESCRIPTION_CHARS) || undefined;
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function apiChunks(spec: LoadedSpec, facts: ApiFacts, tags: Map<string, string>): SpecChunk[] {
  const doc = spec.document;
  const info = isObject(doc.info) ? doc.info : {};
  const description = truncate(cleanText(facts.description) || cleanText(info.description), L1_PART_CHARS * MAX_L1_PARTS);
  const serverList = servers(spec);
  const schemes = securitySchemes(spec);
  const lines = [
    `${facts.name} (version ${facts.version})`,
    facts.teamName ? `Team: ${facts.teamName}` : '',
    description ? truncate(description, L1_PART_CHARS) : '',
    tags.size ? `Tags: ${[...tags].map(([name, text]) => (text ? `${name} (${truncate(text, 120)})` : name)).join('; ')}` : '',
    serverList.length ? `Servers: ${serverList.join(', ')}` : '',
    schemes.length ? `Security: ${schemes.join(', ')}` : '',
  ].filter(Boolean);
  const prefix = `[${facts.name}]`;
  // Servers and security schemes help keyword search but only blur the meaning of the embedding.
  const embedText = [prefix, truncate(description, L1_EMBED_CHARS), tags.size ? `Tags: ${[...tags.keys()].join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  const chunks: SpecChunk[] = [{ key: 'api', level: 'L1', title: facts.name, text: lines.join('\n'), embedText, tags: [...tags.keys()] }];
  // A long description continues in further L1 chunks instead of being lost.
  splitText(description, L1_PART_CHARS)
    .slice(1)
    .forEach((part, index) => {
      chunks.push({
        key: `api#${index + 2}`,
        level: 'L1',
        title: `${facts.name} — overview (part ${index + 2})`,
        text: part,
        embedText: `${prefix} ${part}`,
        tags: [],
      });
    });
  return chunks;
}

function operationChunks(spec: LoadedSpec, facts: ApiFacts): SpecChunk[] {
  return operationEntries(spec.document).map(({ method, path, operation, sharedParameters }) =>
    operationChunk(spec, facts, method, path, operation, sharedParameters),
  );
}

function operationChunk(
  spec: LoadedSpec,
  facts: ApiFacts,
  method: string,
  path: string,
  op: Record<string, unknown>,
  sharedParameters: unknown[],
): SpecChunk {
  const summary = truncate(cleanText(op.summary), DESCRIPTION_CHARS);
  const description = truncate(cleanText(op.description), DESCRIPTION_CHARS);
  const operationId = typeof op.operationId === 'string' ? op.operationId : undefined;
  const tags = operationTags(op);
  const parameters = mergeParameters(sharedParameters, Array.isArray(op.parameters) ? op.parameters : []);
  const bodyFields = requestFields(spec, op, parameters);
  const responses = responseLines(spec, op);
  const paramLines = parameters
    .filter((p) => p.in !== 'body')
    .map((p) => `${p.name} (${p.in})${p.description ? `: ${truncate(p.description, 120)}` : ''}`);

  const lines = [
    `${method} ${path}`,
    summary,
    description && description !== summary ? description : '',
    operationId ? `Operation: ${operationId}` : '',
    tags.length ? `Tags: ${tags.join(', ')}` : '',
    paramLines.length ? `Parameters: ${paramLines.join('; ')}` : '',
    bodyFields.length ? `Request body: ${bodyFields.join(', ')}` : '',
    responses.length ? `Responses: ${responses.join('; ')}` : '',
  ].filter(Boolean);
  // What a card shows of it: the description's first sentence when the spec gives no summary.
  const shown = operationSummary(op);
  const title = shown ? `${method} ${path} — ${truncate(shown, 120)}` : `${method} ${path}`;
  const embedParts = [summary, description && description !== summary ? truncate(description, 300) : '', humanize(operationId), tags.join(', ')];
  return {
    key: `op:${method} ${path}`,
    level: 'L2',
    title,
    text: lines.join('\n'),
    embedText: `[${facts.name} · ${method} ${path}] ${embedParts.filter(Boolean).join('. ')}`,
    method,
    path,
    operationId,
    summary: shown || undefined,
    tags,
  };
}

/** L3 chunks of the first `max` named schemas with something to say, and how many there are in all. */
function schemaChunks(spec: LoadedSpec, facts: ApiFacts, max: number): { chunks: SpecChunk[]; total: number } {
  const doc = spec.document;
  const schemas =
    spec.flavor === 'swagger-2.0'
      ? doc.definitions
      : isObject(doc.components)
        ? doc.components.schemas
        : undefined;
  if (!isObject(schemas)) return { chunks: [], total: 0 };
  const named = Object.entries(schemas);
  const chunks: SpecChunk[] = [];
  for (const [name, schema] of named.slice(0, max)) {
    if (!isObject(schema)) continue;
    const description = truncate(cleanText(schema.description), DESCRIPTION_CHARS);
    const fields = describeFields(schema);
    if (!description && fields.length === 0) continue;
    const lines = [`Schema ${name}`, description, fields.length ? `Fields: ${fields.join('; ')}` : ''].filter(Boolean);
    chunks.push({
      key: `schema:${name}`,
      level: 'L3',
      title: `${name} schema`,
      text: lines.join('\n'),
      embedText: `[${facts.name} · schema ${name}] ${[description, fieldNames(schema).join(', ')].filter(Boolean).join('. ')}`,
      tags: [],
    });
  }
  return { chunks, total: named.length };
}

interface Parameter {
  name: string;
  in: string;
  description: string;
  schema?: unknown;
}

function mergeParameters(shared: unknown[], own: unknown[]): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...shared, ...own]) {
    if (!isObject(raw) || typeof raw.name !== 'string') continue;
    const param = { name: raw.name, in: String(raw.in ?? ''), description: cleanText(raw.description), schema: raw.schema };
    byKey.set(`${param.in}:${param.name}`, param);
  }
  return [...byKey.values()];
}

function requestFields(spec: LoadedSpec, op: Record<string, unknown>, parameters: Parameter[]): string[] {
  if (spec.flavor === 'swagger-2.0') {
    const body = parameters.find((p) => p.in === 'body');
    const formFields = parameters.filter((p) => p.in === 'formData').map((p) => p.name);
    return [...(body ? fieldNames(body.schema) : []), ...formFields].slice(0, MAX_FIELDS);
  }
  const requestBody = isObject(op.requestBody) ? op.requestBody : undefined;
  return fieldNames(firstContentSchema(requestBody?.content)).slice(0, MAX_FIELDS);
}

function responseLines(spec: LoadedSpec, op: Record<string, unknown>): string[] {
  if (!isObject(op.responses)) return [];
  return Object.entries(op.responses)
    .filter(([, response]) => isObject(response))
    .slice(0, 8)
    .map(([code, raw]) => {
      const response = raw as Record<string, unknown>;
      const description = truncate(cleanText(response.description), 100);
      const schema = spec.flavor === 'swagger-2.0' ? response.schema : firstContentSchema(response.content);
      const fields = code.startsWith('2') ? fieldNames(schema).slice(0, MAX_FIELDS) : [];
      return [code, description, fields.length ? `fields ${fields.join(', ')}` : ''].filter(Boolean).join(' ');
    });
}

function firstContentSchema(content: unknown): unknown {
  if (!isObject(content)) return undefined;
  const json = Object.entries(content).find(([type]) => /json/i.test(type)) ?? Object.entries(content)[0];
  return json && isObject(json[1]) ? json[1].schema : undefined;
}

/** Top-level property names of a schema, looking through arrays and allOf/oneOf/anyOf. */
export function fieldNames(schema: unknown, depth = 0): string[] {
  if (!isObject(schema) || depth > 3) return [];
  const names = new Set<string>();
  if (isObject(schema.properties)) Object.keys(schema.properties).forEach((name) => names.add(name));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const parts = schema[key];
    if (Array.isArray(parts)) parts.forEach((part) => fieldNames(part, depth + 1).forEach((name) => names.add(name)));
  }
  if (names.size === 0 && schema.items) fieldNames(schema.items, depth + 1).forEach((name) => names.add(name));
  return [...names];
}

function describeFields(schema: Record<string, unknown>): string[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  return fieldNames(schema)
    .slice(0, MAX_FIELDS)
    .map((name) => {
      const property = properties[name];
      const description = isObject(property) ? truncate(cleanText(property.description), 100) : '';
      return description ? `${name}: ${description}` : name;
    });
}

function readTags(raw: unknown): Map<string, string> {
  const tags = new Map<string, string>();
  if (!Array.isArray(raw)) return tags;
  for (const tag of raw) {
    if (isObject(tag) && typeof tag.name === 'string') tags.set(tag.name, cleanText(tag.description));
  }
  return tags;
}

function servers(spec: LoadedSpec): string[] {
  const doc = spec.document;
  if (spec.flavor === 'swagger-2.0') {
    return typeof doc.host === 'string' ? [`${doc.host}${typeof doc.basePath === 'string' ? doc.basePath : ''}`] : [];
  }
  return Array.isArray(doc.servers)
    ? doc.servers.flatMap((s) => (isObject(s) && typeof s.url === 'string' ? [s.url] : [])).slice(0, 5)
    : [];
}

function securitySchemes(spec: LoadedSpec): string[] {
  const doc = spec.document;
  const schemes = spec.flavor === 'swagger-2.0' ? doc.securityDefinitions : isObject(doc.components) ? doc.components.securitySchemes : undefined;
  if (!isObject(schemes)) return [];
  return Object.entries(schemes).map(([name, scheme]) => (isObject(scheme) && scheme.type ? `${name} (${String(scheme.type)})` : name));
}

/** `listUserPlaylists` → `list user playlists`, so the words embed and match. */
export function humanize(identifier: string | undefined): string {
  if (!identifier) return '';
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .toLowerCase()
    .trim();
}
