import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { ApiIndexingStatusEntity } from './api-indexing-status.entity.js';

/** Reads of `platform_ai.api_indexing_status` (the index store writes it, with the chunks it describes). */
@Injectable()
export class StatusRepository {
  constructor(@InjectRepository(ApiIndexingStatusEntity) private readonly statuses: Repository<ApiIndexingStatusEntity>) {}

  /** The status rows of these APIs (none for an API the index never received). */
  byApiIds(apiIds: string[]): Promise<ApiIndexingStatusEntity[]> {
    return apiIds.length === 0 ? Promise.resolve([]) : this.statuses.findBy({ apiId: In(apiIds) });
  }
}
