import pgvector from 'pgvector';
import type { EntityManager } from 'typeorm';
import type { ChunkLevel, LifecycleStage, SearchFilters, VersionSummary } from '#contracts';
import type { KeywordQuery } from './keyword-query.js';
import { EVENT_DELIVERY } from './query-intent.js';
import type { ApiKeywordScore, Candidate, EndpointCandidate } from './rank-fusion.js';
import { RANKING } from '../ranking/ranking.config.js';
import { liveChunkCount } from './search.repository.js';

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
  /** The live revision's labels (`{}` when none). */
  labels: Record<string, string> | null;
  /** The kind of API (`openapi`, `graphql`…) its live revision is. */
  kind: string;
  /** The stage of the live revision's version, its sunset date, and the API's versions that are not retired. */
  lifecycle: LifecycleStage;
  sunsetDate: string | null;
  versions: VersionSummary[] | null;
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

/** A chunk's scores for a keyword query (`ChunkRetriever.chunkTermScores`). */
interface ChunkTermScore extends Candidate {
  /** The query's share its terms in this chunk cover. */
  cover: number;
  /** Whether it holds a discriminating term of the query. */
  narrows: boolean;
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

/**
 * Card facts (alias `s` status, `p` spec) of the revision that is live in the index, described by
 * the registration or else by the spec itself; none for a deleted API whose chunks are not removed yet.
 */
const LIVE_CARDS = `SELECT s.api_id AS "apiId", p.name, p.version, p.team_name AS "teamName", coalesce(p.description, p.spec_description) AS description, p.labels, s.kind,
    p.lifecycle, p.sunset_date AS "sunsetDate", p.versions
  FROM platform_ai.api_indexing_status s
  JOIN platform_ai.api_specs p ON p.api_id = s.api_id AND p.revision = s.indexed_revision AND NOT s.deleted`;

/** Collects positional parameters while a query is assembled. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The SQL of search. Every query runs in the caller's transaction (see `SearchService`: one
 * snapshot), so the HNSW settings apply and the chunks of a generation being staged are left out
 * by each of them alike.
 */
export class ChunkRetriever {
  private filtered?: Promise<FilteredApis>;
  private staged?: Promise<string[]>;
  private termScores?: { query: KeywordQuery; key: string; chunks: Promise<ChunkTermScore[]> };

  constructor(
    private readonly manager: EntityManager,
    private readonly scope: SearchScope,
  ) {}

  /**
   * The `limit` chunks nearest the query: through the HNSW index, or by exact distance when the
   * filters leave fewer chunks than the index would scan to find `limit` of theirs. The index
   * filters after it scans: for a tag on 2 APIs of 585 it scanned 20k chunks (its
   * `hnsw.max_scan_tuples`) in 3.8 s and still came back short; the exact scan of their 197
   * chunks took 20 ms. (Measured on PGlite: both take ≈ 45 ms at 4k chunks of 27k.)
   */
  async vectorCandidates(query: number[], limit: number): Promise<Candidate[]> {
    const params = new Params();
    const filtered = await this.filteredApis();
    const staged = await this.stagedGenerations();
    const distance = `${this.embedding} <=> ${params.add(pgvector.toSql(query))}::vector(${this.dims})`;
    const scannedByIndex = filtered ? (limit * filtered.orgChunkCount) / Math.max(1, filtered.chunkCount) : 0;
    const exact = filtered !== undefined && filtered.chunkCount <= scannedByIndex;
    // "+ 0": an order the index cannot produce, so the planner reads the filtered chunks instead.
    const rows = await this.manager.query(
      `SELECT c.id, c.api_id AS "apiId", c.level, 1 - (${distance}) AS score
       FROM platform_ai.api_chunks c
       WHERE ${this.visible(params, filtered, staged)}
       ORDER BY ${exact ? `(${distance}) + 0` : distance}
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
         WHERE ${this.visible(params, await this.filteredApis(), await this.stagedGenerations())} AND c.api_id = ANY(${params.add(apiIds)})
       ) nearest
       WHERE nearness <= ${params.add(perApi)}`,
      params.values,
    );
    return rows.map(toCandidate);
  }

