import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LifecycleStage, LintReport, VersionSource } from '#contracts';

/** One version of an API: its stage and its current revision (migration ApiVersions). */
@Entity({ schema: 'platform_backend', name: 'api_versions' })
export class ApiVersionEntity {
  @PrimaryColumn({ name: 'api_id', type: 'uuid' })
  apiId: string;

  @PrimaryColumn({ type: 'text' })
  version: string;

  @Column({ type: 'text', default: 'production' })
  lifecycle: LifecycleStage;

  /** `YYYY-MM-DD`. */
  @Column({ name: 'sunset_date', type: 'date', nullable: true })
  sunsetDate: string | null;

  /** The kind of its current revision's spec. */
  @Column({ type: 'text' })
  kind: string;

  /** Its current revision (`ApiVersionRevisionEntity`). */
  @Column({ type: 'integer', default: 1 })
  revision: number;

  /** The file of a tree it is read from (migration TreeImports); `null` for a version sent by hand or from a URL. */
  @Column({ type: 'jsonb', nullable: true })
  source: VersionSource | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

/** A spec a version had: the newest `REVISIONS_KEPT` of each version are kept, for change reports. */
@Entity({ schema: 'platform_backend', name: 'api_version_revisions' })
export class ApiVersionRevisionEntity {
  @PrimaryColumn({ name: 'api_id', type: 'uuid' })
  apiId: string;

  @PrimaryColumn({ type: 'text' })
  version: string;

  @PrimaryColumn({ type: 'integer' })
  revision: number;

  @Column({ type: 'text' })
  kind: string;

  @Column({ type: 'text' })
  spec: string;

  /** Its lint findings, once linted (in the background after it was registered, or when first asked for). */
  @Column({ type: 'jsonb', nullable: true })
  lint: LintReport | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
