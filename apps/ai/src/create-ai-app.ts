import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AiConfig } from '#config';
import { configureHttpApp } from '#http';
import { AiModule } from './ai.module.js';

const BODY_LIMIT_BYTES = 1024 * 1024;

export async function createAiApp(config: AiConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AiModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
    // Throw instead of exiting, and print nothing: the caller (main.ts, or a test) decides what a
    // failed start ends and says why in one line.
    abortOnError: false,
    autoFlushLogs: false,
  });
  configureHttpApp(app, { service: 'ai', logLevel: config.logLevel, bodyLimitBytes: BODY_LIMIT_BYTES });
  app.flushLogs(); // the start's logs, through the app's logger
  return app;
}
