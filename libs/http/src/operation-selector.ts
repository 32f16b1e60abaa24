import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { OperationSelector } from '#contracts';
import { NoNul } from './validation.js';

/** An operation's verb, as filters and selectors take it: an HTTP method or another kind's verb (`PUBLISH`, `QUERY`, `MUTATION`, `RPC`…). */
export const OPERATION_VERB = /^[A-Z]{1,16}$/;

/**
 * The operation-detail routes' `?operationId=…`, or `?method=…&path=…`; which of the two was given is checked by `selectorProblem`.
 * `method` and `path` are the operation's verb and address in its API's kind: `GET /pets/{petId}`,
 * `PUBLISH user/signedup`, `MUTATION closePullRequest`, `RPC pkg.Service/Method`.
 */
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
  @Matches(OPERATION_VERB, { message: 'method must be an operation verb of up to 16 letters (GET, POST, PUBLISH, QUERY, MUTATION, RPC…)' })
  method?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: "path must be the operation's address, as in the spec (e.g. /pets/{petId}, user/signedup, closePullRequest)" })
  @MaxLength(2000)
  @NoNul('path')
  path?: string;
}

/** What is wrong with the choice of fields, if anything: either an operationId, or a method with a path. */
export function selectorProblem({ operationId, method, path }: OperationSelectorDto): string | undefined {
  if (operationId !== undefined) return method !== undefined || path !== undefined ? 'Give either operationId, or method and path, not both' : undefined;
  if (method === undefined && path === undefined) return 'Name the operation: operationId, or method and path';
  if (method === undefined || path === undefined)
    return `${method === undefined ? 'method' : 'path'} is required with ${method === undefined ? 'path' : 'method'}`;
  return undefined;
}
