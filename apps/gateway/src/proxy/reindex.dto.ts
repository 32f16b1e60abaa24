import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import type { ReindexRequest } from '#contracts';
import { ORG_ID, ORG_ID_MESSAGE } from '../registry/api.dto.js';

export class ReindexRequestDto implements ReindexRequest {
  @IsOptional()
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10_000)
  @IsUUID('all', { each: true, message: 'apiIds must be API ids (UUIDs)' })
  apiIds?: string[];
}
