import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EventEntity } from '../events/event.entity.js';

/** The SQL of watches and of the notifications feed (the events outbox, read newest first). */
@Injectable()
export class NotificationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async watching(apiId: string, sub: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM platform_backend.api_watches WHERE api_id = $1 AND sub = $2`, [apiId, sub]);
    return rows.length > 0;
  }

  async watch(orgId: string, apiId: string, sub: string): Promise<void> {
    await this.dataSource.query(`INSERT INTO platform_backend.api_watches (api_id, sub, org_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
      apiId,
      sub,
      orgId,
    ]);
  }

  async unwatch(apiId: string, sub: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM platform_backend.api_watches WHERE api_id = $1 AND sub = $2`, [apiId, sub]);
  }

  /** The APIs of these orgs this person watches (at most `limit`). */
  async watchedBy(orgs: string[], sub: string, limit: number): Promise<string[]> {
    const rows: { api_id: string }[] = await this.dataSource.query(
      `SELECT api_id FROM platform_backend.api_watches WHERE sub = $1 AND org_id = ANY($2) ORDER BY created_at DESC LIMIT $3`,
      [sub, orgs, limit],
    );
    return rows.map((row) => row.api_id);
  }

  /** The `seq` of an event of these orgs (a page's cursor). */
  async seqOf(orgs: string[], eventId: string): Promise<string | undefined> {
    const [row]: { seq: string }[] = await this.dataSource.query(`SELECT seq FROM platform_backend.events WHERE id = $1 AND org_id = ANY($2)`, [eventId, orgs]);
    return row?.seq;
  }

  /** Events of these APIs (of these orgs), newest first, older than `beforeSeq` when given. */
  async events(orgs: string[], apiIds: string[], beforeSeq: string | undefined, limit: number): Promise<EventEntity[]> {
    if (apiIds.length === 0) return [];
    return this.dataSource
      .getRepository(EventEntity)
      .createQueryBuilder('event')
      .where('event.org_id = ANY(:orgs) AND event.api_id = ANY(:apiIds)', { orgs, apiIds })
      .andWhere(beforeSeq === undefined ? 'TRUE' : 'event.seq < :beforeSeq', { beforeSeq })
      .orderBy('event.seq', 'DESC')
      .limit(limit)
      .getMany();
  }
}
