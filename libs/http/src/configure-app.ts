import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ProblemFilter } from './problem.filter.js';
import { requestIdMiddleware } from './request-id.js';

/** What both apps set up the same way: request ids, JSON body limit, problem errors, shutdown. */
export function configureHttpApp(app: INestApplication, bodyLimitBytes: number): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.use(requestIdMiddleware);
  express.useBodyParser('json', { limit: bodyLimitBytes });
  app.useGlobalFilters(new ProblemFilter());
  app.enableShutdownHooks();
}
