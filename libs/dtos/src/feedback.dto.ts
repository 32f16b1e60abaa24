import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { FEEDBACK_LIMITS, FEEDBACK_SIGNALS, type FeedbackSignal, type InternalFeedbackRequest } from '#contracts';
import { NoNul, OPERATION_VERB } from '#http';

class FeedbackOperationDto {
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsString()
  @Matches(OPERATION_VERB, { message: 'operation.method must be an operation verb of up to 16 letters (GET, POST, PUBLISH, QUERY, MUTATION, RPC…)' })
  method: string;

  @IsString()
  @IsNotEmpty({ message: "operation.path must be the operation's address as the card lists it" })
  @MaxLength(FEEDBACK_LIMITS.operationPathMaxChars)
  @NoNul('operation.path')
  path: string;
}

/** What the gateway forwards: the caller's vote, with who they are (`person`, `orgIds`) set by the gateway. */
export class InternalFeedbackDto implements InternalFeedbackRequest {
  @IsUUID('all', { message: 'searchId must be the searchId of a search answer' })
  searchId: string;

  @IsUUID('all', { message: 'apiId must be an API id' })
  apiId: string;

  @IsOptional()
  @IsObject({ message: 'operation must be an object: {method, path}' })
  @ValidateNested()
  @Type(() => FeedbackOperationDto)
  operation?: FeedbackOperationDto;

  @IsBoolean({ message: 'helpful must be true or false' })
  helpful: boolean;

  @IsOptional()
  @IsIn(FEEDBACK_SIGNALS, { message: `signal must be one of ${FEEDBACK_SIGNALS.join(', ')}` })
  signal?: FeedbackSignal;

  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  person: string;

  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  orgIds: string[];
}

export class FeedbackOrgQueryDto {
  @IsString({ message: 'orgId is required' })
  @IsNotEmpty({ message: 'orgId is required' })
  @MaxLength(200)
  orgId: string;

  @IsOptional()
  @IsUUID('all', { message: 'apiId must be an API id' })
  apiId?: string;
}
