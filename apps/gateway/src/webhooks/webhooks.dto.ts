import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { EVENT_TYPES, type EventType, NOTIFICATION_LIMITS, ORG_ID, ORG_ID_MESSAGE, REGISTRATION_LIMITS, type WebhookRegistration } from '#contracts';
import { TextField } from '../common/text-field.js';

export class WebhookRegistrationDto implements WebhookRegistration {
  @ApiProperty({ pattern: ORG_ID.source, example: 'payments' })
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId: string;

  @TextField({
    maxChars: NOTIFICATION_LIMITS.urlMaxChars,
    notBlank: true,
    doc: {
      example: 'https://hooks.example.com/api-events',
      description:
        'http or https, without credentials; loopback, private, link-local and metadata addresses are refused unless WEBHOOK_ALLOWED_HOSTS lists the host and port',
    },
  })
  url: string;

  @ApiPropertyOptional({ type: [String], enum: EVENT_TYPES, description: 'The event types sent; all when absent or empty' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(EVENT_TYPES.length)
  @IsIn(EVENT_TYPES, { each: true, message: `each value in events must be one of ${EVENT_TYPES.join(', ')}` })
  events?: EventType[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: NOTIFICATION_LIMITS.maxApiIds,
    description: "Only these APIs' events (APIs of the org); all when absent or empty",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(NOTIFICATION_LIMITS.maxApiIds)
  @IsString({ each: true })
  apiIds?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: NOTIFICATION_LIMITS.maxTeamNames,
    description: "Only events of these teams' APIs, in any case; all when absent or empty",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(NOTIFICATION_LIMITS.maxTeamNames)
  @IsString({ each: true })
  @MaxLength(REGISTRATION_LIMITS.teamNameMaxChars, { each: true })
  teamNames?: string[];

  @TextField({ maxChars: NOTIFICATION_LIMITS.descriptionMaxChars, presence: 'optional' })
  description?: string;
}

export class WebhookListQueryDto {
  @ApiProperty({ description: "One of the caller's orgs", example: 'payments' })
  @IsString({ message: 'orgId is required' })
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId: string;
}
