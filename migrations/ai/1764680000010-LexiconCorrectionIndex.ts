import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Typo correction only proposes words made of letters (see `CORRECTABLE_WORD` in
 * keyword-query.ts, which must match this predicate for the planner to use the index). Paths,
 * ids and version strings are about a third of a lexicon (51.8k words → ~37.7k on the eval
 * corpus) and never what a user mistyped; leaving them out makes the nearest-word scan ~1.4×
 * cheaper, and a lexicon write for such a word skips the GiST.
 */
export class LexiconCorrectionIndex1764680000010 implements MigrationInterface {
  name = 'LexiconCorrectionIndex1764680000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_ai.lexicon_nearest_word_idx`);
    await queryRunner.query(
      `CREATE INDEX lexicon_correction_idx ON platform_ai.lexicon USING gist (org_id, word gist_trgm_ops)
       WHERE word !~ '[[:punct:][:digit:]]'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform_ai.lexicon_correction_idx`);
    await queryRunner.query(`CREATE INDEX lexicon_nearest_word_idx ON platform_ai.lexicon USING gist (org_id, word gist_trgm_ops)`);
  }
}
