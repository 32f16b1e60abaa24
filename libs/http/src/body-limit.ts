import type { NextFunction, Request, Response } from 'express';
import { PROBLEM_CONTENT_TYPE } from '#contracts';
import { problemOf } from './problem.filter.js';
import { requestIdOf } from './request-id.js';

/** A request's body limit in bytes, by its method and path (before routing: `request.path` as sent). */
export type BodyLimitOf = (request: Request) => number;

/**
 * Each request's body within its route's limit (`limitOf`), before the JSON parser reads it: a
 * declared `Content-Length` over it, or a chunked body once past it, is answered 413 at once and
 * the connection closed, so that no more of it is read. (body-parser reads a refused body to its
 * end before answering, and a chunked one may never end.) The parser after it holds the largest
 * limit of all routes; `skipRefusedBodies` after the parser stops a request refused while it read.
 */
export function limitBodySize(limitOf: BodyLimitOf) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const limit = limitOf(request);
    const declared = request.headers['content-length'];
    if (declared !== undefined) {
      if (Number(declared) > limit) return refuse(request, response, limit);
      return next();
    }
    if (request.headers['transfer-encoding'] !== undefined) {
      let received = 0;
      const count = (chunk: Buffer) => {
        received += chunk.length;
        if (received <= limit) return;
        request.off('data', count);
        refuse(request, response, limit);
      };
      // The parser, next, listens from the same tick: no chunk is emitted before it does.
      request.on('data', count);
    }
    next();
  };
}

/** After the JSON parser: a chunked body refused while the parser read it (and finished) goes no further. */
export function skipRefusedBodies(_request: Request, response: Response, next: NextFunction): void {
  if (!response.headersSent) next();
}

function refuse(request: Request, response: Response, limit: number): void {
  if (response.headersSent) return;
  const detail = `The request body is larger than the limit of ${limit.toLocaleString('en-US')} bytes for ${request.method} ${request.path}`;
  const problem = { ...problemOf(413, detail), instance: requestIdOf(request) };
  // `Connection: close` is what stops the reading: to keep the connection, Node would read the rest.
  response.writeHead(413, { 'content-type': PROBLEM_CONTENT_TYPE, connection: 'close' }).end(JSON.stringify(problem));
}
