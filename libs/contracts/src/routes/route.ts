/** The methods the platform's routes use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One HTTP route, declared once: its method, its path (`:name` for a path parameter) and, as types
 * only, what it takes and what it answers. Servers mount it, clients call it, documents describe
 * it — all from this value, so a path or a shape cannot drift between them.
 */
export interface Route<Path extends string = string, Response = unknown, Body = undefined, Query = undefined> {
  readonly method: HttpMethod;
  readonly path: Path;
  /** Never set: carries the shapes to typed clients (`RouteResponse`, `RouteBody`, `RouteQuery`). */
  readonly shapes?: { response: Response; body: Body; query: Query };
}

/** `route<Answer, Body, Query>()('POST', '/search')`: curried so that the path stays a literal type. */
export function route<Response, Body = undefined, Query = undefined>() {
  return <const Path extends string>(method: HttpMethod, path: Path): Route<Path, Response, Body, Query> => ({ method, path });
}

export type AnyRoute = Route<string, unknown, unknown, unknown>;
export type RouteResponse<R> = R extends Route<string, infer Response, unknown, unknown> ? Response : never;
export type RouteBody<R> = R extends Route<string, unknown, infer Body, unknown> ? Body : never;
export type RouteQuery<R> = R extends Route<string, unknown, unknown, infer Query> ? Query : never;

/** The names of a path's `:parameters`: `'/apis/:apiId/versions/:version'` → `'apiId' | 'version'`. */
export type PathParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;
export type PathParams<Path extends string> = { [Name in PathParamNames<Path>]: string };

/** A call's path parameters: `{ params }` when the path has some, nothing to give when it has none. */
export type ParamsInput<Path extends string> = [PathParamNames<Path>] extends [never] ? { params?: undefined } : { params: PathParams<Path> };

/** Exactly a shape's fields, their values not yet checked: what a proxy passes on for the server to validate. */
export type Unchecked<T> = Record<keyof T, unknown>;

/** A query's values as a URL carries them: lists repeat the key; undefined leaves the key out. */
export type QueryValues = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/**
 * The route's path with its parameters filled in (each one URL-encoded) and the query appended; a
 * `URLSearchParams` (a caller's query passed on as it came) keeps its keys, order and repeats.
 */
export function routeUrl<Path extends string>(
  route: Route<Path, unknown, unknown, unknown>,
  params: PathParams<Path>,
  query?: QueryValues | URLSearchParams,
): string {
  const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = (params as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`${route.method} ${route.path}: no value for :${name}`);
    return encodeURIComponent(value);
  });
  const text = (query instanceof URLSearchParams ? query : searchOf(query ?? {})).toString();
  return text ? `${path}?${text}` : path;
}

function searchOf(query: QueryValues): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  return search;
}
