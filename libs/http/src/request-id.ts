import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const HEADER = 'x-request-id';
const VALID = /^[\w.:-]{1,128}$/;

type WithId = Request & { requestId?: string };

/** Takes the caller's `X-Request-Id` (if sane) or makes one, and echoes it on the response. */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const incoming = request.header(HEADER);
  const id = incoming && VALID.test(incoming) ? incoming : randomUUID();
  (request as WithId).requestId = id;
  response.setHeader('X-Request-Id', id);
  next();
}

export function requestIdOf(request: Request): string | undefined {
  return (request as WithId).requestId;
}
