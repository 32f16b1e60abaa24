import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Learning from what people pick (see the AI app's feedback module): each search answer is logged
 * under its `searchId` for the feedback that names it, and each signal keeps the need it answered
 * (the query, its words and its vector), so a later search can find the signals given for needs
 * like its own. A person is stored only as a keyed hash. `feedback_versions` changes with every
 * signal and erasure of an org: the search result cache is keyed by it.
 */
export class SearchFeedback1764680000020 implements MigrationInterface {
  name = 'SearchFeedback1764680000020';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform_ai.searches (
        id uuid PRIMARY KEY,
        org_id text NOT NULL,
        query text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX searches_created_at_idx ON platform_ai.searches (created_at)`);
    await queryRunner.query(`
      CREATE TABLE platform_ai.search_feedback (
        org_id text NOT NULL,
        person text NOT NULL,
        search_id uuid NOT NULL,
        api_id uuid NOT NULL,
        method text NOT NULL DEFAULT '',
        path text NOT NULL DEFAULT '',
        helpful boolean NOT NULL,
        signal text NOT NULL,
        query text NOT NULL,
        lexemes text[] NOT NULL,
        model text NOT NULL,
        embedding vector NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, person, search_id, api_id, method, path)
      )`);
    await queryRunner.query(`CREATE INDEX search_feedback_need_idx ON platform_ai.search_feedback (org_id, model, updated_at)`);
    await queryRunner.query(`CREATE INDEX search_feedback_updated_at_idx ON platform_ai.search_feedback (updated_at)`);
    await queryRunner.query(`CREATE TABLE platform_ai.feedback_versions (org_id text PRIMARY KEY, version bigint NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_ai.feedback_versions`);
    await queryRunner.query(`DROP TABLE platform_ai.search_feedback`);
    await queryRunner.query(`DROP TABLE platform_ai.searches`);
  }
}
