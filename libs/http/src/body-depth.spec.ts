import { describe, expect, it, jest } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SPEC_LIMITS } from '#api-specs';
import { jsonDepth, limitBodyDepth, MAX_BODY_DEPTH } from './body-depth.js';

/** `depth` arrays one inside the other, parsed from text as the body parser would. */
const nestedArrays = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe(jsonDepth.name, () => {
  it.each([
    ['a string', 'text', 0],
    ['null', null, 0],
    ['no body', undefined, 0],
    ['an empty object', {}, 1],
    ['a flat array', [1, 'two', null], 1],
    ['an object holding an array', { a: [] }, 2],
    ['the deepest of several branches', { a: { b: 1 }, c: [[{ d: [] }]], e: {} }, 5],
  ])('should count %s as %d levels', (_name, value, depth) => {
    expect(jsonDepth(value)).toBe(depth);
  });

  it('should measure a body nested a million deep without overflowing the stack', () => {
    expect(jsonDepth(nestedArrays(1_000_000))).toBe(1_000_000);
  });
});

describe(limitBodyDepth.name, () => {
  const check = (body: unknown) => {
    const next = jest.fn<(error?: unknown) => void>();
    limitBodyDepth({ body } as Request, {} as Response, next);
    return next;
  };

  it('should pass a body nested as deep as the limit', () => {
    expect(check(nestedArrays(MAX_BODY_DEPTH)).mock.calls).toEqual([[]]);
  });

  it('should refuse one level deeper with 400, saying how deep it is and the limit', () => {
    const [[error]] = check({ spec: nestedArrays(MAX_BODY_DEPTH) }).mock.calls;
    expect(error).toBeInstanceOf(BadRequestException);
    expect((error as BadRequestException).message).toBe(`The request body is nested ${MAX_BODY_DEPTH + 1} levels deep; the limit is ${MAX_BODY_DEPTH}`);
  });

  it('should leave room for a spec nested as deep as the spec checks allow, inside the request body', () => {
    // The spec checks count the document as level 0; the body around it adds one more.
    expect(MAX_BODY_DEPTH).toBeGreaterThanOrEqual(SPEC_LIMITS.maxDepth + 2);
  });
});
