import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { LogLevel } from '#config';
import { limitBodyDepth } from './body-depth.js';
import { type BodyLimitOf, limitBodySize, skipRefusedBodies } from './body-limit.js';
import { answerClientErrorsAsProblems } from './client-error.js';
import { createLogging } from './logging.js';
import { installHttpMetrics } from './metrics.js';
import { ProblemFilter } from './problem.filter.js';
import { requestIdMiddleware } from './request-id.js';

export interface HttpAppOptions {
  service: 'gateway' | 'ai';
  logLevel: LogLevel;
  /** The largest JSON body of any route. */
  bodyLimitBytes: number;
  /** Each request's own limit (at most `bodyLimitBytes`): a 413 at once past it; `bodyLimitBytes` for every route when absent. */
  bodyLimitOf?: BodyLimitOf;
}

/**
 * What both apps set up the same way: request ids, JSON logs, JSON body size (per route) and depth limits,
 * problem errors (also for requests Node's parser refuses), shutdown.
 */
export function configureHttpApp(app: INestApplication, options: HttpAppOptions): void {
  const express = app as NestExpressApplication;
  const logging = createLogging(options.logLevel, options.service);
  app.useLogger(logging.logger);
  express.disable('x-powered-by');
  express.use(requestIdMiddleware, ...logging.middleware);
  installHttpMetrics(app);
  express.use(jsonBodiesOnly);
  express.use(limitBodySize(options.bodyLimitOf ?? (() => options.bodyLimitBytes)));
  express.useBodyParser('json', { limit: options.bodyLimitBytes });
  express.use(skipRefusedBodies);
  // Before any route, so before validation (and the gateway's spec-to-text middleware) walk the body.
  express.use(limitBodyDepth);
  answerClientErrorsAsProblems(app.getHttpServer());
  app.useGlobalFilters(new ProblemFilter());
  app.enableShutdownHooks();
}

/**
 * Every body is JSON: one of another type (a YAML spec posted as is) would reach validation as
 * an empty object and be refused field by field. Refuse it for what it is.
 */
function jsonBodiesOnly(request: Request, _response: Response, next: NextFunction): void {
  // `is` is null without a body, false for a body of another type.
  if (request.is(['application/json', '+json']) !== false) return next();
  const type = request.headers['content-type'];
  const error = new Error(
    `The request body must be JSON (Content-Type: application/json), not ${type ? `"${type}"` : 'untyped'}; a YAML spec goes in the "spec" field as a string`,
  );
  next(Object.assign(error, { status: 415, expose: true }));
}
