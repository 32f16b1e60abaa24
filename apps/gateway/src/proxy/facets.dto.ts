import { ApiProperty } from '@nestjs/swagger';
import { IsString, MinLength } from 'class-validator';

export class FacetsQueryDto {
  @ApiProperty({ description: "One of the caller's orgs", example: 'payments' })
  @IsString({ message: 'orgId is required' })
  @MinLength(1, { message: 'orgId must be a non-empty string' })
  orgId: string;
}