  /** These APIs' chunks holding any of the query's discriminating terms, by the rarity-weighted sum of their terms' ranks (each query word's best form). */
  async keywordCandidates(query: KeywordQuery, limit: number, apiIds: string[]): Promise<Candidate[]> {
    return (await this.chunkTermScores(query, apiIds))
      .filter((chunk) => chunk.narrows)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit)
      .map(({ id, apiId, level, score }) => ({ id, apiId, level, score }));
  }

  /**
   * Per API, the most rarity weight of the query's terms that one of its chunks holds: how much
   * of the query a single operation (or schema, or the API's overview) speaks to. A large spec
   * holds most common words somewhere; "create", "github" and "issue" in one operation is another matter.
   */
  async bestChunkTermWeights(query: KeywordQuery, apiIds: string[]): Promise<Map<string, number>> {
    const best = new Map<string, number>();
    for (const chunk of await this.chunkTermScores(query, apiIds)) best.set(chunk.apiId, Math.max(best.get(chunk.apiId) ?? 0, chunk.cover));
    return best;
  }

  /**
   * The query's scores of these APIs' chunks that hold any of its terms: each query word counts in
   * its best form, by rank (`score`: the sum of rarity weight × rank) and by presence (`cover`: the
   * sum of its share of the query). Read once a search for the cards' APIs, in one pass over their
   * postings, for what calibration, the matched chunks and the operations' keyword scores each take of it.
   */
  private chunkTermScores(query: KeywordQuery, apiIds: string[]): Promise<ChunkTermScore[]> {
    const key = [...apiIds].sort().join(',');
    if (this.termScores?.query !== query || this.termScores.key !== key) {
      this.termScores = { query, key, chunks: apiIds.length ? this.readChunkTermScores(query, apiIds) : Promise.resolve([]) };
    }
    return this.termScores.chunks;
  }

  private async readChunkTermScores(query: KeywordQuery, apiIds: string[]): Promise<ChunkTermScore[]> {
    const params = new Params();
    const rows: { id: string; apiId: string; level: ChunkLevel; score: string; cover: string; narrows: boolean }[] = await this.manager.query(
      `SELECT id, "apiId", level, sum(best) AS score, sum(cover) AS cover, bool_or(narrows) AS narrows FROM (
         SELECT p.chunk_id AS id, p.api_id AS "apiId", p.level, max(t.weight * p.rank) AS best, max(t.cover) AS cover,
           bool_or(p.lexeme = ANY(${params.add(query.matchTerms)})) AS narrows
         FROM platform_ai.chunk_terms p JOIN ${termTable(query, params)} ON t.lexeme = p.lexeme
         WHERE ${this.visible(params, await this.filteredApis(), await this.stagedGenerations(), 'p')}
           AND p.api_id = ANY(${params.add(apiIds)}) AND p.lexeme = ANY(${params.add(query.terms.map((term) => term.lexeme))})
         GROUP BY p.chunk_id, p.api_id, p.level, t.root
       ) roots
       GROUP BY id, "apiId", level`,
      params.values,
    );
    return rows.map((row) => ({ id: row.id, apiId: row.apiId, level: row.level, score: Number(row.score), cover: Number(row.cover), narrows: row.narrows }));
  }

