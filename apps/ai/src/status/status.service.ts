import { Injectable } from '@nestjs/common';
import type { IndexingStatus, IndexState } from '#contracts';
import type { ApiIndexingStatusEntity } from '../index-store/api-indexing-status.entity.js';
import { StatusRepository } from '../index-store/status.repository.js';

export interface ExpectedRevision {
  apiId: string;
  orgId: string;
  /** The registry's newest revision: anything older here means that revision is still queued. */
  revision: number;
}

@Injectable()
export class StatusService {
  constructor(private readonly statuses: StatusRepository) {}

  async statusesOf(expected: ExpectedRevision[]): Promise<IndexingStatus[]> {
    if (expected.length === 0) return [];
    const rows = await this.statuses.byApiIds(expected.map((e) => e.apiId));
    const byId = new Map(rows.map((row) => [row.apiId, row]));
    return expected.map((e) => describe(e, byId.get(e.apiId)));
  }

  /** Where the index stands for each of these APIs of these orgs; none for an API it never received. */
  async indexStates(apis: { apiId: string; orgId: string }[]): Promise<IndexState[]> {
    if (apis.length === 0) return [];
    const orgOf = new Map(apis.map((api) => [api.apiId, api.orgId]));
    const rows = await this.statuses.byApiIds([...orgOf.keys()]);
    return rows
      .filter((row) => row.orgId === orgOf.get(row.apiId))
      .map((row) => ({ apiId: row.apiId, revision: row.revision, status: row.status, deleted: row.deleted }));
  }
}

function describe(expected: ExpectedRevision, row: ApiIndexingStatusEntity | undefined): IndexingStatus {
  // The registry's revision has not reached the worker yet: it waits in the queue.
  if (!row || row.orgId !== expected.orgId || row.deleted || row.revision < expected.revision) {
    return { apiId: expected.apiId, status: 'PENDING' };
  }
  return {
    apiId: row.apiId,
    status: row.status,
    // The kind of the spec that is live: known once a revision was indexed.
    ...(row.indexedRevision !== null ? { kind: row.kind } : {}),
    ...(row.indexedAt && row.status === 'COMPLETED' ? { indexedAt: row.indexedAt.toISOString() } : {}),
    ...(row.chunkCount !== null && row.status === 'COMPLETED' ? { chunkCount: row.chunkCount } : {}),
    ...(row.warnings?.length && row.status === 'COMPLETED' ? { warnings: row.warnings } : {}),
    ...(row.error ? { error: row.error } : {}),
  };
}
