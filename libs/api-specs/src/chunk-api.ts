import { createHash } from 'node:crypto';
import { cleanText, splitText, truncate } from './clean-text.js';
import type { ApiModel, ApiModelOperation, ApiModelSchema } from '#contracts';
import { boundModel } from './model-limits.js';
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
  /** Stable within one API: `api`, `api#2`, `op:GET /pets` (`op:MUTATION closePullRequest`…), `schema:Pet`. */
  key: string;
  level: ChunkLevel;
  title: string;
  /** Clean text: stored, shown as a snippet and indexed for keywords. */
  text: string;
  /** What is embedded: `text` with a short context prefix naming the API (and operation). */
  embedText: string;
  /** An operation's verb and address in its kind's notation (see `ApiModel`). */
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
const SUMMARY_CHARS = 200;

/**
 * Cuts an API of any kind into L1 (API), L2 (operation) and L3 (named schema) chunks, within
 * `limits`. Only the format-neutral model is read here: a format's plugin fills it.
 */
export function chunkApi(spec: ApiModel, facts: ApiFacts, limits: ChunkLimits = DEFAULT_CHUNK_LIMITS): ChunkedSpec {
  const model = boundModel(spec);
  const operations = model.operations.map((operation) => operationChunk(facts, operation));
  const schemas = model.schemas.slice(0, limits.maxSchemas).flatMap((schema) => schemaChunk(facts, schema));
  if (operations.length === 0 && schemas.length === 0) {
    throw new SpecError('The spec describes no operations and no schemas: there is nothing to search for');
  }
  const overview = [...apiChunks(model, facts), profileChunk(facts, operations)];
  const room = Math.max(0, limits.maxChunks - overview.length);
  const keptOperations = operations.slice(0, room);
  const keptSchemas = schemas.slice(0, room - keptOperations.length);
  const warnings: string[] = [];
  if (keptOperations.length < operations.length || keptSchemas.length < schemas.length) {
    warnings.push(
      `Indexed ${count(keptOperations.length)} of ${count(operations.length)} operations and ${count(keptSchemas.length)} of ${count(schemas.length)} schemas: ` +
        `an API may have ${count(limits.maxChunks)} chunks (INDEX_MAX_CHUNKS); the rest cannot be found by search`,
    );
  }
  if (model.schemas.length > limits.maxSchemas) {
    warnings.push(
      `Indexed the first ${count(limits.maxSchemas)} of ${count(model.schemas.length)} schemas (INDEX_MAX_SCHEMAS); the rest cannot be found by search`,
    );
  }
  const chunks = uniqueKeys([...overview, ...keptOperations, ...keptSchemas]);
  const long = chunks.filter((chunk) => chunk.embedText.length > limits.maxEmbedChars);
  if (long.length > 0) {
    const [noun, verb, pronoun] = long.length === 1 ? ['chunk', 'was', 'its'] : ['chunks', 'were', 'their'];
    warnings.push(`${count(long.length)} ${noun} ${verb} embedded from ${pronoun} first ${count(limits.maxEmbedChars)} characters (EMBED_MAX_CHARS)`);
  }
  return { chunks: chunks.map((chunk) => ({ ...chunk, embedText: truncate(chunk.embedText, limits.maxEmbedChars) })), warnings };
}

/**
 * Keys made unique within the API: an OpenAPI method and path are, but other kinds may name the
 * same verb and address twice (AsyncAPI 3.0 operations that send on one channel; schemas of the
 * same name in different proto packages). The second becomes `op:SEND /#2`, and so on.
 */
