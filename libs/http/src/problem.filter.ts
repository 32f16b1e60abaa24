import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Problem, PROBLEM_CONTENT_TYPE } from '#contracts';
import { ServiceBusyException } from './busy.js';
import { requestIdOf } from './request-id.js';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Body-parser and similar errors carry their status on the error object. */
interface StatusError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  limit?: number;
  /** The raw body, on a parse failure. */
  body?: string;
  message: string;
}

/** Every error leaves as `application/problem+json`; a 500 never shows its internals. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const problem = this.toProblem(exception);
    problem.instance = requestIdOf(request);
    // Unexpected errors with their stack; an expected 5xx (a dependency down) as a warning; a refusal under load at debug.
    if (exception instanceof ServiceBusyException) {
      this.logger.debug(`${request.method} ${request.originalUrl} → ${problem.status} [${problem.instance}]: ${problem.detail}`);
    } else if (!(exception instanceof HttpException) && problem.status >= 500) {
      this.logger.error(`${request.method} ${request.originalUrl} failed [${problem.instance}]: ${(exception as Error)?.stack ?? String(exception)}`);
    } else if (problem.status >= 500) {
      this.logger.warn(`${request.method} ${request.originalUrl} → ${problem.status} [${problem.instance}]: ${problem.detail}`);
    }
    if (response.headersSent) return;
    // RFC 6750: a 401 names the scheme that would be accepted.
    if (problem.status === 401) response.setHeader('WWW-Authenticate', 'Bearer');
    const { retryAfterSeconds } = (exception ?? {}) as { retryAfterSeconds?: unknown };
    if (typeof retryAfterSeconds === 'number') response.setHeader('Retry-After', String(retryAfterSeconds));
    response.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
  }

  private toProblem(exception: unknown): Problem {
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // Body-parser errors arrive wrapped (the Express adapter maps them); describe the original.
      const cause = exception.cause as StatusError | undefined;
      if (cause?.type) return { ...base(status), detail: describeClientError(cause) };
      const body = exception.getResponse();
      const messages = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : body;
      const errors = Array.isArray(messages) ? messages.map(String) : undefined;
      const detail = errors ? errors.join('; ') : typeof messages === 'string' ? messages : exception.message;
      return { ...base(status), detail, ...(errors ? { errors } : {}) };
    }
    const statusError = exception as StatusError;
    const status = statusError?.status ?? statusError?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { ...base(status), detail: describeClientError(statusError) };
    }
    return { ...base(HttpStatus.INTERNAL_SERVER_ERROR), detail: 'An unexpected error occurred; it has been logged.' };
  }
}

/** A problem document with the status's usual title, for an answer written outside the filter. */
export function problemOf(status: number, detail: string): Problem {
  return { ...base(status), detail };
}

function base(status: number): Omit<Problem, 'detail'> {
  const title = TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
  return { type: `https://httpstatuses.io/${status}`, title, status };
}

function describeClientError(error: StatusError): string {
  if (error.type === 'entity.too.large') {
    return `The request body is larger than the limit of ${error.limit?.toLocaleString('en-US') ?? '?'} bytes`;
  }
  if (error.type === 'entity.parse.failed') {
    // Strict parsing refuses JSON that is not an object or array ("str", null) with a syntax error.
    return isJson(error.body) ? 'The request body must be a JSON object' : `The request body is not valid JSON: ${error.message}`;
  }
  return error.expose === false ? 'The request could not be processed' : error.message;
}

function isJson(text: string | undefined): boolean {
  try {
    JSON.parse(text ?? '');
    return true;
  } catch {
    return false;
  }
}
