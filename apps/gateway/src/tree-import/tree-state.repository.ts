import { ConflictException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { TreeComponent } from '#contracts';
import { ApiEntity } from '../registry/api.entity.js';
import { ApiVersionsRepository } from '../registry/api-versions.repository.js';
import { liveApi } from '../common/live-apis.js';
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
      generation: row?.generation ?? 0,
    };
  }

  /**
   * Takes the tree's next generation for an apply call, atomically; with `expected`, only if the
   * tree is still at it (another import since is a 409). Returns the new generation.
   */
  async nextGeneration(orgId: string, tree: string, expected: number | undefined): Promise<number> {
    const rows: { generation: number }[] = await this.dataSource.query(
      `INSERT INTO platform_backend.import_trees (org_id, tree, generation) VALUES ($1, $2, 1)
       ON CONFLICT (org_id, tree) DO UPDATE SET generation = import_trees.generation + 1, updated_at = now()
       WHERE $3::integer IS NULL OR import_trees.generation = $3::integer
       RETURNING generation`,
      [orgId, tree, expected ?? null],
    );
    // A first apply that expected another: the insert made generation 1 whatever was expected.
    if (rows.length === 0 || (expected !== undefined && rows[0].generation !== expected + 1)) {
      throw new ConflictException(
        `Another import of tree "${tree}" ran since this one planned (generation ${expected}): run the import again, on the tree as it is now`,
      );
    }
    return rows[0].generation;
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
