import { InjectQueue } from '@nestjs/bullmq';
import { Controller, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { withTimeout } from '#config';
import { AI_ROUTES, GATEWAY_ROUTES, INDEXING_QUEUE } from '#contracts';
import { Route } from '#http';
import { Public } from '../auth/auth.decorators.js';
import { ApiProblems } from '../docs/api-docs.decorators.js';
import { HealthDoc } from '../docs/openapi-models.js';
import { AiClient } from '../ai-client/ai-client.js';

type Check = 'ok' | string;

@ApiTags('Health')
@Controller()
@Public()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @InjectQueue(INDEXING_QUEUE) private readonly queue: Queue,
    private readonly ai: AiClient,
  ) {}

  /** The process is alive. */
  @Route(GATEWAY_ROUTES.healthz)
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: HealthDoc })
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Ready to serve: database, Redis and the AI app all answer. */
  @Route(GATEWAY_ROUTES.readyz)
  @HttpCode(200)
  @ApiOperation({ summary: 'Readiness: database, Redis and the search service answer' })
  @ApiOkResponse({ type: HealthDoc })
  @ApiProblems(503)
  async readyz(): Promise<{ status: 'ok'; checks: Record<string, Check> }> {
    const [database, redis, ai] = await Promise.all([
      check(() => this.dataSource.query('SELECT 1')),
      check(() =>
        this.queue.count().catch((error: Error) => {
          // ioredis's words for "not connected right now" (commands are not queued while it reconnects).
          throw /enableOfflineQueue/.test(error.message) ? new Error('not connected; reconnecting every second') : error;
        }),
      ),
      check(async () => {
        const response = await this.ai.request(AI_ROUTES.healthz, {});
        if (response.status !== 200) throw new Error(`status ${response.status}`);
      }),
    ]);
    const checks = { database, redis, ai };
    const failed = Object.entries(checks).filter(([, result]) => result !== 'ok');
    if (failed.length > 0) {
      throw new ServiceUnavailableException(`Not ready: ${failed.map(([name, reason]) => `${name} (${reason})`).join(', ')}`);
    }
    return { status: 'ok', checks };
  }
}

async function check(probe: () => Promise<unknown>): Promise<Check> {
  try {
    await withTimeout(probe(), 3000);
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  }
}
