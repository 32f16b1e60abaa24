import pgvector from 'pgvector';
import type { EntityManager } from 'typeorm';
import type { ChunkLevel, SearchFilters } from '#contracts';
import type { KeywordQuery } from './keyword-query.js';
import type { Candidate, EndpointCandidate } from './rank-fusion.js';

/** Which chunks a search may see: one org, one embedding model, the request's filters. */
export interface SearchScope {
  orgId: string;
  model: string;
  dimensions: number;
  filters: SearchFilters;
}

export interface ApiCard {
  apiId: string;
  name: string;
  version: string;
  teamName: string | null;
  description: string | null;
}

export interface ChunkDetail {
  id: string;
  apiId: string;
  level: ChunkLevel;
  title: string;
  content: string;
  method: string | null;
  path: string | null;
  operationId: string | null;
}

export interface EndpointRow extends EndpointCandidate {
  apiId: string;
  method: string;
  path: string;
  summary: string | null;
}

/** Card facts (alias `s` status, `p` spec) of the revision that is live in the index. */
const LIVE_CARDS = `SELECT s.api_id AS "apiId", p.name, p.version, p.team_name AS "teamName", p.description
  FROM platform_ai.api_indexing_status s
  JOIN platform_ai.api_specs p ON p.api_id = s.api_id AND p.revision = s.indexed_revision`;

/** Collects positional parameters while a query is assembled. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The SQL of search. Every query runs in the caller's transaction (see `SearchService`), so the
 * HNSW settings apply and a search reads one consistent snapshot.
 */
export class ChunkRetriever {
  constructor(
    private readonly manager: EntityManager,
    private readonly scope: SearchScope,
  ) {}

  async vectorCandidates(query: number[], limit: number): Promise<Candidate[]> {
    const params = new Params();
    const vector = `${params.add(pgvector.toSql(query))}::vector(${this.dims})`;
    const rows = await this.manager.query(
      `SELECT c.id, c.api_id AS "apiId", c.level, 1 - (${this.embedding} <=> ${vector}) AS score
       FROM platform_ai.api_chunks c
       WHERE ${this.visible(params)}
       ORDER BY ${this.embedding} <=> ${vector}
       LIMIT ${params.add(limit)}`,
      params.values,
    );
    return rows.map(toCandidate);
  }

  /** Chunks holding any of the query's discriminating terms, by the rarity-weighted sum of their terms' ranks. */
  async keywordCandidates(query: KeywordQuery, limit: number): Promise<Candidate[]> {
    const params = new Params();
    const rows = await this.manager.query(
      `SELECT p.chunk_id AS id, p.api_id AS "apiId", p.level, sum(t.weight * p.rank) AS score
       FROM platform_ai.chunk_terms p JOIN ${termTable(query, params)} ON t.lexeme = p.lexeme
       WHERE ${this.visible(params, 'p')}
       GROUP BY p.chunk_id, p.api_id, p.level
       HAVING bool_or(p.lexeme = ANY(${params.add(query.matchTerms)}))
       ORDER BY score DESC, p.chunk_id
       LIMIT ${params.add(limit)}`,
      params.values,
    );
    return rows.map(toCandidate);
  }

  /** The operations of these APIs (within the filters), scored against the query. */
  async endpoints(apiIds: string[], query: { vector?: number[]; keywords?: KeywordQuery; perApi?: number } = {}): Promise<EndpointRow[]> {
    const params = new Params();
    const similarity = query.vector
      ? `1 - (${this.embedding} <=> ${params.add(pgvector.toSql(query.vector))}::vector(${this.dims}))`
      : '0';
    const keyword = query.keywords
      ? `coalesce((SELECT sum(t.weight * p.rank) FROM platform_ai.chunk_terms p JOIN ${termTable(query.keywords, params)} ON t.lexeme = p.lexeme
           WHERE p.chunk_id = c.id), 0)`
      : '0';
    const { methods, tags } = this.scope.filters;
    const rows = await this.manager.query(
      `SELECT * FROM (
         SELECT c.id, c.api_id AS "apiId", c.method, c.path, c.summary, ${similarity} AS similarity, ${keyword} AS keyword,
           row_number() OVER (PARTITION BY c.api_id ORDER BY c.path, c.method) AS position
         FROM platform_ai.api_chunks c
         WHERE c.api_id = ANY(${params.add(apiIds)}) AND c.level = 'L2' AND c.model = ${params.add(this.scope.model)}
           ${methods?.length ? `AND c.method = ANY(${params.add(methods)})` : ''}
           ${tags?.length ? `AND EXISTS (SELECT 1 FROM unnest(c.tags) tag WHERE lower(tag) = ANY(${params.add(lower(tags))}))` : ''}
       ) ranked
       ${query.perApi ? `WHERE position <= ${params.add(query.perApi)}` : ''}
       ORDER BY position`,
      params.values,
    );
    return rows.map((row: EndpointRow) => ({ ...row, similarity: Number(row.similarity), keyword: Number(row.keyword) }));
  }

