import type { DataSource } from 'typeorm';
import { type AiTestDatabase, migratedAiDatabase } from './support/ai-database.js';

const API = '00000000-0000-4000-8000-000000000001';

/**
 * Migration 11 redefines the chunks' full-text vector (a path's words become searchable) and
 * rebuilds what is derived from it: postings, the APIs' word counts and the lexicon. Run up,
 * down and up again over an indexed chunk on a throwaway PGlite.
 */
describe('PathWordsInSearchVector migration (PGlite)', () => {
  let database: AiTestDatabase;
  let db: DataSource;

  const words = async () => {
    const [row]: { vector: string[]; postings: string[]; apiTerms: string[]; lexicon: string[]; termCount: number }[] = await db.query(
      `SELECT (SELECT array_agg(w.lexeme ORDER BY w.lexeme) FROM platform_ai.api_chunks c, unnest(c.search_vector) w) AS vector,
         (SELECT array_agg(lexeme ORDER BY lexeme) FROM platform_ai.chunk_terms) AS postings,
         (SELECT array_agg(lexeme ORDER BY lexeme) FROM platform_ai.api_terms) AS "apiTerms",
         (SELECT array_agg(word ORDER BY word) FROM platform_ai.lexicon) AS lexicon,
         (SELECT term_count FROM platform_ai.api_indexing_status) AS "termCount"`,
    );
    return row;
  };

  beforeAll(async () => {
    database = await migratedAiDatabase();
    db = database.db;
    await db.query(
      `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, indexed_revision, status, chunk_count) VALUES ($1, 'acme', 1, 1, 'COMPLETED', 1)`,
      [API],
    );
    await db.query(
      `INSERT INTO platform_ai.api_chunks (api_id, org_id, revision, level, chunk_key, title, content, method, path, model, content_hash, embedding)
       VALUES ($1, 'acme', 1, 'L2', 'op:POST /widgets/{id}/recalibrate', 'POST /widgets/{id}/recalibrate', 'POST /widgets/{id}/recalibrate', 'POST', '/widgets/{id}/recalibrate', 'hash-3', 'h', '[1,0,0]')`,
      [API],
    );
  }, 60_000);

  /** Undoes the later migrations, then this one. */
  const undoThrough = async (name: string) => {
    for (;;) {
      const [last]: { name: string }[] = await db.query(`SELECT name FROM ai_migrations ORDER BY timestamp DESC LIMIT 1`);
      await db.undoLastMigration({ transaction: 'each' });
      if (last.name === name) return;
    }
  };

  afterAll(async () => {
    await database?.close();
  });

  it("should index a path's words, and rebuild everything derived from the vector both ways", async () => {
    // Rows written after the migration, before any rebuild: only the generated vector knows the words.
    expect((await words()).vector).toEqual(expect.arrayContaining(['recalibr', 'widget']));

    await undoThrough('PathWordsInSearchVector1764680000011');
    const before = await words();
    expect(before.vector).not.toContain('recalibr');
    expect(before.postings).toEqual(before.vector);
    expect(before.apiTerms).toEqual(before.vector);
    expect(before.lexicon).toEqual(before.vector);

    await db.runMigrations({ transaction: 'each' });
    const after = await words();
    expect(after.vector).toEqual(expect.arrayContaining(['recalibr', 'widget']));
    expect(after.postings).toEqual(after.vector);
    expect(after.apiTerms).toEqual(after.vector);
    expect(after.lexicon).toEqual(after.vector);
    expect(after.termCount).toBeGreaterThan(before.termCount);
  });
});
