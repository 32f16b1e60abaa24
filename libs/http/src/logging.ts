import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type Level, type Logger, pino } from 'pino';
import { pinoHttp } from 'pino-http';
import type { LogLevel } from '#config';
import { requestIdOf } from './request-id.js';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The logger of the request being handled, so every line written for it carries its `requestId`. */
const requestLogger = new AsyncLocalStorage<Logger>();

/**
 * Structured JSON logs (pino): one line per request, and every log written while handling a
 * request carries its `requestId` — the id the caller sees in `X-Request-Id` and in errors.
 * Returns the Nest logger and the middleware that must follow the request-id middleware.
 */
export function createLogging(level: LogLevel, service: 'gateway' | 'ai'): { logger: LoggerService; middleware: RequestHandler[] } {
  const root = pino({
    level,
    base: { service },
    // Credentials never reach the logs.
    redact: ['req.headers.authorization', 'req.headers["x-service-token"]', 'req.headers.cookie'],
  });
  const http = pinoHttp({
    logger: root,
    genReqId: (request) => requestIdOf(request as Request) ?? randomUUID(),
    customAttributeKeys: { reqId: 'requestId' },
    quietReqLogger: true,
    autoLogging: { ignore: (request) => QUIET_PATHS.has(request.url ?? '') },
    // A 4xx is the caller's business (and the response says why): info, like a success. So is a
    // 503 with Retry-After (a refusal under load, or a dependency down that is logged where it is seen).
    customLogLevel: (_request, response, error) => {
      if (response.statusCode >= 500) return response.hasHeader('retry-after') ? 'info' : 'error';
      return error ? 'error' : 'info';
    },
    // The error itself is logged where it happened; pino-http's stand-in ("failed with status code") adds nothing.
    customErrorObject: (_request, _response, error, value: Record<string, unknown>) =>
      error.message.startsWith('failed with status code') ? { ...value, err: undefined } : value,
    serializers: {
      req: (request: { method: string; url: string }) => ({ method: request.method, url: request.url }),
      res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
    },
  });
  const bind = (request: Request, _response: Response, next: NextFunction) => requestLogger.run(request.log, next);
  return { logger: new PinoNestLogger(root), middleware: [http as unknown as RequestHandler, bind] };
}

/** Nest's logger interface on top of pino. */
class PinoNestLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes `(message, ...extras, context)`; for errors the extra is a stack trace. */
  private write(level: Level, message: unknown, params: unknown[]): void {
    const logger = requestLogger.getStore() ?? this.root;
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? params.pop() : undefined;
    const stack = params.find((param): param is string => typeof param === 'string' && param.includes('\n    at '));
    if (message instanceof Error) logger[level]({ context, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) logger[level]({ context, ...message });
    else logger[level]({ context, ...(stack ? { stack } : {}) }, String(message));
  }
}
