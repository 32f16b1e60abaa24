import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { TreeComponent } from '#contracts';

/** What the registry keeps of a tree beside its APIs (migration TreeImports): its components, and every file its descriptors named. */
@Entity({ schema: 'platform_backend', name: 'import_trees' })
export class ImportTreeEntity {
  @PrimaryColumn({ name: 'org_id', type: 'text' })
  orgId: string;

  @PrimaryColumn({ type: 'text' })
  tree: string;

  /** The Backstage components of the tree's last import, with the APIs they provide and consume (#43 reads them). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  components: TreeComponent[];

  /** Files a descriptor named as an entity's definition, ever: such a file is never an API of its own, even once its entity is gone. */
  @Column({ name: 'described_paths', type: 'jsonb', default: () => "'[]'" })
  describedPaths: string[];

  /** Goes up with every apply call: a run that planned on an older one is refused (`TreeImportRequest.generation`). */
  @Column({ type: 'integer', default: 0 })
  generation: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
