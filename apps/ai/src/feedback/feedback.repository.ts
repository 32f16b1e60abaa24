import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pgvector from 'pgvector';
import { DataSource, type EntityManager } from 'typeorm';
import type { FeedbackReport, FeedbackSignal } from '#contracts';
import { apiNotDeleted } from '../scope/live.js';

/** A logged search, while it can still be given feedback. */
export interface LoggedSearch {
  id: string;
  orgId: string;
  query: string;
  /** The APIs of the answer's first cards, in order (`SHOWN_CARDS`). */
  shown: string[];
}

/** How many of an answer's cards a search log keeps as what it showed. */
export const SHOWN_CARDS = 10;

/** One signal as stored: a person's vote (or opened operation) on an API for the need a search expressed. */
export interface FeedbackRow {
  orgId: string;
  /** The keyed hash of the person (see `FeedbackService`). */
  person: string;
  searchId: string;
  apiId: string;
  /** '' when the signal is about the API as a whole. */
  method: string;
  path: string;
  helpful: boolean;
  signal: FeedbackSignal;
  query: string;
  /** What the search showed (`LoggedSearch.shown`). */
  shown: string[];
  /** The need the query expresses (`needText`): its words are compared with later needs'. */
  need: string;
  model: string;
  embedding: number[];
  /** How close the need is to needs in general, under the model's need matching `needMatching` (absent: not measured yet). */
  needBackground?: number;
  needMatching?: string;
}

/** A stored signal's need, to be measured under a new need-matching fit (`NeedMatchings`). */
export interface UnmeasuredNeed {
  key: { orgId: string; person: string; searchId: string; apiId: string; method: string; path: string };
  embedding: number[];
}

/** A signal given for a need near the one being searched (see `UsageLearning`). */
export interface PastSignal {
  person: string;
  apiId: string;
  method: string;
  path: string;
  helpful: boolean;
  signal: FeedbackSignal;
  lexemes: string[];
  /** What the signal's search showed. */
  shown: string[];
  /** Cosine similarity of the two needs' vectors. */
  similarity: number;
  /** The need's background under the current need matching; null when not measured under it. */
  needBackground: number | null;
  ageDays: number;
}

const REPORT_RECENT = 200;

