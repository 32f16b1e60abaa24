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
  });
  configureHttpApp(app, { service: 'ai', logLevel: config.logLevel, bodyLimitBytes: BODY_LIMIT_BYTES });
  return app;
}
