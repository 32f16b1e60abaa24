import type { LifecycleStage, SearchResult, VersionSummary } from '#contracts';
import { EVENT_DELIVERY, SCHEDULING } from './query-intent.js';
import type { EndpointCandidate } from './rank-fusion.js';
import { Params, type SearchSnapshot } from './search-snapshot.js';

// Cards and their operations, as search's last stage and browse mode both show them: the SQL that
// reads them, and the fields of an answer's card.

/** What a card says of an API. */
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

export interface EndpointRow extends EndpointCandidate {
  apiId: string;
}

/** What an operation is scored against (`operations`); none of it when browsing. */
export interface OperationQuery {
  vector?: number[];
  /** Each chunk's keyword score (by id): the query's words in the operation. */
  keywordScores?: Map<string, number>;
  perApi?: number;
  /** Whether to tell which operations deliver events. */
  events?: boolean;
}

/**
 * Card facts (alias `s` status, `p` spec) of the revision that is live in the index, described by
 * the registration or else by the spec itself; none for a deleted API whose chunks are not removed yet.
 */
export const LIVE_CARDS = `SELECT s.api_id AS "apiId", p.name, p.version, p.team_name AS "teamName",
    coalesce(p.description, p.spec_description) AS description, p.labels, s.kind, p.lifecycle, p.sunset_date AS "sunsetDate", p.versions
  FROM platform_ai.api_indexing_status s
  JOIN platform_ai.api_specs p ON p.api_id = s.api_id AND p.revision = s.indexed_revision AND NOT s.deleted`;

/** Card facts of the revision that is live in the index. */
export async function cards(snapshot: SearchSnapshot, apiIds: string[]): Promise<Map<string, ApiCard>> {
  if (apiIds.length === 0) return new Map();
  const rows: ApiCard[] = await snapshot.manager.query(`${LIVE_CARDS} WHERE s.api_id = ANY($1)`, [apiIds]);
  return new Map(rows.map((row) => [row.apiId, row]));
}

/** The operations of these APIs (within the filters), scored against the query; with `events`, whether each delivers events. */
export async function operations(snapshot: SearchSnapshot, apiIds: string[], query: OperationQuery = {}): Promise<EndpointRow[]> {
  const params = new Params();
  const similarity = query.vector ? `1 - (${snapshot.distanceTo(query.vector, params)})` : '0';
  const ids = params.add(apiIds);
  const model = params.add(snapshot.scope.model);
  const operation = snapshot.passingOperation(params, 'c');
  const live = await snapshot.live('c', params);
  const rows = await snapshot.manager.query(
    `SELECT * FROM (
       SELECT c.id, c.api_id AS "apiId", c.method, c.path, c.summary, c.operation_id AS "operationId", ${similarity} AS similarity,
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
  const keyword = query.keywordScores ?? new Map<string, number>();
  return rows.map((row: Omit<EndpointRow, 'keyword'>) => ({ ...row, similarity: Number(row.similarity), keyword: keyword.get(row.id) ?? 0 }));
}

/** Whether the operation chunk (`alias`) delivers events to its caller (see `EVENT_DELIVERY`). */
export function deliversEvents(alias: string, params: Params): string {
  const verbs = params.add(EVENT_DELIVERY.verbs);
  const streaming = params.add(EVENT_DELIVERY.streamingReturns);
  return `(${alias}.method = ANY(${verbs}) OR (${alias}.method = 'RPC' AND strpos(${alias}.content, ${streaming}) > 0))`;
}

/** Operations one search has read, by API: card shaping reads no API's again that fusion read (`searchOperations`). */
const readInSearch = new WeakMap<SearchSnapshot, Map<string, EndpointRow[]>>();

/**
 * All operations of these APIs scored against the search's vector (`operations`), each API's
 * read once per search: fusion reads the leaders' to order them by their operations' fit, card
 * shaping the cards', mostly the same APIs. Every call of one search passes the same vector and
 * `events`; keyword scores are applied per call.
 */
export async function searchOperations(snapshot: SearchSnapshot, apiIds: string[], query: OperationQuery): Promise<EndpointRow[]> {
  const read = readInSearch.get(snapshot) ?? new Map<string, EndpointRow[]>();
  readInSearch.set(snapshot, read);
  const missing = apiIds.filter((apiId) => !read.has(apiId));
  if (missing.length > 0) {
    for (const apiId of missing) read.set(apiId, []);
    for (const row of await operations(snapshot, missing, { vector: query.vector, events: query.events })) read.get(row.apiId)!.push(row);
  }
  const keyword = query.keywordScores ?? new Map<string, number>();
  return apiIds.flatMap((apiId) => read.get(apiId)!.map((row) => ({ ...row, keyword: keyword.get(row.id) ?? 0 })));
}

/** Whether the operation chunk (`alias`) schedules, delays or queues work (see `SCHEDULING`). */
export function schedulesWork(alias: string, params: Params): string {
  return `(${alias}.path || ' ' || coalesce(${alias}.summary, '') || ' ' || coalesce(${alias}.operation_id, '')) ~* ${params.add(SCHEDULING)}`;
}

/** A card's fields of the API itself (not of how it matched). */
export type CardFields = Pick<
  SearchResult,
  'apiId' | 'apiName' | 'version' | 'description' | 'teamName' | 'labels' | 'kind' | 'lifecycle' | 'sunsetDate' | 'versions'
>;

export function cardFields(card: ApiCard): CardFields {
  return {
    apiId: card.apiId,
    apiName: card.name,
    version: card.version,
    ...(card.description ? { description: card.description } : {}),
    ...(card.teamName ? { teamName: card.teamName } : {}),
    labels: card.labels ?? {},
    kind: card.kind,
    lifecycle: card.lifecycle,
    ...(card.sunsetDate ? { sunsetDate: card.sunsetDate } : {}),
    // Revisions indexed before versions existed: the API had the one.
    versions: card.versions?.length ? card.versions : [{ version: card.version, lifecycle: card.lifecycle }],
  };
}

export function groupByApi(rows: EndpointRow[]): Map<string, EndpointRow[]> {
  const byApi = new Map<string, EndpointRow[]>();
  for (const row of rows) {
    const list = byApi.get(row.apiId);
    if (list) list.push(row);
    else byApi.set(row.apiId, [row]);
  }
  return byApi;
}

export function toEndpoint(row: EndpointRow): SearchResult['endpoints'][number] {
  return { method: row.method, path: row.path, ...(row.summary ? { summary: row.summary } : {}) };
}
