import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { type ApiImportRequest, IMPORT_LIMITS, LIFECYCLE_STAGES, type LifecycleStage, ORG_ID, ORG_ID_MESSAGE, REGISTRATION_LIMITS } from '#contracts';
import { KIND } from '../registry/api.dto.js';
import { TextField } from '../common/text-field.js';

export class ImportBodyDto implements ApiImportRequest {
  @ApiProperty({ pattern: ORG_ID.source, example: 'payments' })
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId: string;

  @TextField({
    maxChars: IMPORT_LIMITS.urlMaxChars,
    notBlank: true,
    doc: {
      example: 'https://specs.example.com/payments/openapi.yaml',
      description: 'http or https; loopback, private, link-local and metadata addresses are refused unless IMPORT_ALLOWED_HOSTS lists the host and port',
    },
  })
  url: string;

  @TextField({
    maxChars: REGISTRATION_LIMITS.nameMaxChars,
    presence: 'optional',
    notBlank: true,
    doc: { description: "The spec's `info.title` when absent, else the URL's file name" },
  })
  name?: string;

  @TextField({
    maxChars: REGISTRATION_LIMITS.versionMaxChars,
    presence: 'optional',
    notBlank: true,
    doc: { description: "The spec's `info.version` when absent, else `1`" },
  })
  version?: string;

  @TextField({ maxChars: REGISTRATION_LIMITS.teamNameMaxChars, presence: 'optional' })
  teamName?: string;

  @ApiPropertyOptional({ description: "The spec's format (`GET /api-management/kinds`); detected when absent" })
  @IsOptional()
  @IsString()
  @Matches(KIND, { message: 'format must be a format name (GET /api-management/kinds)' })
  format?: string;

  @ApiPropertyOptional({ enum: LIFECYCLE_STAGES, description: "The version's stage; default `production`" })
  @IsOptional()
  @IsIn(LIFECYCLE_STAGES, { message: `lifecycle must be one of ${LIFECYCLE_STAGES.join(', ')}` })
  lifecycle?: LifecycleStage;
}
