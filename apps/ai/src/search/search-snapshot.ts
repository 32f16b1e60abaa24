import pgvector from 'pgvector';
import type { EntityManager } from 'typeorm';
import type { ChunkLevel, SearchFilters } from '#contracts';
import type { Candidate } from './rank-fusion.js';
import { LIVE_CHUNK_COUNT, notStagedIn, ORG_STAGING_GENERATIONS } from '../scope/live.js';

/** Which chunks a search may see: one org, one embedding model, the request's filters. */
export interface SearchScope {
  orgId: string;
  model: string;
  dimensions: number;
  filters: SearchFilters;
}

/** The APIs a filtered search may return, resolved once per search. */
interface FilteredApis {
  apiIds: string[];
  /**
   * Chunks of these APIs (all of them: for a rare method fewer pass, and the HNSW index scans
   * further than `vectorCandidates` reckons), and of the whole org.
   */
  chunkCount: number;
  orgChunkCount: number;
}

/** Collects positional parameters while a query is assembled. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * What one search reads in and may see: `manager` runs every query in the search's transaction
 * (see `SearchRepository.inSnapshot`: one snapshot), so the HNSW settings apply and the chunks of
 * a generation being staged are left out by each query alike. The conditions each stage's SQL
 * shares are built here, from what is looked up once per search.
 */
export class SearchSnapshot {
  private filtered?: Promise<FilteredApis | undefined>;
  private staged?: Promise<string[]>;

  constructor(
    readonly manager: EntityManager,
    readonly scope: SearchScope,
  ) {}

  /** Cosine distance of a chunk (`c`) to the vector, on the expression the model's partial HNSW index is built on. */
  distanceTo(vector: number[], params: Params): string {
    const { dimensions } = this.scope;
    return `c.embedding::vector(${dimensions}) <=> ${params.add(pgvector.toSql(vector))}::vector(${dimensions})`;
  }

  /**
   * Rows (`alias`: chunks, or postings with their chunk's id) of the org and model (which match
   * their indexes), then of the filtered APIs, if any; of their operations, only those with the
   * filters' tags and methods: a card lists those alone, and what matched must be among them.
   */
  async visible(params: Params, alias = 'c'): Promise<string> {
    const filtered = await this.filteredApis();
    const staged = await this.stagedGenerations();
    // Inlined (not a parameter) so the planner can match the model's partial index.
    const model = `'${this.scope.model.replace(/'/g, "''")}'`;
    const scope = `${alias}.model = ${model} AND ${alias}.org_id = ${params.add(this.scope.orgId)} ${notStaged(alias, staged, params)}`;
    if (!filtered) return scope;
    const apis = `${scope} AND ${alias}.api_id = ANY(${params.add(filtered.apiIds)})`;
    // A posting has no tags or method of its own: its chunk's (`o`) are looked up.
    const chunks = alias === 'c';
    const operation = this.passingOperation(params, chunks ? 'c' : 'o');
    if (!operation) return apis;
    const passes = chunks ? operation : `EXISTS (SELECT 1 FROM platform_ai.api_chunks o WHERE o.id = ${alias}.chunk_id AND ${operation})`;
    return `${apis} AND (${alias}.level <> 'L2' OR ${passes})`;
  }

  /** `AND` a condition that leaves out rows (`alias`) of generations not live yet; nothing when there are none. */
  async live(alias: string, params: Params): Promise<string> {
    return notStaged(alias, await this.stagedGenerations(), params);
  }

  /** Whether the operation's chunk (`alias`) has one of the filters' tags and methods; empty without such filters. */
  passingOperation(params: Params, alias: string): string {
    const { tags, methods } = this.scope.filters;
    return [methods?.length ? `${alias}.method = ANY(${params.add(methods)})` : '', tags?.length ? hasTag(alias, tags, params) : '']
      .filter(Boolean)
      .join(' AND ');
  }