/** The SQL of learning from usage: the search log, the signals, and each org's feedback version. */
@Injectable()
export class FeedbackRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async logSearch(search: LoggedSearch): Promise<void> {
    await this.dataSource.query(`INSERT INTO platform_ai.searches (id, org_id, query, shown) VALUES ($1, $2, $3, $4)`, [
      search.id,
      search.orgId,
      search.query,
      search.shown,
    ]);
  }

  /** The search as logged, and whether it is older than `windowDays` (`expired`). */
  async search(id: string, windowDays: number): Promise<(LoggedSearch & { expired: boolean }) | undefined> {
    const [row]: (LoggedSearch & { expired: boolean })[] = await this.dataSource.query(
      `SELECT id, org_id AS "orgId", query, shown, created_at <= now() - make_interval(secs => $2) AS expired FROM platform_ai.searches WHERE id = $1`,
      [id, windowDays * 86_400],
    );
    return row;
  }

  /** Whether the API's indexed operations include this one (of any model and revision kept). */
  async hasOperation(apiId: string, operation: { method: string; path: string }): Promise<boolean> {
    const rows = await this.dataSource.query(`SELECT 1 FROM platform_ai.api_chunks WHERE api_id = $1 AND level = 'L2' AND method = $2 AND path = $3 LIMIT 1`, [
      apiId,
      operation.method,
      operation.path,
    ]);
    return rows.length > 0;
  }

  /** Whether the org's index holds the API (any stage: a deprecated API can be the answer someone needed). */
  async apiInOrg(apiId: string, orgId: string): Promise<boolean> {
    const rows = await this.dataSource.query(`SELECT 1 FROM platform_ai.api_indexing_status WHERE api_id = $1 AND org_id = $2 AND ${apiNotDeleted()}`, [
      apiId,
      orgId,
    ]);
    return rows.length > 0;
  }

  /**
   * Stores a signal, once per person, search, API and operation: a vote replaces what the person
   * said before on it; opening it again, or after a vote, changes nothing (a vote says more). A
   * "not helpful" on the API also withdraws the operations of it that the person opened after the
   * same search.
   */
  async record(row: FeedbackRow): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const changed: unknown[] = await manager.query(
        `INSERT INTO platform_ai.search_feedback AS f (org_id, person, search_id, api_id, method, path, helpful, signal, query, lexemes, model, embedding, need_background, need_matching, shown)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, tsvector_to_array(to_tsvector('english', $12)), $10, $11, $13, $14, $15)
         ON CONFLICT (org_id, person, search_id, api_id, method, path) DO UPDATE
           SET helpful = EXCLUDED.helpful, signal = EXCLUDED.signal, updated_at = now()
           WHERE EXCLUDED.signal = 'vote' AND (f.helpful <> EXCLUDED.helpful OR f.signal <> 'vote')
         RETURNING 1`,
        [
          row.orgId,
          row.person,
          row.searchId,
          row.apiId,
          row.method,
          row.path,
          row.helpful,
          row.signal,
          row.query,
          row.model,
          pgvector.toSql(row.embedding),
          row.need,
          row.needBackground ?? null,
          row.needMatching ?? null,
          row.shown,
        ],
      );
      // Saying the API was not it takes back what the person's openings of its operations after that search said.
      const withdrawn: unknown[] =
        row.signal === 'vote' && !row.helpful && !row.method
          ? await manager.query(
              `DELETE FROM platform_ai.search_feedback WHERE org_id = $1 AND person = $2 AND search_id = $3 AND api_id = $4 AND method <> '' AND signal = 'opened' RETURNING 1`,
              [row.orgId, row.person, row.searchId, row.apiId],
            )
          : [];
      // The same vote again, or an opening after a vote, changes nothing: the org's cached answers stay.
      if (changed.length > 0 || withdrawn.length > 0) await this.bumpVersion(manager, row.orgId);
    });
  }

  /**
   * Of the org's newest `bounds.scanned` signals (of this model, younger than `retentionDays`: what
   * a search may cost, however much feedback the org gathers), the `bounds.nearest` whose needs
   * are nearest the query, at most `bounds.perPerson` of each person's: one person's many signals
   * (invented operations, one search after another) cannot crowd out everyone else's. A need
   * whose vector has no direction (NaN similarity) is left out. Each need's background is read
   * when it was measured under `matching` (the model's current need matching).
   */
  async nearNeeds(
    scope: { orgId: string; model: string; dimensions: number },
    vector: number[],
    matching: string | undefined,
    retentionDays: number,
    bounds: { scanned: number; nearest: number; perPerson: number },
    manager?: EntityManager,
  ): Promise<PastSignal[]> {
    const dimensions = Number(scope.dimensions);
    const rows: PastSignal[] = await (manager ?? this.dataSource.manager).query(
      `SELECT person, "apiId", method, path, helpful, signal, lexemes, shown, similarity, "needBackground", "ageDays" FROM (
         SELECT *, row_number() OVER (PARTITION BY person ORDER BY similarity DESC) AS nth FROM (
           SELECT person, api_id AS "apiId", method, path, helpful, signal, lexemes, shown,
             1 - (embedding::vector(${dimensions}) <=> $3::vector(${dimensions})) AS similarity,
             CASE WHEN need_matching = $8 THEN need_background END AS "needBackground",
             extract(epoch FROM now() - updated_at) / 86400 AS "ageDays"
           FROM (
             SELECT * FROM platform_ai.search_feedback
             WHERE org_id = $1 AND model = $2 AND updated_at > now() - make_interval(secs => $4)
             ORDER BY updated_at DESC LIMIT $5
           ) newest
         ) measured WHERE similarity <> 'NaN'::float8
       ) ranked
       WHERE nth <= $6
       ORDER BY similarity DESC
       LIMIT $7`,
      [scope.orgId, scope.model, pgvector.toSql(vector), retentionDays * 86_400, bounds.scanned, bounds.perPerson, bounds.nearest, matching ?? null],
    );
    return rows.map((row) => ({
      ...row,
      similarity: Number(row.similarity),
      needBackground: row.needBackground === null ? null : Number(row.needBackground),
      ageDays: Number(row.ageDays),
    }));
  }

  /** Up to `limit` of the model's signals whose need was not measured under the need matching `matching`. */
  async unmeasuredNeeds(model: string, matching: string, limit: number): Promise<UnmeasuredNeed[]> {
    const rows: (UnmeasuredNeed['key'] & { embedding: string })[] = await this.dataSource.query(
      `SELECT org_id AS "orgId", person, search_id AS "searchId", api_id AS "apiId", method, path, embedding::text AS embedding
       FROM platform_ai.search_feedback WHERE model = $1 AND need_matching IS DISTINCT FROM $2 LIMIT $3`,
      [model, matching, limit],
    );
    return rows.map(({ embedding, ...key }) => ({ key, embedding: pgvector.fromSql(embedding) as number[] }));
  }

  /** Stores the needs' backgrounds under the need matching `matching`. */
  async measureNeeds(matching: string, measured: { key: UnmeasuredNeed['key']; background: number }[]): Promise<void> {
    if (measured.length === 0) return;
    await this.dataSource.query(
      `UPDATE platform_ai.search_feedback f SET need_background = m.background, need_matching = $1
       FROM jsonb_to_recordset($2::jsonb) AS m("orgId" text, person text, "searchId" uuid, "apiId" uuid, method text, path text, background real)
       WHERE f.org_id = m."orgId" AND f.person = m.person AND f.search_id = m."searchId" AND f.api_id = m."apiId" AND f.method = m.method AND f.path = m.path`,
      [matching, JSON.stringify(measured.map(({ key, background }) => ({ ...key, background })))],
    );
  }

  /** Whether any org has signals of the model: a need matching must then be fitted for it. */
  async hasSignals(model: string): Promise<boolean> {
    const rows = await this.dataSource.query(`SELECT 1 FROM platform_ai.search_feedback WHERE model = $1 LIMIT 1`, [model]);
    return rows.length > 0;
  }

  async report(orgId: string, retentionDays: number): Promise<Pick<FeedbackReport, 'signals' | 'people' | 'apis' | 'recent'>> {
    const age = retentionDays * 86_400;
    const [totals]: { signals: string; people: string }[] = await this.dataSource.query(
      `SELECT count(*) AS signals, count(DISTINCT person) AS people FROM platform_ai.search_feedback WHERE org_id = $1 AND updated_at > now() - make_interval(secs => $2)`,
      [orgId, age],
    );
    // People, not signals: one person's many votes on an API count once each way.
    const apis: { apiId: string; helpful: string; notHelpful: string }[] = await this.dataSource.query(
      `SELECT api_id AS "apiId", count(DISTINCT person) FILTER (WHERE helpful) AS helpful, count(DISTINCT person) FILTER (WHERE NOT helpful) AS "notHelpful"
       FROM platform_ai.search_feedback WHERE org_id = $1 AND updated_at > now() - make_interval(secs => $2)
       GROUP BY api_id ORDER BY count(DISTINCT person) DESC, api_id LIMIT 1000`,
      [orgId, age],
    );
    const recent: (FeedbackReport['recent'][number] & { method: string; path: string })[] = await this.dataSource.query(
      `SELECT query, api_id AS "apiId", method, path, helpful, signal, left(person, 12) AS person, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at
       FROM platform_ai.search_feedback WHERE org_id = $1 AND updated_at > now() - make_interval(secs => $2)
       ORDER BY updated_at DESC LIMIT ${REPORT_RECENT}`,
      [orgId, age],
    );
    return {
      signals: Number(totals.signals),
      people: Number(totals.people),
      apis: apis.map((api) => ({ apiId: api.apiId, helpful: Number(api.helpful), notHelpful: Number(api.notHelpful) })),
      recent: recent.map(({ method, path, ...signal }) => ({ ...signal, ...(method ? { operation: { method, path } } : {}) })),
    };
  }

  /** Erases the org's signals (of one API with `apiId`); how many. */
  erase(orgId: string, apiId?: string): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [{ count }]: { count: string }[] = await manager.query(
        `WITH erased AS (DELETE FROM platform_ai.search_feedback WHERE org_id = $1 ${apiId ? 'AND api_id = $2' : ''} RETURNING 1) SELECT count(*) AS count FROM erased`,
        apiId ? [orgId, apiId] : [orgId],
      );
      await this.bumpVersion(manager, orgId);
      return Number(count);
    });
  }

  /** Forgets searches older than `windowDays` and signals older than `retentionDays`. */
  async purge({ windowDays, retentionDays }: { windowDays: number; retentionDays: number }): Promise<void> {
    await this.dataSource.query(`DELETE FROM platform_ai.searches WHERE created_at < now() - make_interval(secs => $1)`, [windowDays * 86_400]);
    await this.dataSource.query(`DELETE FROM platform_ai.search_feedback WHERE updated_at < now() - make_interval(secs => $1)`, [retentionDays * 86_400]);
  }

  private async bumpVersion(manager: EntityManager, orgId: string): Promise<void> {
    await manager.query(
      `INSERT INTO platform_ai.feedback_versions AS v (org_id, version) VALUES ($1, 1) ON CONFLICT (org_id) DO UPDATE SET version = v.version + 1`,
      [orgId],
    );
  }
}
