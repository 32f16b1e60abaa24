import { BadRequestException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * How many levels of objects and arrays a JSON request body may nest. Validation
 * (class-transformer) and JSON.stringify recurse, so a body nested thousands deep overflows the
 * stack (a 500). A spec may nest 200 levels (SPEC_LIMITS.maxDepth: 201 with the document itself)
 * and is sent inside the request body: 256 takes that with room to spare and stays far below
 * what overflows.
 */
export const MAX_BODY_DEPTH = 256;

/**
 * How many levels of objects and arrays `value` nests: 0 for a scalar, 1 for `{}` or `[1, 2]`,
 * 2 for `{"a": []}`. Iterative (no recursion to overflow), and cheap next to JSON.parse itself.
 */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  // Parallel stacks rather than [container, depth] pairs: a 10 MB spec holds a million values.
  const containers: object[] = [];
  const depths: number[] = [];
  const visit = (child: unknown, depth: number) => {
    if (typeof child !== 'object' || child === null) return;
    containers.push(child);
    depths.push(depth);
  };
  visit(value, 1);
  while (containers.length > 0) {
    const container = containers.pop()!;
    const depth = depths.pop()!;
    deepest = Math.max(deepest, depth);
    if (Array.isArray(container)) {
      for (const child of container) visit(child, depth + 1);
    } else {
      // Parsed JSON has only own properties; `for…in` is twice as fast as Object.values here.
      for (const key in container) visit((container as Record<string, unknown>)[key], depth + 1);
    }
  }
  return deepest;
}

/** Refuses (400) a parsed JSON body nested deeper than MAX_BODY_DEPTH; goes after the body parser. */
export function limitBodyDepth(request: Request, _response: Response, next: NextFunction): void {
  const depth = jsonDepth(request.body);
  if (depth <= MAX_BODY_DEPTH) return next();
  next(new BadRequestException(`The request body is nested ${depth} levels deep; the limit is ${MAX_BODY_DEPTH}`));
}
