import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How close each signal's need is to needs in general (`need_background`), under the model's
 * need-matching fit named by `need_matching` (`NeedMatching.version`): a later query counts a
 * signal only when it expresses the same need (`needMatch`). Signals of an older fit are measured
 * again when a new one is made; until then only the same need counts for them.
 */
export class FeedbackNeedMatching1764680000022 implements MigrationInterface {
  name = 'FeedbackNeedMatching1764680000022';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.search_feedback ADD COLUMN need_background real, ADD COLUMN need_matching text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.search_feedback DROP COLUMN need_background, DROP COLUMN need_matching`);
  }
}
