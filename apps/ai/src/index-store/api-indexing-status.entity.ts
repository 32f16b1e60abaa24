import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { IndexingState, LifecycleStage } from '#contracts';

/** Where indexing of an API stands; `indexedRevision` is the revision whose chunks are live. */
@Entity({ schema: 'platform_ai', name: 'api_indexing_status' })
export class ApiIndexingStatusEntity {
  @PrimaryColumn({ name: 'api_id', type: 'uuid' })
  apiId: string;

  @Column({ name: 'org_id', type: 'text' })
  orgId: string;

  /** The newest revision received. */
  @Column({ type: 'integer' })
  revision: number;

  @Column({ name: 'indexed_revision', type: 'integer', nullable: true })
  indexedRevision: number | null;

  @Column({ type: 'text' })
  status: IndexingState;

  /**
   * The kind of API the live revision's spec is: the `SpecFormat` that read it. The column's
   * default is the schema's (migration ApiKinds): what every API indexed before kinds existed was.
   */
  @Column({ type: 'text', default: 'openapi' })
  kind: string;

  /** The stage of the live revision's version (migration ApiLifecycle): search leaves retired APIs out and ranks deprecated ones lower. */
  @Column({ type: 'text', default: 'production' })
  lifecycle: LifecycleStage;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'chunk_count', type: 'integer', nullable: true })
  chunkCount: number | null;

  @Column({ name: 'indexed_at', type: 'timestamptz', nullable: true })
  indexedAt: Date | null;

  /** What the index limits left out of the live revision. */
  @Column({ type: 'text', array: true, nullable: true })
  warnings: string[] | null;

  @Column({ type: 'boolean', default: false })
  deleted: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
