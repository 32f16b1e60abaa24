import { Type } from 'class-transformer';
import {
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
} from 'class-validator';

export const ORG_ID = /^[A-Za-z0-9][\w.-]{0,99}$/;
export const ORG_ID_MESSAGE = 'orgId must be 1-100 letters, digits, ".", "_" or "-"';

/** `spec` is an OpenAPI document as an object, or its JSON/YAML text. */
function IsSpecInput() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isSpecInput',
      target: target.constructor,
      propertyName,
      options: { message: 'spec must be an OpenAPI document: a JSON object or a JSON/YAML string' },
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && value.trim().length > 0) ||
          (typeof value === 'object' && value !== null && !Array.isArray(value)),
      },
    });
}

export class ApiBodyDto {
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @IsString()
  @MinLength(1)
  @MaxLength(100)
  version: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  teamName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @IsDefined({ message: 'spec is required' })
  @IsSpecInput()
  spec: string | Record<string, unknown>;
}

export class ListApisQueryDto {
  @IsOptional()
  @IsString()
  @Matches(ORG_ID, { message: ORG_ID_MESSAGE })
  orgId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  teamName?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  pageSize: number = 20;
}
