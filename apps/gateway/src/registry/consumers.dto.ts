import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CONSUMER_LIMITS,
  type ConsumedOperation,
  type ConsumerDeclaration,
  type ConsumerDependencyQuery,
  LIFECYCLE_STAGES,
  type LifecycleStage,
  ORG_ID,
  ORG_ID_MESSAGE,
  REGISTRATION_LIMITS,
} from '#contracts';
import { TextField } from '../common/text-field.js';

const STAGE_MESSAGE = `stage must be one or more of ${LIFECYCLE_STAGES.join(', ')}`;

export class ConsumedOperationDto implements ConsumedOperation {
  @ApiProperty({
    maxLength: CONSUMER_LIMITS.methodMaxChars,
    example: 'GET',
    description: "As the endpoints list writes it: an HTTP verb, or the kind's own (QUERY, RPC, TOOL…)",
  })
  @IsString()
  @Matches(/^[A-Za-z][A-Za-z_-]{0,19}$/, { message: 'operations.method must be a word such as GET or QUERY' })
  method: string;

  @TextField({ maxChars: CONSUMER_LIMITS.pathMaxChars, notBlank: true, label: 'operations.path', doc: { example: '/pets/{id}' } })
  path: string;
}

export class ConsumerDeclarationDto implements ConsumerDeclaration {
  @TextField({
    maxChars: CONSUMER_LIMITS.nameMaxChars,
    notBlank: true,
    doc: { example: 'billing-service', description: 'The service or app that uses the API' },
  })
  name: string;

  @TextField({ maxChars: CONSUMER_LIMITS.teamMaxChars, presence: 'optional' })
  teamName?: string;

  @TextField({ maxChars: CONSUMER_LIMITS.contactMaxChars, presence: 'optional', doc: { description: 'Whom to tell: an address, a channel, a URL' } })
  contact?: string;

  @TextField({
    maxChars: REGISTRATION_LIMITS.versionMaxChars,
    presence: 'optional',
    notBlank: true,
    doc: { description: 'The version it uses; absent: whichever is recommended' },
  })
  version?: string;

  @ApiPropertyOptional({
    type: [ConsumedOperationDto],
    maxItems: CONSUMER_LIMITS.maxOperations,
    description: 'The operations it calls; absent or empty: any may be',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CONSUMER_LIMITS.maxOperations)
  @ValidateNested({ each: true })
  @Type(() => ConsumedOperationDto)
  operations?: ConsumedOperationDto[];
}

export class ConsumerDependencyQueryDto implements ConsumerDependencyQuery {
  @ApiProperty({ pattern: ORG_ID.source, example: 'payments' })
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId: string;

  @ApiPropertyOptional({
    type: [String],
    enum: LIFECYCLE_STAGES,
    description: 'Only uses of versions in these stages (repeat it): `deprecated`, `retired` tell who still uses them',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray({ message: STAGE_MESSAGE })
  @ArrayMaxSize(LIFECYCLE_STAGES.length)
  @IsIn(LIFECYCLE_STAGES, { each: true, message: STAGE_MESSAGE })
  stage?: LifecycleStage[];
}