  /**
   * Keyword relevance of whole APIs: BM25 with each API's words (all its chunks) as one document,
   * for every visible API holding a query term; `narrows` when it holds a discriminating one.
   */
  async apiKeywordScores(query: KeywordQuery): Promise<ApiKeywordScore[]> {
    const params = new Params();
    const org = params.add(this.scope.orgId);
    const terms = params.add(query.terms.map((term) => term.lexeme));
    const scales = params.add(query.terms.map((term) => (term.family ? RANKING.wordFamilies.weight : 1)));
    const roots = params.add(query.terms.map((term) => term.root));
    const filtered = await this.filteredApis();
    const rows: { apiId: string; score: string; narrows: boolean }[] = await this.manager.query(
      `WITH apis AS (
         SELECT count(*) AS n, avg(term_count) AS average_length FROM platform_ai.api_indexing_status
         WHERE org_id = ${org} AND NOT deleted AND indexed_revision IS NOT NULL
       ), rarity AS (
         SELECT a.lexeme, ln(1 + (apis.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf
         FROM platform_ai.api_terms a, apis WHERE a.org_id = ${org} AND a.lexeme = ANY(${terms}) GROUP BY a.lexeme, apis.n
       )
       SELECT "apiId", sum(best) AS score, bool_or(narrows) AS narrows FROM (
         SELECT a.api_id AS "apiId",
           max(least(q.scale * r.idf, coalesce(typed.idf, r.idf)) * a.occurrences * ${RANKING.bm25.k1 + 1} / (a.occurrences + ${RANKING.bm25.k1} * (1 - ${RANKING.bm25.b} + ${RANKING.bm25.b} * s.term_count / apis.average_length))) AS best,
           bool_or(a.lexeme = ANY(${params.add(query.matchTerms)})) AS narrows
         FROM platform_ai.api_terms a
         JOIN unnest(${terms}::text[], ${scales}::float8[], ${roots}::text[]) AS q(lexeme, scale, root) ON q.lexeme = a.lexeme
         JOIN rarity r ON r.lexeme = a.lexeme
         -- A family word counts no more than the typed word it stands beside (when the org has that word).
         LEFT JOIN rarity typed ON typed.lexeme = q.root
         JOIN platform_ai.api_indexing_status s ON s.api_id = a.api_id, apis
         WHERE a.org_id = ${org} AND a.lexeme = ANY(${terms})
           ${filtered ? `AND a.api_id = ANY(${params.add(filtered.apiIds)})` : ''}
         GROUP BY a.api_id, q.root
       ) roots GROUP BY "apiId"`,
      params.values,
    );
    return rows.map((row) => ({ apiId: row.apiId, score: Number(row.score), narrows: row.narrows }));
  }

