import { ArrayMaxSize, ArrayMinSize, IsArray, IsString } from 'class-validator';
import type { InternalFacetsRequest } from '#contracts';

export class FacetsRequestDto implements InternalFacetsRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  orgIds: string[];
}
