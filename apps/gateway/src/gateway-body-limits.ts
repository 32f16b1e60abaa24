import type { Request } from 'express';

/** The routes whose body carries a spec (registration, re-registration, a version, a revision): the spec-sized limit. */
const SPEC_ROUTES: readonly [method: string, path: RegExp][] = [
  ['POST', /^\/api-management\/apis\/?$/i],
  ['PUT', /^\/api-management\/apis\/[^/]+\/?$/i],
  ['POST', /^\/api-management\/apis\/[^/]+\/versions\/?$/i],
  ['PUT', /^\/api-management\/apis\/[^/]+\/versions\/[^/]+\/?$/i],
];

/**
 * Routes whose largest legal body needs more than `DEFAULT_BODY_LIMIT_BYTES`, with room: a
 * search's query, filters and labels are at most ~60 KB of UTF-8 (SEARCH_LIMITS and the search
 * DTO: 50 team names of 100 characters, 50 tags of 200, 20 labels); MCP's search_apis takes less;
 * a re-index's 10,000 API ids are ~390 KB.
 */
const LARGER_ROUTES: readonly [method: string, path: RegExp, bytes: number][] = [
  ['POST', /^\/api-management\/ai\/admin\/reindex\/?$/i, 512 * 1024],
  ['POST', /^\/api-management\/ai\/search\/?$/i, 128 * 1024],
  ['POST', /^\/mcp\/?$/i, 128 * 1024],
];

/** A tree import's plan and apply: every item of the tree (its paths, names and details) beside up to a spec's worth of texts (the CLI sends no more a call). */
const TREE_IMPORT_ROUTE = /^\/api-management\/tree-imports\/(plan|apply)\/?$/i;
const TREE_ITEMS_BYTES = 16 * 1024 * 1024;

/** Every other route (feedback, an import, a PATCH, a dev token: ~20 KB at most), and any unknown one. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/** Each request's body limit, and the largest of them (the JSON parser's own, behind `limitOf`). */
export interface GatewayBodyLimits {
  limitOf: (request: Pick<Request, 'method' | 'path'>) => number;
  largest: number;
}

/**
 * A request's body limit, by its method and path as sent (Express routes in any case, with or
 * without a final `/`): the spec-sized one on the routes that carry a spec, a small one elsewhere.
 */
export function gatewayBodyLimits(specBodyLimitBytes: number): GatewayBodyLimits {
  const routes = [
    ...SPEC_ROUTES.map(([method, path]) => [method, path, specBodyLimitBytes] as const),
    ['POST', TREE_IMPORT_ROUTE, specBodyLimitBytes + TREE_ITEMS_BYTES] as const,
    ...LARGER_ROUTES,
  ];
  return {
    limitOf: ({ method, path }) => routes.find(([routeMethod, route]) => routeMethod === method && route.test(path))?.[2] ?? DEFAULT_BODY_LIMIT_BYTES,
    largest: Math.max(DEFAULT_BODY_LIMIT_BYTES, ...routes.map(([, , bytes]) => bytes)),
  };
}
