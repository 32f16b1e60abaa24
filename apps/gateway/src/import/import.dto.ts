import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { type ApiImportRequest, IMPORT_LIMITS, LIFECYCLE_STAGES, type LifecycleStage, ORG_ID, ORG_ID_MESSAGE, REGISTRATION_LIMITS } from '#contracts';
import { NoNul, NotBlank } from '#http';
import { KIND } from '../registry/api.dto.js';

export class ImportBodyDto implements ApiImportRequest {
  @ApiProperty({ pattern: ORG_ID.source, example: 'payments' })
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId: string;

  @ApiProperty({
    maxLength: IMPORT_LIMITS.urlMaxChars,
    example: 'https://specs.example.com/payments/openapi.yaml',
    description: 'http or https; loopback, private, link-local and metadata addresses are refused unless IMPORT_ALLOWED_HOSTS lists the host and port',
  })
  @IsString()
  @NotBlank('url')
  @MaxLength(IMPORT_LIMITS.urlMaxChars)
  @NoNul('url')
  url: string;

  @ApiPropertyOptional({ maxLength: REGISTRATION_LIMITS.nameMaxChars, description: 'The spec\'s `info.title` when absent, else the URL\'s file name' })
  @IsOptional()
  @IsString()
  @NotBlank('name')
  @MaxLength(REGISTRATION_LIMITS.nameMaxChars)
  @NoNul('name')
  name?: string;

  @ApiPropertyOptional({ maxLength: REGISTRATION_LIMITS.versionMaxChars, description: 'The spec\'s `info.version` when absent, else `1`' })
  @IsOptional()
  @IsString()
  @NotBlank('version')
  @MaxLength(REGISTRATION_LIMITS.versionMaxChars)
  @NoNul('version')
  version?: string;

  @ApiPropertyOptional({ maxLength: REGISTRATION_LIMITS.teamNameMaxChars })
  @IsOptional()
  @IsString()
  @MaxLength(REGISTRATION_LIMITS.teamNameMaxChars)
  @NoNul('teamName')
  teamName?: string;

  @ApiPropertyOptional({ description: 'The spec\'s format (`GET /api-management/kinds`); detected when absent' })
  @IsOptional()
  @IsString()
  @Matches(KIND, { message: 'format must be a format name (GET /api-management/kinds)' })
  format?: string;

  @ApiPropertyOptional({ enum: LIFECYCLE_STAGES, description: 'The version\'s stage; default `production`' })
  @IsOptional()
  @IsIn(LIFECYCLE_STAGES, { message: `lifecycle must be one of ${LIFECYCLE_STAGES.join(', ')}` })
  lifecycle?: LifecycleStage;
}
