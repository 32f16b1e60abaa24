import pgvector from 'pgvector';
import type { EntityManager } from 'typeorm';
import type { SpecChunk } from '#api-specs';
import { liveChunk } from '../scope/live.js';

export interface EmbeddedChunk extends SpecChunk {
  contentHash: string;
  embedding: number[];
}

/** Where chunk rows belong. */
export interface ChunkOwner {
  apiId: string;
  orgId: string;
  revision: number;
}

/** Rows of one INSERT. */
const INSERT_BATCH = 200;
const CHUNK_COLUMNS = [
  'api_id',
  'org_id',
  'revision',
  'level',
  'chunk_key',
  'title',
  'content',
  'method',
  'path',
  'operation_id',
  'summary',
  'tags',
  'model',
  'content_hash',
  'embedding',
  'generation',
] as const;

/**
 * Writes one model's chunks of an API, and keyword search's postings for them: each word's text
 * rank in each chunk (title words count more, long chunks less), computed once here instead of at
 * every search. Deleting a chunk deletes its postings. Words with a backslash, which search never
 * asks for, are left out. `generation`: the staged generation they belong to (null: live at once).
 */
export async function insertChunks(
  manager: EntityManager,
  owner: ChunkOwner,
  model: string,
  chunks: EmbeddedChunk[],
  generation: string | null,
): Promise<void> {
  for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
    const ids = await insertBatch(manager, owner, model, chunks.slice(start, start + INSERT_BATCH), generation);
    await manager.query(
      `INSERT INTO platform_ai.chunk_terms (chunk_id, org_id, api_id, model, level, lexeme, rank, generation)
       SELECT c.id, c.org_id, c.api_id, c.model, c.level, w.lexeme, ts_rank(c.search_vector, to_tsquery('simple', quote_literal(w.lexeme)), 1), c.generation
       FROM platform_ai.api_chunks c, unnest(c.search_vector) w
       WHERE c.id = ANY($1) AND strpos(w.lexeme, E'\\\\') = 0`,
      [ids],
    );
  }
}

async function insertBatch(manager: EntityManager, owner: ChunkOwner, model: string, chunks: EmbeddedChunk[], generation: string | null): Promise<string[]> {
  const params: unknown[] = [];
  const tuples = chunks.map((chunk) => {
    const values = [
      owner.apiId,
      owner.orgId,
      owner.revision,
      chunk.level,
      chunk.key,
      chunk.title,
      chunk.text,
      chunk.method ?? null,
      chunk.path ?? null,
      chunk.operationId ?? null,
      chunk.summary ?? null,
      chunk.tags,
      model,
      chunk.contentHash,
      pgvector.toSql(chunk.embedding),
      generation,
    ];
    const placeholders = values.map((value) => {
      params.push(value);
      return `$${params.length}`;
    });
    placeholders[placeholders.length - 2] += '::vector';
    return `(${placeholders.join(', ')})`;
  });
  const rows: { id: string }[] = await manager.query(
    `INSERT INTO platform_ai.api_chunks (${CHUNK_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} RETURNING id`,
    params,
  );
  return rows.map((row) => row.id);
}

/** Takes the API's live rows out of the word statistics, then deletes them; returns how many. */
export async function removeLiveChunks(manager: EntityManager, apiId: string, orgId: string): Promise<number> {
  await countWords(manager, apiId, orgId, -1);
  const [, removed]: [unknown, number] = await manager.query(`DELETE FROM platform_ai.api_chunks c WHERE c.api_id = $1 AND ${liveChunk('c')}`, [apiId]);
  return removed;
}

/**
 * Adds (or takes away) the API's live chunks to the org's word statistics: the lexicon's chunk
 * counts (words in a fixed order, so concurrent workers never deadlock) and the API's own word
 * counts for API-level keyword relevance. Every change to an API's live chunks is wrapped in a
 * take-away before and an add after. A chunk held for two models (during a switch) counts once.
 */
export async function countWords(manager: EntityManager, apiId: string, orgId: string, sign: 1 | -1): Promise<void> {
  await manager.query(
    `INSERT INTO platform_ai.lexicon (org_id, word, chunk_count)
     SELECT $2, w.lexeme, $3 * count(DISTINCT c.chunk_key) FROM platform_ai.api_chunks c, unnest(c.search_vector) w
     WHERE c.api_id = $1 AND ${liveChunk('c')} GROUP BY w.lexeme ORDER BY w.lexeme
     ON CONFLICT (org_id, word) DO UPDATE SET chunk_count = lexicon.chunk_count + excluded.chunk_count`,
    [apiId, orgId, sign],
  );
  if (sign < 0) {
    await manager.query(`DELETE FROM platform_ai.lexicon WHERE org_id = $1 AND chunk_count <= 0`, [orgId]);
    await manager.query(`DELETE FROM platform_ai.api_terms WHERE api_id = $1`, [apiId]);
    return;
  }
  // Words with a backslash, which search never asks for, are left out.
  await manager.query(
    `INSERT INTO platform_ai.api_terms (api_id, org_id, lexeme, occurrences)
     SELECT $1, $2, w.lexeme, sum(coalesce(array_length(w.positions, 1), 1))
     FROM (SELECT DISTINCT ON (chunk_key) search_vector FROM platform_ai.api_chunks c WHERE c.api_id = $1 AND ${liveChunk('c')}) c, unnest(c.search_vector) w
     WHERE strpos(w.lexeme, E'\\\\') = 0
     GROUP BY w.lexeme`,
    [apiId, orgId],
  );
  await manager.query(
    `UPDATE platform_ai.api_indexing_status SET term_count = (SELECT sum(occurrences) FROM platform_ai.api_terms WHERE api_id = $1) WHERE api_id = $1`,
    [apiId],
  );
}
