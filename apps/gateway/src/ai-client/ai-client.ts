import { Inject, Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import type { Response as HttpResponse } from 'express';
import type { GatewayConfig } from '#config';
import { InternalHeader, type ApiRecord, type IndexState } from '#contracts';
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

export interface AiResponse {
  status: number;
  contentType: string;
  body: string;
  /** The AI app's `Retry-After`, passed on to the caller. */
  retryAfter?: string;
}

export interface AiCallOptions {
  body?: unknown;
  /** Defaults to AI_TIMEOUT_MS. */
  timeoutMs?: number;
  requestId?: string;
  headers?: Record<string, string>;
}

type Indexing = NonNullable<ApiRecord['indexing']>;

const STATUS_TIMEOUT_MS = 2000;

/** HTTP client for the internal AI app: service token, request id, timeout, typed failures. */
@Injectable()
export class AiClient {
  private readonly logger = new Logger(AiClient.name);

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  async call(method: string, path: string, options: AiCallOptions = {}): Promise<AiResponse> {
    const headers: Record<string, string> = {
      [InternalHeader.ServiceToken]: this.config.serviceToken,
      ...(options.requestId ? { [InternalHeader.RequestId]: options.requestId } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    };
    let response: Response;
    try {
      response = await fetch(`${this.config.aiUrl}${path}`, {
        method,
        headers,
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
        signal: AbortSignal.timeout(options.timeoutMs ?? this.config.aiTimeoutMs),
      });
      const retryAfter = response.headers.get('retry-after');
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? 'application/json',
        body: await response.text(),
        ...(retryAfter ? { retryAfter } : {}),
      };
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new AiUnavailableError(`The search service did not answer within ${options.timeoutMs ?? this.config.aiTimeoutMs} ms; try again`, 2);
      }
      throw new AiUnavailableError('The search service is unavailable right now; try again shortly', 5);
    }
  }

  /** Where the index stands for these registry APIs (see `IndexState`); throws when the AI app cannot say. */
  async indexStates(apis: { id: string; orgId: string; revision: number }[]): Promise<Map<string, IndexState>> {
    const response = await this.call('POST', '/index-states', {
      body: { apis: apis.map(({ id, orgId, revision }) => ({ apiId: id, orgId, revision })) },
      timeoutMs: STATUS_TIMEOUT_MS,
    });
    if (response.status !== 200) throw new Error(`the AI app answered ${response.status}: ${response.body.slice(0, 200)}`);
    return new Map((JSON.parse(response.body) as IndexState[]).map((state) => [state.apiId, state]));
  }

  /**
   * Indexing status of registry APIs, keyed by API id. Best effort: when the AI app is down the
   * map is empty and records go out without `indexing`, rather than failing the registry call.
   */
  async indexingStatuses(apis: { id: string; orgId: string; revision: number }[]): Promise<Map<string, Indexing>> {
    if (apis.length === 0) return new Map();
    try {
      const response = await this.call('POST', '/indexing-statuses', {
        body: { apis: apis.map(({ id, orgId, revision }) => ({ apiId: id, orgId, revision })) },
        // A registry read should not wait long for an extra.
        timeoutMs: STATUS_TIMEOUT_MS,
      });
      // Busy or unreachable (readyz says which) is no error of this read: records go out without `indexing`.
      if (response.status === 503 && response.retryAfter) throw new AiUnavailableError('the AI app is busy', Number(response.retryAfter) || 1);
      if (response.status !== 200) throw new Error(`status ${response.status}: ${response.body.slice(0, 200)}`);
      const statuses = JSON.parse(response.body) as ({ apiId: string } & Indexing)[];
      return new Map(statuses.map(({ apiId, ...indexing }) => [apiId, indexing]));
    } catch (error) {
      const message = `Indexing statuses unavailable: ${(error as Error).message}`;
      if (error instanceof AiUnavailableError) this.logger.debug(message);
      else this.logger.warn(message);
      return new Map();
    }
  }
}

/** The AI app's answer as it came: status, type (problem+json included), Retry-After, body. */
export function send(response: HttpResponse, answer: AiResponse): void {
  if (answer.retryAfter) response.setHeader('Retry-After', answer.retryAfter);
  response.status(answer.status).type(answer.contentType).send(answer.body);
}