function uniqueKeys(chunks: SpecChunk[]): SpecChunk[] {
  const seen = new Map<string, number>();
  return chunks.map((chunk) => {
    const times = (seen.get(chunk.key) ?? 0) + 1;
    seen.set(chunk.key, times);
    return times === 1 ? chunk : { ...chunk, key: `${chunk.key}#${times}` };
  });
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
export function modelDescription(model: ApiModel): string | undefined {
  return truncate(model.description ?? '', CARD_DESCRIPTION_CHARS) || undefined;
}

/**
 * An operation's one-line summary: its own, or else the first sentence of its description (many
 * specs, Stripe's among them, describe operations only there). A line, not a manual: bounded.
 */
export function headline({ summary, description }: Pick<ApiModelOperation, 'summary' | 'description'>): string {
  const own = truncate(summary ?? '', SUMMARY_CHARS);
  if (own) return own;
  const text = description ?? '';
  const sentenceEnd = text.search(/[.!?](\s|$)/);
  return truncate(sentenceEnd > 0 ? text.slice(0, sentenceEnd + 1) : text, SUMMARY_CHARS);
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function apiChunks(model: ApiModel, facts: ApiFacts): SpecChunk[] {
  const tags = new Map<string, string>();
  for (const tag of model.tags) tags.set(tag.name, tag.description ?? '');
  const description = truncate(cleanText(facts.description) || (model.description ?? ''), L1_PART_CHARS * MAX_L1_PARTS);
  const schemes = model.securitySchemes.map(({ name, type }) => (type ? `${name} (${type})` : name));
  const lines = [
    `${facts.name} (version ${facts.version})`,
    facts.teamName ? `Team: ${facts.teamName}` : '',
    description ? truncate(description, L1_PART_CHARS) : '',
    tags.size ? `Tags: ${[...tags].map(([name, text]) => (text ? `${name} (${truncate(text, 120)})` : name)).join('; ')}` : '',
    model.servers.length ? `Servers: ${model.servers.join(', ')}` : '',
    schemes.length ? `Security: ${schemes.join(', ')}` : '',
  ].filter(Boolean);
  const prefix = `[${facts.name}]`;
  // Servers and security schemes help keyword search but only blur the meaning of the embedding.
  const embedText = [prefix, truncate(description, L1_EMBED_CHARS), tags.size ? `Tags: ${[...tags.keys()].join(', ')}` : ''].filter(Boolean).join(' ');
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

function operationChunk(facts: ApiFacts, op: ApiModelOperation): SpecChunk {
  const { method, path, operationId, tags } = op;
  const summary = truncate(op.summary ?? '', DESCRIPTION_CHARS);
  const description = truncate(op.description ?? '', DESCRIPTION_CHARS);
  // A named kind's name says what the operation does, but the keyword index reads a camelCase
  // one ("AddSecretVersion", "addToCart") as one word: the words of it that the operation's text
  // does not say already are added. (Not a REST operationId: often generated, "post-patch-id".)
  const name = op.name ? unsaid(humanize(op.name), [path, summary, description]) : '';
  const inputs = op.inputs.map((input) => `${input.name} (${input.in})${input.description ? `: ${truncate(input.description, 120)}` : ''}`);
  const lines = [
    `${method} ${path}`,
    summary,
    description && description !== summary ? description : '',
    operationId ? `Operation: ${operationId}${name ? ` (${name})` : ''}` : '',
    tags.length ? `Tags: ${tags.join(', ')}` : '',
    inputs.length ? `Parameters: ${inputs.join('; ')}` : '',
    op.body?.fields.length ? `${op.body.label}: ${op.body.fields.slice(0, MAX_FIELDS).join(', ')}` : '',
    op.outputs?.lines.length ? `${op.outputs.label}: ${op.outputs.lines.join('; ')}` : '',
  ].filter(Boolean);
  // What a card shows of it: the description's first sentence when the spec gives no summary.
  const shown = headline(op);
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

/** An L3 chunk of a named schema with something to say. */
function schemaChunk(facts: ApiFacts, schema: ApiModelSchema): SpecChunk[] {
  const { name } = schema;
  const description = truncate(schema.description ?? '', DESCRIPTION_CHARS);
  const fields = schema.fields.slice(0, MAX_FIELDS).map((field) => (field.description ? `${field.name}: ${truncate(field.description, 100)}` : field.name));
  if (!description && fields.length === 0) return [];
  const lines = [`Schema ${name}`, description, fields.length ? `Fields: ${fields.join('; ')}` : ''].filter(Boolean);
  return [
    {
      key: `schema:${name}`,
      level: 'L3',
      title: `${name} schema`,
      text: lines.join('\n'),
      embedText: `[${facts.name} · schema ${name}] ${[description, schema.fields.map((field) => field.name).join(', ')].filter(Boolean).join('. ')}`,
      tags: [],
    },
  ];
}

/** The words of `words` that none of `texts` holds (as a word, up to a plural's or a verb's final "s"). */
function unsaid(words: string, texts: string[]): string {
  const key = (word: string) => word.replace(/s$/, '');
  const said = new Set(
    texts
      .join(' ')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .map(key),
  );
  return [...new Set(words.split(' '))].filter((word) => word && !said.has(key(word))).join(' ');
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
