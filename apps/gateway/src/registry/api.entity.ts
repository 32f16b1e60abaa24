import type { ApiSource, CatalogInfo, LifecycleStage } from '#contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A registered API: its own details, and what search holds of it — its recommended version's
 * name, kind and stage (see `recommendedVersion`), kept with every change to its versions (which
 * hold the specs: `ApiVersionEntity`). Rows with `deletedAt` are tombstones, kept until the index
 * confirms the deletion.
 */
@Entity({ schema: 'platform_backend', name: 'apis' })
export class ApiEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'org_id', type: 'text' })
  orgId: string;

  @Column({ type: 'text' })
  name: string;

  /** The recommended version's. */
  @Column({ type: 'text' })
  version: string;

  @Column({ name: 'team_name', type: 'text', nullable: true })
  teamName: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** The org's labels (`LABEL_LIMITS`), values trimmed, keys sorted; `{}` when none (migration ApiLabels). */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  labels: Record<string, string>;

  /**
   * The kind of the `SpecFormat` that read the spec (`GET /api-management/kinds`). The column's
   * default is the schema's (migration ApiKinds): what every API registered before kinds existed was.
   */
  @Column({ type: 'text', default: 'openapi' })
  kind: string;

  /** The recommended version's stage, and sunset date when it is deprecated. */
  @Column({ type: 'text', default: 'production' })
  lifecycle: LifecycleStage;

  @Column({ name: 'sunset_date', type: 'date', nullable: true })
  sunsetDate: string | null;

  /** Where an imported API's spec comes from (migration ApiSources); `null` for one sent in a registration. */
  @Column({ type: 'jsonb', nullable: true })
  source: ApiSource | null;

  /** A Backstage entity's place in the catalogue, as its tree's descriptor says (migration TreeImports). */
  @Column({ type: 'jsonb', nullable: true })
  catalog: CatalogInfo | null;

  /** Increases with every change that search must see: the recommended version's spec, a stage, the details (the outbox sends each). */
  @Column({ type: 'integer', default: 1 })
  revision: number;

  /** The newest revision whose indexing job reached the queue (transactional outbox). */
  @Column({ name: 'queued_revision', type: 'integer', default: 0 })
  queuedRevision: number;

  @Column({ name: 'queued_at', type: 'timestamptz', nullable: true })
  queuedAt: Date | null;

  /** The newest revision the index is known to have reached: indexed, failed for good or deleted (reconciliation). */
  @Column({ name: 'settled_revision', type: 'integer', default: 0 })
  settledRevision: number;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
