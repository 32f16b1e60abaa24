import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { TreeComponent } from '#contracts';
import { ApiEntity } from '../registry/api.entity.js';
import { ApiVersionsRepository } from '../registry/api-versions.repository.js';
import { liveApi } from '../registry/live-apis.js';
import { ImportTreeEntity } from './import-tree.entity.js';
import type { KnownApi, TreeSnapshot } from './tree-plan.js';

/** The SQL of a tree import: what the registry holds of a tree, read in a few queries whatever its size. */
@Injectable()
export class TreeStateRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly versions: ApiVersionsRepository,
  ) {}

  /** The tree's live APIs with their versions, the org's other APIs that have one of `names`, and the files the tree's descriptors named. */
  async load(orgId: string, tree: string, names: string[]): Promise<TreeSnapshot> {
    const apis = this.dataSource.getRepository(ApiEntity);
    const [own, others, row] = await Promise.all([
      // As the partial index apis_org_source_tree_idx holds it (migration ApiSources).
      apis
        .createQueryBuilder('api')
        .where(`api.org_id = :orgId AND ${liveApi('api')} AND api.source ? 'tree' AND api.source ->> 'tree' = :tree`, { orgId, tree })
        .getMany(),
      names.length
        ? apis
            .createQueryBuilder('api')
            .where(`api.org_id = :orgId AND ${liveApi('api')} AND lower(api.name) = ANY(:names)`, {
              orgId,
              names: [...new Set(names.map((name) => name.trim().toLowerCase()))],
            })
            .andWhere(`coalesce(api.source ->> 'tree', '') <> :tree`, { tree })
            .getMany()
        : [],
      this.dataSource.getRepository(ImportTreeEntity).findOneBy({ orgId, tree }),
    ]);
    const versions = await this.versions.versionsOf([...own, ...others].map((api) => api.id));
    const known = (api: ApiEntity): KnownApi => ({ api, versions: versions.get(api.id) ?? [] });
    return {
      apis: own.map(known),
      othersByName: new Map(others.map((api) => [api.name.trim().toLowerCase(), known(api)])),
      describedPaths: new Set(row?.describedPaths ?? []),
      components: row?.components ?? [],
    };
  }

  /** Adds files the tree's descriptors name (never forgotten: see `ImportTreeEntity`), and replaces its components when given. */
  async record(orgId: string, tree: string, described: string[], components: TreeComponent[] | undefined): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO platform_backend.import_trees (org_id, tree, components, described_paths)
       VALUES ($1, $2, coalesce($3::jsonb, '[]'), to_jsonb($4::text[]))
       ON CONFLICT (org_id, tree) DO UPDATE SET
         components = coalesce($3::jsonb, import_trees.components),
         described_paths = (SELECT coalesce(jsonb_agg(DISTINCT path ORDER BY path), '[]') FROM (
           SELECT jsonb_array_elements_text(import_trees.described_paths) AS path UNION SELECT unnest($4::text[])) AS paths),
         updated_at = now()`,
      [orgId, tree, components ? JSON.stringify(components) : null, described],
    );
  }
}
