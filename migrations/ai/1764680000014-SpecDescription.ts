import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the spec says of itself (`info.description`, cleaned and cut), for the cards of APIs
 * registered without a description. Filled when a revision is indexed: an admin re-index fills
 * it for APIs indexed before.
 */
export class SpecDescription1764680000014 implements MigrationInterface {
  name = 'SpecDescription1764680000014';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.api_specs ADD COLUMN spec_description text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_ai.api_specs DROP COLUMN spec_description`);
  }
}
