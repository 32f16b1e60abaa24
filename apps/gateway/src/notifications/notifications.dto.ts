import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUUID, Matches, Max, Min } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { NOTIFICATION_LIMITS, type NotificationQuery, ORG_ID, ORG_ID_MESSAGE } from '#contracts';

export class NotificationQueryDto implements NotificationQuery {
  @ApiPropertyOptional({ pattern: ORG_ID.source, description: 'One org (default: every org of your token)' })
  @IsOptional()
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "The previous page's `nextBefore`: older events than that one" })
  @IsOptional()
  @IsUUID('all', { message: 'before must be an eventId (a UUID)' })
  before?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: NOTIFICATION_LIMITS.feedPageMax, default: NOTIFICATION_LIMITS.feedPageDefault })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1)
  @Max(NOTIFICATION_LIMITS.feedPageMax)
  limit?: number;
}
