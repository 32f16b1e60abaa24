import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { OperationSelector } from '#contracts';
import { NoNul } from '#http';
import { HTTP_METHODS } from '#spec';

const METHODS = HTTP_METHODS.map((method) => method.toUpperCase());

/** `?operationId=…`, or `?method=…&path=…`; which of the two was given is checked by `selectorProblem`. */
export class OperationSelectorDto implements OperationSelector {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  @NoNul('operationId')
  operationId?: string;

  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsString()
  @IsIn(METHODS, { message: `method must be one of ${METHODS.join(', ')}` })
  method?: string;

  @IsOptional()
  @IsString()
  @Matches(/^\//, { message: 'path must start with "/", as in the spec (e.g. /pets/{petId})' })
  @MaxLength(2000)
  @NoNul('path')
  path?: string;
}

/** What is wrong with the choice of fields, if anything: either an operationId, or a method with a path. */
export function selectorProblem({ operationId, method, path }: OperationSelectorDto): string | undefined {
  if (operationId !== undefined) return method !== undefined || path !== undefined ? 'Give either operationId, or method and path, not both' : undefined;
  if (method === undefined && path === undefined) return 'Name the operation: operationId, or method and path';
  if (method === undefined || path === undefined) return `${method === undefined ? 'method' : 'path'} is required with ${method === undefined ? 'path' : 'method'}`;
  return undefined;
}
