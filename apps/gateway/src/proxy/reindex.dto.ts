import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ORG_ID, ORG_ID_MESSAGE, REINDEX_LIMITS, type ReindexRequest } from '#contracts';

/** Re-index some APIs, one org, or (empty body) every org the admin belongs to. */
export class ReindexRequestDto implements ReindexRequest {
  @ApiPropertyOptional({ description: 'Re-index every API of this org' })
  @IsOptional()
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId?: string;

  @ApiPropertyOptional({ type: [String], format: 'uuid', minItems: 1, maxItems: REINDEX_LIMITS.maxApiIds, description: 'Re-index these APIs' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(REINDEX_LIMITS.maxApiIds)
  @IsUUID('all', { each: true, message: 'apiIds must be API ids (UUIDs)' })
  apiIds?: string[];
}
