import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Consumers, impact and notifications (#43).
 *
 * - `consumers`: who uses an API (a version, or whichever is recommended), naming the operations it
 *   calls or none; declared by a team, read from a tree's Backstage components (`catalog`, with
 *   the tree and the descriptor that hold them) or observed from a client token's MCP calls.
 * - `events`: the outbox of what happened, written in the transaction of the change; `seq` orders
 *   it, `dispatched_at` is set once its deliveries are made.
 * - `webhooks`, `webhook_deliveries` (one per event and webhook, its tries in `attempts`).
 * - `api_watches`: people who watch an API, for their notifications feed.
 * - `api_versions.sunset_notified`: the sunset date `api.sunset.approaching` was sent for (once per date).
 */
export class ConsumersAndNotifications1764680000008 implements MigrationInterface {
  name = 'ConsumersAndNotifications1764680000008';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE platform_backend.consumers (
         id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
         org_id text NOT NULL,
         api_id uuid NOT NULL REFERENCES platform_backend.apis(id) ON DELETE CASCADE,
         name text NOT NULL,
         team_name text,
         contact text,
         version text,
         operations jsonb NOT NULL DEFAULT '[]',
         source text NOT NULL CHECK (source IN ('declared', 'catalog', 'observed')),
         entity_ref text,
         tree text,
         catalog_path text,
         declared_by text,
         last_seen_at timestamptz NOT NULL DEFAULT now(),
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    // One consumer per API, source, name (any case), version and tree: declaring again updates it.
    await queryRunner.query(
      `CREATE UNIQUE INDEX consumers_identity_idx ON platform_backend.consumers (api_id, source, lower(name), coalesce(version, ''), coalesce(tree, ''))`,
    );
    await queryRunner.query(`CREATE INDEX consumers_org_idx ON platform_backend.consumers (org_id, lower(name))`);
    await queryRunner.query(`CREATE INDEX consumers_tree_idx ON platform_backend.consumers (org_id, tree) WHERE tree IS NOT NULL`);

    await queryRunner.query(
      `CREATE TABLE platform_backend.events (
         id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
         seq bigserial NOT NULL UNIQUE,
         org_id text NOT NULL,
         type text NOT NULL,
         api_id uuid,
         api_name text NOT NULL DEFAULT '',
         team_name text,
         data jsonb NOT NULL DEFAULT '{}',
         created_at timestamptz NOT NULL DEFAULT now(),
         dispatched_at timestamptz
       )`,
    );
    await queryRunner.query(`CREATE INDEX events_undispatched_idx ON platform_backend.events (seq) WHERE dispatched_at IS NULL`);
    await queryRunner.query(`CREATE INDEX events_api_idx ON platform_backend.events (api_id, seq DESC)`);

    await queryRunner.query(
      `CREATE TABLE platform_backend.webhooks (
         id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
         org_id text NOT NULL,
         url text NOT NULL,
         events text[] NOT NULL DEFAULT '{}',
         api_ids uuid[] NOT NULL DEFAULT '{}',
         team_names text[] NOT NULL DEFAULT '{}',
         description text,
         secret text NOT NULL,
         created_by text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         disabled_at timestamptz,
         disabled_reason text,
         consecutive_failures integer NOT NULL DEFAULT 0
       )`,
    );
    await queryRunner.query(`CREATE INDEX webhooks_org_idx ON platform_backend.webhooks (org_id)`);
    await queryRunner.query(
      `CREATE TABLE platform_backend.webhook_deliveries (
         id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
         webhook_id uuid NOT NULL REFERENCES platform_backend.webhooks(id) ON DELETE CASCADE,
         event_id uuid NOT NULL REFERENCES platform_backend.events(id) ON DELETE CASCADE,
         org_id text NOT NULL,
         state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
         attempts jsonb NOT NULL DEFAULT '[]',
         next_attempt_at timestamptz,
         created_at timestamptz NOT NULL DEFAULT now(),
         updated_at timestamptz NOT NULL DEFAULT now(),
         UNIQUE (webhook_id, event_id)
       )`,
    );
    await queryRunner.query(`CREATE INDEX webhook_deliveries_list_idx ON platform_backend.webhook_deliveries (webhook_id, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_pending_idx ON platform_backend.webhook_deliveries (next_attempt_at) WHERE state = 'pending'`);

    await queryRunner.query(
      `CREATE TABLE platform_backend.api_watches (
         api_id uuid NOT NULL REFERENCES platform_backend.apis(id) ON DELETE CASCADE,
         sub text NOT NULL,
         org_id text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (api_id, sub)
       )`,
    );
    await queryRunner.query(`CREATE INDEX api_watches_sub_idx ON platform_backend.api_watches (sub)`);
    await queryRunner.query(`ALTER TABLE platform_backend.api_versions ADD COLUMN sunset_notified text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_backend.api_versions DROP COLUMN sunset_notified`);
    await queryRunner.query(`DROP TABLE platform_backend.api_watches`);
    await queryRunner.query(`DROP TABLE platform_backend.webhook_deliveries`);
    await queryRunner.query(`DROP TABLE platform_backend.webhooks`);
    await queryRunner.query(`DROP TABLE platform_backend.events`);
    await queryRunner.query(`DROP TABLE platform_backend.consumers`);
  }
}
