import { Inject, Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import type { Response as HttpResponse } from 'express';
import type { GatewayConfig } from '#config';
import {
  AI_ROUTES,
  type AnyRoute,
  type ApiRecord,
  type ExpectedRevisions,
  type IndexState,
  InternalHeader,
  type ParamsInput,
  type QueryValues,
  type RouteBody,
  type RouteQuery,
  type RouteResponse,
  routeUrl,
  type Unchecked,
} from '#contracts';
import { GATEWAY_CONFIG } from '../gateway.constants.js';

/** The AI app could not be reached or did not answer in time: 503, with a hint when to try again. */
export class AiUnavailableError extends ServiceUnavailableException {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail);
  }
}

/** The AI app's answer as it came: status, type (problem+json included), body and `Retry-After`, for the proxy to pass on unchanged. */
export class AiAnswer<Body = unknown> {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly body: string,
    /** The AI app's `Retry-After`, passed on to the caller. */
    readonly retryAfter?: string,
  ) {}

  /** The body as the route declares it: read it only from a success (a refusal's body is a problem). */
  json(): Body {
    return JSON.parse(this.body);
  }
}

export interface AiCallOptions {
  /** Defaults to AI_TIMEOUT_MS. */
  timeoutMs?: number;
  requestId?: string;
  headers?: Record<string, string>;
}

/**
 * A call of one of `AI_ROUTES`: its path's parameters, query and body as the route declares them.
 * The AI app validates what it receives, so the proxy may pass on the caller's input unchecked: a
 * body of the contract's fields whatever their values, or the caller's query string as it came.
 */
export type AiRequest<R extends AnyRoute> = ParamsInput<R['path']> &
  ([RouteBody<R>] extends [undefined] ? { body?: undefined } : { body: RouteBody<R> | Unchecked<RouteBody<R>> }) & {
    query?: RouteQuery<R> | URLSearchParams;
  } & AiCallOptions;

/** What the implementation reads of any `AiRequest`. */
interface AnyAiRequest extends AiCallOptions {
  params?: Record<string, string>;
  query?: QueryValues | URLSearchParams;
  body?: unknown;
}

type Indexing = NonNullable<ApiRecord['indexing']>;

const STATUS_TIMEOUT_MS = 2000;

/** HTTP client for the internal AI app: service token, request id, timeout, typed failures. */
@Injectable()
export class AiClient {
  private readonly logger = new Logger(AiClient.name);

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** Calls the route; any answer it gets comes back as it came, a timeout or no answer throws `AiUnavailableError`. */
  async request<R extends AnyRoute>(route: R, request: AiRequest<R>): Promise<AiAnswer<RouteResponse<R>>> {
    // The route's types checked the call; the implementation reads any route's request alike.
    const { params = {}, query, body, timeoutMs = this.config.aiTimeoutMs, requestId, headers } = request as AnyAiRequest;
    const url = `${this.config.aiUrl}${routeUrl(route, params, query)}`;
    try {
      const response = await fetch(url, {
        method: route.method,
        headers: {
          [InternalHeader.ServiceToken]: this.config.serviceToken,
          ...(requestId ? { [InternalHeader.RequestId]: requestId } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const retryAfter = response.headers.get('retry-after') || undefined;
      return new AiAnswer<RouteResponse<R>>(response.status, response.headers.get('content-type') ?? 'application/json', await response.text(), retryAfter);
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new AiUnavailableError(`The search service did not answer within ${timeoutMs} ms; try again`, 2);
      }
      throw new AiUnavailableError('The search service is unavailable right now; try again shortly', 5);
    }
  }

  /** Where the index stands for these registry APIs (see `IndexState`); throws when the AI app cannot say. */
  async indexStates(apis: RegistryRevision[]): Promise<Map<string, IndexState>> {
    const answer = await this.request(AI_ROUTES.indexStates, { body: expectedRevisions(apis), timeoutMs: STATUS_TIMEOUT_MS });
    if (answer.status !== 200) throw new Error(`the AI app answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    return new Map(answer.json().map((state) => [state.apiId, state]));
  }

  /**
   * Indexing status of registry APIs, keyed by API id. Best effort: when the AI app is down the
   * map is empty and records go out without `indexing`, rather than failing the registry call.
   */
  async indexingStatuses(apis: RegistryRevision[]): Promise<Map<string, Indexing>> {
    if (apis.length === 0) return new Map();
    try {
      // A registry read should not wait long for an extra.
      const answer = await this.request(AI_ROUTES.indexingStatuses, { body: expectedRevisions(apis), timeoutMs: STATUS_TIMEOUT_MS });
      // Busy or unreachable (readyz says which) is no error of this read: records go out without `indexing`.
      if (answer.status === 503 && answer.retryAfter) throw new AiUnavailableError('the AI app is busy', Number(answer.retryAfter) || 1);
      if (answer.status !== 200) throw new Error(`status ${answer.status}: ${answer.body.slice(0, 200)}`);
      return new Map(answer.json().map(({ apiId, ...indexing }) => [apiId, indexing]));
    } catch (error) {
      const message = `Indexing statuses unavailable: ${(error as Error).message}`;
      if (error instanceof AiUnavailableError) this.logger.debug(message);
      else this.logger.warn(message);
      return new Map();
    }
  }
}

/** A registry API at the revision the gateway expects the index to hold. */
interface RegistryRevision {
  id: string;
  orgId: string;
  revision: number;
}

function expectedRevisions(apis: RegistryRevision[]): ExpectedRevisions {
  return { apis: apis.map(({ id, orgId, revision }) => ({ apiId: id, orgId, revision })) };
}

/** The AI app's answer as it came: status, type (problem+json included), Retry-After, body. */
export function send(response: HttpResponse, answer: AiAnswer): void {
  if (answer.retryAfter) response.setHeader('Retry-After', answer.retryAfter);
  response.status(answer.status).type(answer.contentType).send(answer.body);
}
