import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from '#contracts';
import { ProblemDoc } from './openapi-models.js';

const MEANING: Record<number, string> = {
  400: 'Invalid request (every validation message in `errors`)',
  401: 'Missing, malformed, expired or wrongly signed token',
  403: 'The token lacks the role, or the org is not one of its orgs',
  404: "No such resource in the caller's orgs",
  409: 'Conflicts with an existing API or version, or a change the org refuses (breaking, or not proven safe, in production)',
  413: 'Spec or body larger than the limit',
  415: 'The fetched document is not JSON, YAML or text',
  422: 'The spec cannot be read (not a document of a kind the platform reads, or past a safety limit), with the reason',
  429: "Rate limit, or the caller's own bound on URL imports in flight, exceeded; see Retry-After",
  503: 'Busy (the spec threads or URL imports are at their bound) or a dependency (search service, identity provider, queue) is down; retry after Retry-After',
  504: 'The URL did not answer within IMPORT_TIMEOUT_MS',
};

/** Documents the `application/problem+json` errors a route can answer. */
export function ApiProblems(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDoc),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: MEANING[status],
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(ProblemDoc) } } },
      }),
    ),
  );
}

/** The errors every authenticated route can answer. */
export const AUTHENTICATED_ERRORS = [401, 403, 429] as const;
