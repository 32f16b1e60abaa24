import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { type InternalReindexRequest, REINDEX_LIMITS } from '#contracts';

export class ReindexRequestDto implements InternalReindexRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  orgIds: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(REINDEX_LIMITS.maxApiIds)
  @IsUUID('all', { each: true })
  apiIds?: string[];

  @IsString()
  @MaxLength(256)
  requestedBy: string;
}
