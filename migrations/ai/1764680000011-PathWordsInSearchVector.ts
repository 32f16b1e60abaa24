import type { MigrationInterface, QueryRunner } from 'typeorm';

const TITLE_AND_CONTENT = `setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')`;
/**
 * A path is one token to the text parser ("/me/player/currently-playing"), so its words were
 * searchable only where an operationId or summary repeated them, and 31% of the eval corpus's
 * operations have no operationId. The path's words now count like the title's.
 */
const WITH_PATH_WORDS = `setweight(to_tsvector('english', title), 'A')
  || setweight(to_tsvector('english', coalesce(regexp_replace(path, '[^[:alnum:]]+', ' ', 'g'), '')), 'A')
  || setweight(to_tsvector('english', content), 'B')`;

/** Redefines the chunks' full-text vector and rebuilds everything derived from it. */
export class PathWordsInSearchVector1764680000011 implements MigrationInterface {
  name = 'PathWordsInSearchVector1764680000011';

  async up(queryRunner: QueryRunner): Promise<void> {
    await redefineSearchVector(queryRunner, WITH_PATH_WORDS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await redefineSearchVector(queryRunner, TITLE_AND_CONTENT);
  }
}

/**
 * PostgreSQL 15 cannot change a generated column's expression in place: the column (and its GIN
 * index) is dropped and added again, then the postings, the APIs' word counts and the lexicon
 * are rebuilt as IndexStoreService writes them.
 */
async function redefineSearchVector(queryRunner: QueryRunner, expression: string): Promise<void> {
  await queryRunner.query(`ALTER TABLE platform_ai.api_chunks DROP COLUMN search_vector`);
  await queryRunner.query(`ALTER TABLE platform_ai.api_chunks ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${expression}) STORED`);
  await queryRunner.query(`CREATE INDEX api_chunks_search_idx ON platform_ai.api_chunks USING gin (search_vector)`);

  await queryRunner.query(`TRUNCATE platform_ai.chunk_terms`);
  await queryRunner.query(`
    INSERT INTO platform_ai.chunk_terms (chunk_id, org_id, api_id, model, level, lexeme, rank)
    SELECT c.id, c.org_id, c.api_id, c.model, c.level, w.lexeme, ts_rank(c.search_vector, to_tsquery('simple', quote_literal(w.lexeme)), 1)
    FROM platform_ai.api_chunks c, unnest(c.search_vector) w
    WHERE strpos(w.lexeme, E'\\\\') = 0`);

  await queryRunner.query(`TRUNCATE platform_ai.api_terms`);
  await queryRunner.query(`
    INSERT INTO platform_ai.api_terms (api_id, org_id, lexeme, occurrences)
    SELECT c.api_id, c.org_id, w.lexeme, sum(coalesce(array_length(w.positions, 1), 1))
    FROM (SELECT DISTINCT ON (api_id, chunk_key) api_id, org_id, search_vector FROM platform_ai.api_chunks) c, unnest(c.search_vector) w
    WHERE strpos(w.lexeme, E'\\\\') = 0
    GROUP BY c.api_id, c.org_id, w.lexeme`);
  await queryRunner.query(`
    UPDATE platform_ai.api_indexing_status s SET term_count = t.total
    FROM (SELECT api_id, sum(occurrences) AS total FROM platform_ai.api_terms GROUP BY api_id) t
    WHERE t.api_id = s.api_id`);

  await queryRunner.query(`TRUNCATE platform_ai.lexicon`);
  await queryRunner.query(`
    INSERT INTO platform_ai.lexicon (org_id, word, chunk_count)
    SELECT c.org_id, w.lexeme, count(*)
    FROM (SELECT DISTINCT ON (api_id, chunk_key) org_id, search_vector FROM platform_ai.api_chunks) c, unnest(c.search_vector) w
    GROUP BY c.org_id, w.lexeme`);
}