  /**
   * The APIs that pass the request's filters (none when it has none), looked up once per search:
   * as a sub-query of each chunk query, the tag test ran again for every chunk the HNSW index scanned.
   */
  filteredApis(): Promise<FilteredApis | undefined> {
    const { teamNames, tags, methods, kinds, labels, lifecycle } = this.scope.filters;
    const filters = [teamNames, tags, methods, kinds, lifecycle].some((values) => values?.length) || hasLabels(labels);
    if (!filters) return Promise.resolve(undefined);
    this.filtered ??= (async () => {
      const params = new Params();
      const rows: { apiId: string; chunkCount: number | null }[] = await this.manager.query(
        await this.allowedApis(params, `s.api_id AS "apiId", s.chunk_count AS "chunkCount"`),
        params.values,
      );
      const [{ total }]: { total: string | null }[] = await this.manager.query(LIVE_CHUNK_COUNT, [this.scope.orgId]);
      return {
        apiIds: rows.map((row) => row.apiId),
        chunkCount: rows.reduce((sum, row) => sum + Number(row.chunkCount ?? 0), 0),
        orgChunkCount: Number(total ?? 0),
      };
    })();
    return this.filtered;
  }

  /**
   * APIs of the org with a live index that pass the filters (a kind is the live revision's), never a
   * retired one (search never shows it, whatever the filters). A tag
   * or a method must be an operation's: a tag the spec declares but no operation carries would make
   * a card with no endpoints.
   */
  async allowedApis(params: Params, columns = 's.api_id'): Promise<string> {
    const staged = await this.stagedGenerations();
    const { teamNames, tags, methods, kinds, labels, lifecycle } = this.scope.filters;
    const org = params.add(this.scope.orgId);
    // An API with an operation (chunk `alias`) that meets the condition.
    const withOperation = (alias: string, condition: string) =>
      `AND s.api_id IN (SELECT ${alias}.api_id FROM platform_ai.api_chunks ${alias}
        WHERE ${alias}.org_id = ${org} AND ${alias}.level = 'L2' AND ${condition} ${notStaged(alias, staged, params)})`;
    return `SELECT ${columns} FROM platform_ai.api_indexing_status s
      JOIN platform_ai.api_specs p ON p.api_id = s.api_id AND p.revision = s.indexed_revision
      WHERE s.org_id = ${org} AND NOT s.deleted AND s.lifecycle <> 'retired'
      ${teamNames?.length ? `AND lower(p.team_name) = ANY(${params.add(lower(teamNames))})` : ''}
      ${kinds?.length ? `AND s.kind = ANY(${params.add(kinds)})` : ''}
      ${lifecycle?.length ? `AND s.lifecycle = ANY(${params.add(lifecycle)})` : ''}
      ${hasLabels(labels) ? `AND ${hasLabelsOf('p', labels, params)}` : ''}
      ${tags?.length ? withOperation('t', hasTag('t', tags, params)) : ''}
      ${methods?.length ? withOperation('m', `m.method = ANY(${params.add(methods)})`) : ''}`;
  }

  /**
   * Generations of chunks being written in the org, not live yet (see `IndexStoreService.replaceChunks`):
   * almost always none. Looked up once per search, in its snapshot.
   */
  private stagedGenerations(): Promise<string[]> {
    this.staged ??= this.manager.query(ORG_STAGING_GENERATIONS, [this.scope.orgId]).then((rows: { generation: string }[]) => rows.map((row) => row.generation));
    return this.staged;
  }
}

export function toCandidate(row: { id: string; apiId: string; level: ChunkLevel; score: string | number }): Candidate {
  return { id: row.id, apiId: row.apiId, level: row.level, score: Number(row.score) };
}

function notStaged(alias: string, staged: string[], params: Params): string {
  return staged.length > 0 ? `AND ${notStagedIn(alias, params.add(staged))}` : '';
}

/** Whether the chunk (`alias`) carries one of the tags, in any case: the expression `api_chunks_tags_idx` indexes. */
function hasTag(alias: string, tags: string[], params: Params): string {
  return `platform_ai.lower_tags(${alias}.tags) && ${params.add(lower(tags))}::text[]`;
}

/**
 * Whether the spec row (`alias`) carries every one of the labels, values in any case: the
 * expression `api_specs_labels_idx` indexes (migration ApiLabels), against the labels with their
 * values lower-cased.
 */
function hasLabelsOf(alias: string, labels: Record<string, string>, params: Params): string {
  const wanted = Object.fromEntries(Object.entries(labels).map(([key, value]) => [key, value.trim().toLowerCase()]));
  return `platform_ai.lower_labels(${alias}.labels) @> ${params.add(JSON.stringify(wanted))}::jsonb`;
}

function hasLabels(labels: Record<string, string> | undefined): labels is Record<string, string> {
  return labels !== undefined && Object.keys(labels).length > 0;
}

function lower(values: string[]): string[] {
  return values.map((value) => value.toLowerCase());
}
