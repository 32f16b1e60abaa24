import pgvector from 'pgvector';
import type { EntityManager } from 'typeorm';
import type { ChunkLevel, SearchFilters } from '#contracts';
import type { KeywordQuery } from './keyword-query.js';
import type { ApiKeywordScore, Candidate, EndpointCandidate } from './rank-fusion.js';

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
}

/**
 * BM25's term-frequency saturation and length normalisation, at API level. k1 above the usual
 * 1.2: an API document is long and repeats its domain's words (measured offline: k1 2 > 1.2).
 */
const BM25 = { k1: 2, b: 0.75 };

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

  /**
   * Each of these APIs' `perApi` chunks nearest the query, by exact distance: for APIs that
   * `vectorCandidates` (approximate, and limited to the nearest few hundred chunks) did not reach.
   */
  async nearestChunksOf(query: number[], apiIds: string[], perApi: number): Promise<Candidate[]> {
    if (apiIds.length === 0) return [];
    const params = new Params();
    const distance = `${this.embedding} <=> ${params.add(pgvector.toSql(query))}::vector(${this.dims})`;
    const rows = await this.manager.query(
      `SELECT id, "apiId", level, score FROM (
         SELECT c.id, c.api_id AS "apiId", c.level, 1 - (${distance}) AS score,
           row_number() OVER (PARTITION BY c.api_id ORDER BY ${distance}, c.id) AS nearness
         FROM platform_ai.api_chunks c
         WHERE ${this.visible(params)} AND c.api_id = ANY(${params.add(apiIds)})
       ) nearest
       WHERE nearness <= ${params.add(perApi)}`,
      params.values,
    );
    return rows.map(toCandidate);
  }

  /** These APIs' chunks holding any of the query's discriminating terms, by the rarity-weighted sum of their terms' ranks. */
  async keywordCandidates(query: KeywordQuery, limit: number, apiIds: string[]): Promise<Candidate[]> {
    const params = new Params();
    const rows = await this.manager.query(
      `SELECT p.chunk_id AS id, p.api_id AS "apiId", p.level, sum(t.weight * p.rank) AS score
       FROM platform_ai.chunk_terms p JOIN ${termTable(query, params)} ON t.lexeme = p.lexeme
       WHERE ${this.visible(params, 'p')} AND p.api_id = ANY(${params.add(apiIds)})
       GROUP BY p.chunk_id, p.api_id, p.level
       HAVING bool_or(p.lexeme = ANY(${params.add(query.matchTerms)}))
       ORDER BY score DESC, p.chunk_id
       LIMIT ${params.add(limit)}`,
      params.values,
    );
    return rows.map(toCandidate);
  }

  /**
   * Keyword relevance of whole APIs: BM25 with each API's words (all its chunks) as one document,
   * for every visible API holding a query term; `narrows` when it holds a discriminating one.
   */
  async apiKeywordScores(query: KeywordQuery): Promise<ApiKeywordScore[]> {
    const params = new Params();
    const org = params.add(this.scope.orgId);
    const terms = params.add(query.terms.map((term) => term.lexeme));
    const { teamNames, tags, methods } = this.scope.filters;
    const filtered = Boolean(teamNames?.length || tags?.length || methods?.length);
    const rows: { apiId: string; score: string; narrows: boolean }[] = await this.manager.query(
      `WITH apis AS (
         SELECT count(*) AS n, avg(term_count) AS average_length FROM platform_ai.api_indexing_status
         WHERE org_id = ${org} AND NOT deleted AND indexed_revision IS NOT NULL
       ), rarity AS (
         SELECT a.lexeme, ln(1 + (apis.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf
         FROM platform_ai.api_terms a, apis WHERE a.org_id = ${org} AND a.lexeme = ANY(${terms}) GROUP BY a.lexeme, apis.n
       )
       SELECT a.api_id AS "apiId",
         sum(r.idf * a.occurrences * ${BM25.k1 + 1} / (a.occurrences + ${BM25.k1} * (1 - ${BM25.b} + ${BM25.b} * s.term_count / apis.average_length))) AS score,
         bool_or(a.lexeme = ANY(${params.add(query.matchTerms)})) AS narrows
       FROM platform_ai.api_terms a
       JOIN rarity r ON r.lexeme = a.lexeme
       JOIN platform_ai.api_indexing_status s ON s.api_id = a.api_id, apis
       WHERE a.org_id = ${org} AND a.lexeme = ANY(${terms})
         ${filtered ? `AND a.api_id IN (${this.allowedApis(params)})` : ''}
       GROUP BY a.api_id`,
      params.values,
    );
    return rows.map((row) => ({ apiId: row.apiId, score: Number(row.score), narrows: row.narrows }));
  }

  /** The operations of these APIs (within the filters), scored against the query. */
  async endpoints(apiIds: string[], query: { vector?: number[]; keywords?: KeywordQuery; perApi?: number } = {}): Promise<EndpointRow[]> {
    const params = new Params();
    const similarity = query.vector
      ? `1 - (${this.embedding} <=> ${params.add(pgvector.toSql(query.vector))}::vector(${this.dims}))`
      : '0';
    const ids = params.add(apiIds);
    const model = params.add(this.scope.model);
    // The operations' keyword scores in one pass over these APIs' postings (by API: a few index
    // look-ups), not a sub-query per operation: a large spec has hundreds.
    const keywordScores = query.keywords
      ? `LEFT JOIN (
           SELECT p.chunk_id, sum(t.weight * p.rank) AS keyword
           FROM platform_ai.chunk_terms p JOIN ${termTable(query.keywords, params)} ON t.lexeme = p.lexeme
           WHERE p.api_id = ANY(${ids}) AND p.model = ${model} AND p.level = 'L2'
           GROUP BY p.chunk_id
         ) k ON k.chunk_id = c.id`
      : '';
    const { methods, tags } = this.scope.filters;
    const rows = await this.manager.query(
      `SELECT * FROM (
         SELECT c.id, c.api_id AS "apiId", c.method, c.path, c.summary, ${similarity} AS similarity,
           ${query.keywords ? 'coalesce(k.keyword, 0)' : '0'} AS keyword,
           row_number() OVER (PARTITION BY c.api_id ORDER BY c.path, c.method) AS position
         FROM platform_ai.api_chunks c ${keywordScores}
         WHERE c.api_id = ANY(${ids}) AND c.level = 'L2' AND c.model = ${model}
           ${methods?.length ? `AND c.method = ANY(${params.add(methods)})` : ''}
           ${tags?.length ? `AND EXISTS (SELECT 1 FROM unnest(c.tags) tag WHERE lower(tag) = ANY(${params.add(lower(tags))}))` : ''}
       ) ranked
       ${query.perApi ? `WHERE position <= ${params.add(query.perApi)}` : ''}
       ORDER BY position`,
      params.values,
    );
    return rows.map((row: EndpointRow) => ({ ...row, similarity: Number(row.similarity), keyword: Number(row.keyword) }));
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