  /** The operations of these APIs (within the filters), scored against the query; with `events`, whether each delivers events. */
  async endpoints(apiIds: string[], query: { vector?: number[]; keywords?: KeywordQuery; perApi?: number; events?: boolean } = {}): Promise<EndpointRow[]> {
    const params = new Params();
    const similarity = query.vector
      ? `1 - (${this.embedding} <=> ${params.add(pgvector.toSql(query.vector))}::vector(${this.dims}))`
      : '0';
    const ids = params.add(apiIds);
    const model = params.add(this.scope.model);
    const operation = this.passingOperation(params, 'c');
    const live = notStaged('c', await this.stagedGenerations(), params);
    const rows = await this.manager.query(
      `SELECT * FROM (
         SELECT c.id, c.api_id AS "apiId", c.method, c.path, c.summary, ${similarity} AS similarity,
           ${query.events ? deliversEvents('c', params) : 'false'} AS "deliversEvents",
           row_number() OVER (PARTITION BY c.api_id ORDER BY c.path, c.method) AS position
         FROM platform_ai.api_chunks c
         WHERE c.api_id = ANY(${ids}) AND c.level = 'L2' AND c.model = ${model}
           ${operation ? `AND ${operation}` : ''} ${live}
       ) ranked
       ${query.perApi ? `WHERE position <= ${params.add(query.perApi)}` : ''}
       ORDER BY position`,
      params.values,
    );
    // The operations' keyword scores: from the cards' postings, read once (a large spec has hundreds of operations).
    const keyword = new Map(query.keywords ? (await this.chunkTermScores(query.keywords, apiIds)).map((chunk) => [chunk.id, chunk.score]) : []);
    return rows.map((row: Omit<EndpointRow, 'keyword'>) => ({ ...row, similarity: Number(row.similarity), keyword: keyword.get(row.id) ?? 0 }));
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

  /**
   * The org's APIs whose live version is deprecated or retired (a few, if any; the partial index
   * `api_indexing_status_lifecycle_idx` finds them): search leaves the retired out and ranks the
   * deprecated lower.
   */
  async endOfLife(): Promise<Map<string, 'deprecated' | 'retired'>> {
    const rows: { apiId: string; lifecycle: 'deprecated' | 'retired' }[] = await this.manager.query(
      `SELECT api_id AS "apiId", lifecycle FROM platform_ai.api_indexing_status WHERE org_id = $1 AND lifecycle IN ('deprecated', 'retired') AND NOT deleted`,
      [this.scope.orgId],
    );
    return new Map(rows.map((row) => [row.apiId, row.lifecycle]));
  }

  /** Those of these APIs with an operation that delivers events (see `EVENT_DELIVERY`): for a need phrased as an event. */
  async deliveringEvents(apiIds: string[]): Promise<Set<string>> {
    if (apiIds.length === 0) return new Set();
    const params = new Params();
    const rows: { apiId: string }[] = await this.manager.query(
      `SELECT DISTINCT c.api_id AS "apiId" FROM platform_ai.api_chunks c
       WHERE c.api_id = ANY(${params.add(apiIds)}) AND c.level = 'L2' AND c.model = ${params.add(this.scope.model)}
         AND ${deliversEvents('c', params)} ${notStaged('c', await this.stagedGenerations(), params)}`,
      params.values,
    );
    return new Set(rows.map((row) => row.apiId));
  }

  /** Those of these APIs a search may return (the filters pass them, not retired): a chosen API the retrievers missed. */
  async visibleOf(apiIds: string[]): Promise<string[]> {
    if (apiIds.length === 0) return [];
    const params = new Params();
    const rows: { apiId: string }[] = await this.manager.query(
      `${this.allowedApis(params, await this.stagedGenerations(), 's.api_id AS "apiId"')} AND s.api_id = ANY(${params.add(apiIds)})`,
      params.values,
    );
    return rows.map((row) => row.apiId);
  }

  /** Every visible API, by name: browse mode. */
  async allApis(limit: number): Promise<ApiCard[]> {
    const params = new Params();
    return this.manager.query(
      `${LIVE_CARDS}
       WHERE s.api_id IN (${this.allowedApis(params, await this.stagedGenerations())})
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

  /**
   * Rows (`alias`: chunks, or postings with their chunk's id) of the org and model (which match
   * their indexes), then of the filtered APIs, if any; of their operations, only those with the
   * filters' tags and methods: a card lists those alone, and what matched must be among them.
   */
  private visible(params: Params, filtered: FilteredApis | undefined, staged: string[], alias = 'c'): string {
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

  /** Whether the operation's chunk (`alias`) has one of the filters' tags and methods; empty without such filters. */
  private passingOperation(params: Params, alias: string): string {
    const { tags, methods } = this.scope.filters;
    return [methods?.length ? `${alias}.method = ANY(${params.add(methods)})` : '', tags?.length ? hasTag(alias, tags, params) : '']
      .filter(Boolean)
      .join(' AND ');
  }

  /**
   * Generations of chunks being written in the org, not live yet (see `IndexStoreService.replaceChunks`):
   * almost always none. Looked up once per search, in its snapshot.
   */
  private stagedGenerations(): Promise<string[]> {
    this.staged ??= this.manager
      .query(`SELECT staging_generation AS generation FROM platform_ai.api_indexing_status WHERE org_id = $1 AND staging_generation IS NOT NULL`, [this.scope.orgId])
      .then((rows: { generation: string }[]) => rows.map((row) => row.generation));
    return this.staged;
  }

  /**
   * The APIs that pass the request's filters (none when it has none), looked up once per search:
   * as a sub-query of each chunk query, the tag test ran again for every chunk the HNSW index scanned.
   */
  private filteredApis(): Promise<FilteredApis | undefined> {
    const { teamNames, tags, methods, kinds, labels, lifecycle } = this.scope.filters;
    if (!teamNames?.length && !tags?.length && !methods?.length && !kinds?.length && !hasLabels(labels) && !lifecycle?.length) return Promise.resolve(undefined);
    this.filtered ??= (async () => {
      const params = new Params();
      const rows: { apiId: string; chunkCount: number | null }[] = await this.manager.query(
        this.allowedApis(params, await this.stagedGenerations(), `s.api_id AS "apiId", s.chunk_count AS "chunkCount"`),
        params.values,
      );
      return {
        apiIds: rows.map((row) => row.apiId),
        chunkCount: rows.reduce((sum, row) => sum + Number(row.chunkCount ?? 0), 0),
        orgChunkCount: await liveChunkCount(this.manager, this.scope.orgId),
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
  private allowedApis(params: Params, staged: string[], columns = 's.api_id'): string {
    const { teamNames, tags, methods, kinds, labels, lifecycle } = this.scope.filters;
    const org = params.add(this.scope.orgId);
    return `SELECT ${columns} FROM platform_ai.api_indexing_status s
      JOIN platform_ai.api_specs p ON p.api_id = s.api_id AND p.revision = s.indexed_revision
      WHERE s.org_id = ${org} AND NOT s.deleted AND s.lifecycle <> 'retired'
      ${teamNames?.length ? `AND lower(p.team_name) = ANY(${params.add(lower(teamNames))})` : ''}
      ${kinds?.length ? `AND s.kind = ANY(${params.add(kinds)})` : ''}
      ${lifecycle?.length ? `AND s.lifecycle = ANY(${params.add(lifecycle)})` : ''}
      ${hasLabels(labels) ? `AND ${hasLabelsOf('p', labels, params)}` : ''}
      ${tags?.length ? `AND s.api_id IN (SELECT t.api_id FROM platform_ai.api_chunks t WHERE t.org_id = ${org} AND t.level = 'L2' AND ${hasTag('t', tags, params)} ${notStaged('t', staged, params)})` : ''}
      ${methods?.length ? `AND s.api_id IN (SELECT m.api_id FROM platform_ai.api_chunks m WHERE m.org_id = ${org} AND m.level = 'L2' AND m.method = ANY(${params.add(methods)}) ${notStaged('m', staged, params)})` : ''}`;
  }
}

/** `AND` a condition that leaves out rows (chunks or postings: `alias`) of generations not live yet; nothing when there are none. */
function notStaged(alias: string, staged: string[], params: Params): string {
  return staged.length > 0 ? `AND coalesce(${alias}.generation, 0) <> ALL(${params.add(staged)}::bigint[])` : '';
}

/** Whether the operation chunk (`alias`) delivers events to its caller (see `EVENT_DELIVERY`). */
function deliversEvents(alias: string, params: Params): string {
  return `(${alias}.method = ANY(${params.add(EVENT_DELIVERY.verbs)}) OR (${alias}.method = 'RPC' AND strpos(${alias}.content, ${params.add(EVENT_DELIVERY.streamingReturns)}) > 0))`;
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

/** The query's terms as a table `t(lexeme, weight, root, cover)` (see `KeywordTerm`). */
function termTable(query: KeywordQuery, params: Params): string {
  const column = <T>(values: T[], type: string) => `${params.add(values)}::${type}[]`;
  const { terms } = query;
  return `unnest(${column(terms.map((term) => term.lexeme), 'text')}, ${column(terms.map((term) => term.weight), 'float8')}, ${column(terms.map((term) => term.root), 'text')}, ${column(terms.map((term) => term.cover), 'float8')}) AS t(lexeme, weight, root, cover)`;
}

function toCandidate(row: { id: string; apiId: string; level: ChunkLevel; score: string | number }): Candidate {
  return { id: row.id, apiId: row.apiId, level: row.level, score: Number(row.score) };
}

function lower(values: string[]): string[] {
  return values.map((value) => value.toLowerCase());
}
