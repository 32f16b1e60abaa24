import type { DataSource, EntityManager } from 'typeorm';
import { buildKeywordQuery } from '../apps/ai/src/search/keyword-query.js';
import { type AiTestDatabase, migratedAiDatabase } from './support/ai-database.js';

/**
 * A query's keyword terms against an org's lexicon, on a throwaway PGlite: typos corrected from
 * the nearest words by trigrams, a word spelt right only to another form of itself.
 */
describe('buildKeywordQuery (PGlite)', () => {
  let database: AiTestDatabase;
  let db: DataSource;
  const lexicon: Record<string, number> = { payment: 40, refund: 10, neighbor: 5, neighborhood: 3, cloud: 20, read: 30, travel: 8, credit: 6, cert: 12 };

  beforeAll(async () => {
    database = await migratedAiDatabase();
    db = database.db;
    await db.query(
      `INSERT INTO platform_ai.api_indexing_status (api_id, org_id, revision, indexed_revision, status, chunk_count)
       VALUES ('00000000-0000-4000-8000-000000000001', 'acme', 1, 1, 'COMPLETED', 100)`,
    );
    for (const [word, count] of Object.entries(lexicon)) {
      await db.query(`INSERT INTO platform_ai.lexicon (org_id, word, chunk_count) VALUES ('acme', $1, $2)`, [word, count]);
    }
  }, 60_000);

  afterAll(async () => {
    await database?.close();
  });

  const terms = async (text: string) =>
    Object.fromEntries(((await buildKeywordQuery(db.manager, 'acme', text))?.terms ?? []).map((term) => [term.correctedFrom ?? term.lexeme, term.lexeme]));

  it('should correct a typo to the nearest word the org uses', async () => {
    expect(await terms('paymnet refunds')).toEqual({ paymnet: 'payment', refund: 'refund' });
  });

  it('should undo a swap or a dropped letter before looking for words near a typo', async () => {
    // "cert" is as many edits from "cerdit" and nearer by trigrams.
    expect(await terms('cerdit refnud paymnt')).toEqual({ cerdit: 'credit', refnud: 'refund', paymnt: 'payment' });
  });

  it('should turn a word spelt right into another form of itself the org uses, and into nothing else', async () => {
    expect(await terms('neighbours travelling')).toEqual({ neighbour: 'neighbor', travel: 'travel' });
    // "aloud" is a word: not "cloud"; "lead" is a word: not "read".
    expect(await terms('read aloud lead')).toEqual({ read: 'read' });
  });

  it('should take the names the query was typed with over those its text shows', async () => {
    // "Is there an API for Taylor Swift's payments" without its opening starts with "Taylor".
    expect((await buildKeywordQuery(db.manager, 'acme', 'Taylor payments'))?.namesUnknownThing).toBe(false);
    expect((await buildKeywordQuery(db.manager, 'acme', 'Taylor payments', new Set(['taylor'])))?.namesUnknownThing).toBe(true);
  });

  it('should read the lexicon in two round trips, typos and all', async () => {
    let trips = 0;
    const counting = { query: (sql: string, params: unknown[]) => (trips++, db.manager.query(sql, params)) } as EntityManager;
    const query = await buildKeywordQuery(counting, 'acme', 'cerdit paymnet neighbours refunds aloud');
    expect(query?.terms.map((term) => term.correctedFrom ?? term.lexeme)).toEqual(['cerdit', 'paymnet', 'neighbour', 'refund']);
    expect(trips).toBe(2);
  });
});
