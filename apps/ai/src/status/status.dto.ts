import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsString, IsUUID, Min, ValidateNested } from 'class-validator';

export class ExpectedRevisionDto {
  @IsUUID()
  apiId: string;

  @IsString()
  orgId: string;

  @IsInt()
  @Min(1)
  revision: number;
}

export class IndexingStatusesRequestDto {
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => ExpectedRevisionDto)
  apis: ExpectedRevisionDto[];
}
