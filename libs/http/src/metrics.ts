import { Controller, type DynamicModule, Get, Header, Inject, Module, Res } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { Public } from './public.js';

/** The app's Prometheus registry (one per app: two apps may share a process in tests). */
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

@Controller()
@Public()
class MetricsController {
  constructor(@Inject(METRICS_REGISTRY) private readonly registry: Registry) {}

  /** Prometheus text format, under its own content type: Prometheus 3 refuses a scrape served as HTML. */
  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metrics(@Res({ passthrough: true }) response: Response): Promise<string> {
    response.type(this.registry.contentType);
    return this.registry.metrics();
  }
}

@Module({})
export class MetricsModule {
  static forRoot(service: 'gateway' | 'ai'): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      controllers: [MetricsController],
      providers: [
        {
          provide: METRICS_REGISTRY,
          useFactory: () => {
            const registry = new Registry();
            registry.setDefaultLabels({ service });
            collectDefaultMetrics({ register: registry });
            return registry;
          },
        },
      ],
      exports: [METRICS_REGISTRY],
    };
  }
}

/** Request latency by method, route pattern (never the raw URL: ids would explode the series) and status. */
export function installHttpMetrics(app: INestApplication): void {
  const registry = app.get<Registry>(METRICS_REGISTRY);
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.use((request: Request, response: Response, next: NextFunction) => {
    const end = duration.startTimer();
    response.on('finish', () => {
      const route = request.route?.path ? `${request.baseUrl}${String(request.route.path)}` : 'unmatched';
      end({ method: request.method, route, status: String(response.statusCode) });
    });
    next();
  });
}
