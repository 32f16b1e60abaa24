import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { LogLevel } from '#config';
import { createLogging } from './logging.js';
import { installHttpMetrics } from './metrics.js';
import { ProblemFilter } from './problem.filter.js';
import { requestIdMiddleware } from './request-id.js';

export interface HttpAppOptions {
  service: 'gateway' | 'ai';
  logLevel: LogLevel;
  bodyLimitBytes: number;
}

/** What both apps set up the same way: request ids, JSON logs, JSON body limit, problem errors, shutdown. */
export function configureHttpApp(app: INestApplication, options: HttpAppOptions): void {
  const express = app as NestExpressApplication;
  const logging = createLogging(options.logLevel, options.service);
  app.useLogger(logging.logger);
  express.disable('x-powered-by');
  express.use(requestIdMiddleware, ...logging.middleware);
  installHttpMetrics(app);
  express.useBodyParser('json', { limit: options.bodyLimitBytes });
  app.useGlobalFilters(new ProblemFilter());
  app.enableShutdownHooks();
}
