import type { NextFunction, Request, Response } from 'express';

/**
 * A spec sent as a JSON object becomes its JSON text before validation: the validation pipe's
 * transformer walks objects recursively and a hostile, deeply nested spec would overflow the
 * stack there. The registry stores specs as text anyway; the spec checks then run on it.
 */
export function specAsTextMiddleware(request: Request, _response: Response, next: NextFunction): void {
  const body = request.body as { spec?: unknown } | undefined;
  if (body && typeof body.spec === 'object' && body.spec !== null && !Array.isArray(body.spec)) {
    body.spec = JSON.stringify(body.spec);
  }
  next();
}
