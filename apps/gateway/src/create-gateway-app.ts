import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import type { GatewayConfig } from '#config';
import { configureHttpApp } from '#http';
import { serveDocs } from './docs/setup-docs.js';
import { gatewayBodyLimits } from './gateway-body-limits.js';
import { GatewayModule } from './gateway.module.js';
import { serveWebUi } from './web/serve-web-ui.js';

// Room for the rest of the request around a spec of the largest allowed size.
const BODY_OVERHEAD_BYTES = 64 * 1024;

export async function createGatewayApp(config: GatewayConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
    // Throw instead of exiting, and print nothing: the caller (main.ts, or a test) decides what a
    // failed start ends and says why in one line.
    abortOnError: false,
    autoFlushLogs: false,
  });
  // A spec sent as a JSON string is escaped, so allow for that on top of SPEC_MAX_BYTES.
  const bodyLimits = gatewayBodyLimits(Math.ceil(config.specMaxBytes * 1.2) + BODY_OVERHEAD_BYTES);
  configureHttpApp(app, {
    service: 'gateway',
    logLevel: config.logLevel,
    bodyLimitBytes: bodyLimits.largest,
    bodyLimitOf: bodyLimits.limitOf,
  });
  app.flushLogs(); // the start's logs, through the app's logger
  // No upgrade-insecure-requests: the gateway is often reached over plain HTTP inside a network.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  serveDocs(app);
  serveWebUi(app);
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins.includes('*') ? true : config.corsOrigins,
      exposedHeaders: ['X-Request-Id', 'Retry-After'],
      maxAge: 600,
    });
  }
  return app;
}