  /**
   * How much of the query each API covers anywhere in its chunks: the rarity-weighted share of
   * the query's terms found in at least one of them (0..1).
   */
  async termCoverage(apiIds: string[], query: KeywordQuery): Promise<Map<string, number>> {
    if (apiIds.length === 0) return new Map();
    const params = new Params();
    const rows: { apiId: string; covered: string }[] = await this.manager.query(
      `SELECT found.api_id AS "apiId", sum(t.weight) AS covered
       FROM (SELECT DISTINCT p.api_id, p.lexeme FROM platform_ai.chunk_terms p
             WHERE p.org_id = ${params.add(this.scope.orgId)} AND p.model = ${params.add(this.scope.model)}
               AND p.api_id = ANY(${params.add(apiIds)}) AND p.lexeme = ANY(${params.add(query.terms.map((term) => term.lexeme))})) found
       JOIN ${termTable(query, params)} ON t.lexeme = found.lexeme
       GROUP BY found.api_id`,
      params.values,
    );
    const total = query.terms.reduce((sum, term) => sum + term.weight, 0);
    return new Map(rows.map((row) => [row.apiId, total > 0 ? Number(row.covered) / total : 0]));
  }

  async chunkDetails(ids: string[]): Promise<Map<string, ChunkDetail>> {
    if (ids.length === 0) return new Map();
    const rows: ChunkDetail[] = await this.manager.query(
      `SELECT id, api_id AS "apiId", level, title, content, method, path, operation_id AS "operationId"
       FROM platform_ai.api_chunks WHERE id = ANY($1)`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Card facts of the revision that is live in the index. */
  async cards(apiIds: string[]): Promise<Map<string, ApiCard>> {
    if (apiIds.length === 0) return new Map();
    const rows: ApiCard[] = await this.manager.query(`${LIVE_CARDS} WHERE s.api_id = ANY($1)`, [apiIds]);
    return new Map(rows.map((row) => [row.apiId, row]));
  }

  /** Every visible API, by name: browse mode. */
  async allApis(limit: number): Promise<ApiCard[]> {
    const params = new Params();
    return this.manager.query(
      `${LIVE_CARDS}
       WHERE s.api_id IN (${this.allowedApis(params)})
       ORDER BY lower(p.name), p.version, s.api_id
       LIMIT ${params.add(limit)}`,
      params.values,
    );
  }

  private get dims(): number {
    return this.scope.dimensions;
  }

  /** The expression the model's partial HNSW index is built on. */
  private get embedding(): string {
    return `c.embedding::vector(${this.dims})`;
  }

  /** Rows (`alias`: chunks or postings) of the org and model (which match their indexes), then the filters, if any. */
  private visible(params: Params, alias = 'c'): string {
    // Inlined (not a parameter) so the planner can match the model's partial index.
    const model = `'${this.scope.model.replace(/'/g, "''")}'`;
    const { teamNames, tags, methods } = this.scope.filters;
    const filtered = Boolean(teamNames?.length || tags?.length || methods?.length);
    return `${alias}.model = ${model} AND ${alias}.org_id = ${params.add(this.scope.orgId)}${filtered ? ` AND ${alias}.api_id IN (${this.allowedApis(params)})` : ''}`;
  }

  /** APIs of the org with a live index that pass the filters. */
  private allowedApis(params: Params): string {
    const { teamNames, tags, methods } = this.scope.filters;
    return `SELECT s.api_id FROM platform_ai.api_indexing_status s
      JOIN platform_ai.api_specs p ON p.api_id = s.api_id AND p.revision = s.indexed_revision
      WHERE s.org_id = ${params.add(this.scope.orgId)} AND NOT s.deleted
      ${teamNames?.length ? `AND lower(p.team_name) = ANY(${params.add(lower(teamNames))})` : ''}
      ${tags?.length ? `AND EXISTS (SELECT 1 FROM platform_ai.api_chunks t, unnest(t.tags) tag WHERE t.api_id = s.api_id AND lower(tag) = ANY(${params.add(lower(tags))}))` : ''}
      ${methods?.length ? `AND EXISTS (SELECT 1 FROM platform_ai.api_chunks m WHERE m.api_id = s.api_id AND m.method = ANY(${params.add(methods)}))` : ''}`;
  }
}

/** The query's terms and their rarity weights as a table `t(lexeme, weight)`. */
function termTable(query: KeywordQuery, params: Params): string {
  return `unnest(${params.add(query.terms.map((term) => term.lexeme))}::text[], ${params.add(query.terms.map((term) => term.weight))}::float8[]) AS t(lexeme, weight)`;
}

function toCandidate(row: { id: string; apiId: string; level: ChunkLevel; score: string | number }): Candidate {
  return { id: row.id, apiId: row.apiId, level: row.level, score: Number(row.score) };
}

function lower(values: string[]): string[] {
  return values.map((value) => value.toLowerCase());
}
