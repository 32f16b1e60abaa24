import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The AI app's copy of one spec revision, with the registry facts that came with it. */
@Entity({ schema: 'platform_ai', name: 'api_specs' })
export class ApiSpecEntity {
  @PrimaryColumn({ name: 'api_id', type: 'uuid' })
  apiId: string;

  @PrimaryColumn({ type: 'integer' })
  revision: number;

  @Column({ name: 'org_id', type: 'text' })
  orgId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  version: string;

  @Column({ name: 'team_name', type: 'text', nullable: true })
  teamName: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text' })
  spec: string;

  @Column({ name: 'received_at', type: 'timestamptz', default: () => 'now()' })
  receivedAt: Date;
}
