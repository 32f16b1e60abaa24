import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each search showed (`searches.shown`, copied to its signals): a later query whose content
 * ranking shares none of it is not the same need. How close each signal's need is to needs in general (`need_background`), under the model's
 * need-matching fit named by `need_matching` (`NeedMatching.version`): a later query counts a
 * signal only when it expresses the same need (`needMatch`). Signals of an older fit are measured
 * again when a new one is made; until then only the same need counts for them.
 */
export class FeedbackNeedMatching1764680000022 implements MigrationInterface {
  name = 'FeedbackNeedMatching1764680000022';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.searches ADD COLUMN shown text[] NOT NULL DEFAULT '{}'`);
    await queryRunner.query(
      `ALTER TABLE platform_ai.search_feedback ADD COLUMN shown text[] NOT NULL DEFAULT '{}', ADD COLUMN need_background real, ADD COLUMN need_matching text`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.search_feedback DROP COLUMN shown, DROP COLUMN need_background, DROP COLUMN need_matching`);
    await queryRunner.query(`ALTER TABLE platform_ai.searches DROP COLUMN shown`);
  }
}
