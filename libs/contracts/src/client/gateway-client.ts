import type { Problem } from '../problem.js';
import { type AnyRoute, type ParamsInput, type QueryValues, type RouteBody, type RouteQuery, type RouteResponse, routeUrl } from '../routes/route.js';

/** A call that did not answer 2xx, with the gateway's problem details (or a stand-in when the network failed). */
export class ApiError extends Error {
  /** `retryAfterSeconds`: the server is busy, not down (a 503 or 429 with Retry-After). */
  constructor(
    readonly problem: Problem,
    readonly retryAfterSeconds?: number,
    message = problem.detail,
  ) {
    super(message);
  }

  get status(): number {
    return this.problem.status;
  }
}

/** A query as the route declares it: required when it has a required field, absent when the route takes none. */
type QueryInput<Query> = [Query] extends [undefined] ? { query?: undefined } : Partial<Query> extends Query ? { query?: Query } : { query: Query };

/** A call of a route of `GATEWAY_ROUTES`: its path's parameters, query and body as the route declares them. */
export type GatewayRequest<R extends AnyRoute> = ParamsInput<R['path']> &
  ([RouteBody<R>] extends [undefined] ? { body?: undefined } : { body: RouteBody<R> }) &
  QueryInput<RouteQuery<R>> & {
    /** This call's bearer token instead of the client's (the web UI's session gives it on each call). */
    token?: string;
  };

/** What the implementation reads of any `GatewayRequest`. */
interface AnyGatewayRequest {
  params?: Record<string, string>;
  query?: QueryValues;
  body?: unknown;
  token?: string;
}

export interface GatewayClientOptions {
  /** The gateway's origin, without a trailing slash; '' (the default) in a browser page the gateway serves. */
  baseUrl?: string;
  /** The bearer token of every call that gives none of its own. */
  token?: string;
  /** Tries in all of a call told to wait (429, or 503 with Retry-After), waiting as told in between; default 1: it fails at once. */
  attempts?: number;
  /** Makes a network failure an `ApiError` of this problem, for a page to show; without it, fetch's own error (and its `cause`) goes on. */
  unreachable?: Problem;
}

/** Longest wait between tries, whatever Retry-After says: a long run waits, it does not stall. */
const MAX_WAIT_SECONDS = 60;

/**
 * Typed client of the gateway's public routes (`GATEWAY_ROUTES`), for the web UI and the CLIs: the
 * URL from the route table, JSON bodies, the bearer token, and a failure as an `ApiError` with the
 * gateway's problem document and Retry-After. fetch only, so it runs in a browser and in Node.
 */
export class GatewayClient {
  readonly baseUrl: string;

  constructor(private readonly options: GatewayClientOptions = {}) {
    this.baseUrl = options.baseUrl ?? '';
  }

  /** The route's answer, parsed from JSON (`undefined` for a 204). */
  async request<R extends AnyRoute>(route: R, input: GatewayRequest<R>): Promise<RouteResponse<R>> {
    const text = await (await this.send(route, input)).text();
    return (text ? JSON.parse(text) : undefined) as RouteResponse<R>;
  }

  /** The route's 2xx answer as it came, to read a text that is not JSON (a spec) or its headers; otherwise an `ApiError`. */
  async send<R extends AnyRoute>(route: R, input: GatewayRequest<R>): Promise<Response> {
    // The route's types checked the call; the implementation reads any route's request alike.
    const { params = {}, query, body, token = this.options.token } = input as AnyGatewayRequest;
    const url = `${this.baseUrl}${routeUrl(route, params, query)}`;
    const init: RequestInit = {
      method: route.method,
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    };
    for (let attempt = 1; ; attempt++) {
      const response = await this.fetch(url, init);
      if (response.ok) return response;
      const retryAfter = retryAfterOf(response);
      // Rate limited, or busy for a moment: a caller that asked to (a long CLI run) waits as told rather than fails.
      const told = response.status === 429 || (response.status === 503 && retryAfter !== undefined);
      if (!told || attempt >= (this.options.attempts ?? 1)) throw this.failure(await problemOf(response), retryAfter);
      await response.text();
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter || 1, MAX_WAIT_SECONDS) * 1000));
    }
  }

  /** The error a failed call throws: a subclass may word it its own way. */
  protected failure(problem: Problem, retryAfterSeconds?: number): ApiError {
    return new ApiError(problem, retryAfterSeconds);
  }

  private async fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (this.options.unreachable) throw this.failure(this.options.unreachable);
      throw error;
    }
  }
}

/** The problem document the gateway sent, completed from the status when the body is not one (a proxy's HTML page). */
async function problemOf(response: Response): Promise<Problem> {
  const sent = parseObject(await response.text()) as Partial<Problem> | undefined;
  return {
    ...sent,
    type: sent?.type ?? 'about:blank',
    title: sent?.title ?? response.statusText,
    status: response.status,
    detail: sent?.detail ?? `The server answered ${response.status}`,
  };
}

function parseObject(text: string): unknown {
  try {
    return text.startsWith('{') ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds; undefined when absent (or a date, which the gateway never sends). */
function retryAfterOf(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after') ?? Number.NaN);
  return Number.isFinite(seconds) ? seconds : undefined;
}
