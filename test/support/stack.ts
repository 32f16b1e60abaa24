import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Queue } from 'bullmq';
import request from 'supertest';
import { type AiConfig, type GatewayConfig, loadAiConfig, loadGatewayConfig, redisConnectionOptions } from '#config';
import { INDEXING_QUEUE, type IndexingState } from '#contracts';
import { createAiApp } from '../../apps/ai/src/create-ai-app.js';
import { createGatewayApp } from '../../apps/gateway/src/create-gateway-app.js';
import { devSigningSecret, signDevToken } from '../../apps/gateway/src/auth/dev-token.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A whole stack in this process: AI app and gateway on free ports, in-memory PGlite, real Redis. */
export interface TestStack {
  gateway: INestApplication;
  /** Where the gateway listens (for a browser). */
  url: string;
  ai?: INestApplication;
  gatewayConfig: GatewayConfig;
  aiConfig: AiConfig;
  token(orgs: string[], roles: string[], options?: { ttlSeconds?: number; sub?: string }): Promise<string>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Point the gateway at an AI app that is not running. */
  withoutAi?: boolean;
  /** Point the stack at a Redis that is not running (implies `withoutAi`). */
  withoutRedis?: boolean;
  /** Use an AI app that runs elsewhere (a child process) instead of one in this process. */
  aiUrl?: string;
  env?: Record<string, string>;
}

/** The environment of a test stack: its own queue prefix, secrets and settings, plus `options.env`. */
export function stackEnv(options: StackOptions = {}): Record<string, string> {
  return {
    REDIS_URL: options.withoutRedis ? 'redis://127.0.0.1:6390' : REDIS_URL,
    // Each stack has its own queue keys, so test runs never see each other's jobs.
    QUEUE_PREFIX: `test-${randomUUID().slice(0, 8)}`,
    AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
    AI_SERVICE_TOKEN: randomBytes(24).toString('base64url'),
    DATA_DIR: '/nonexistent-test-data-dir',
    OUTBOX_INTERVAL_MS: '500',
    // Tests poll status fast; the rate-limit test sets its own.
    RATE_LIMIT_PER_MINUTE: '100000',
    // Tests provoke errors on purpose; TEST_LOG_LEVEL=info shows the apps' logs.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  };
}

export async function startStack(options: StackOptions = {}): Promise<TestStack> {
  const env = stackEnv(options);
  // With DATABASE_URL in `options.env` both apps use that PostgreSQL; otherwise an in-memory PGlite each.
  const memory = (config: { database: GatewayConfig['database'] }) => (config.database.url ? config.database : { ...config.database, pgliteDir: 'memory://' });

  const aiConfig = loadAiConfig(env);
  let ai: INestApplication | undefined;
  let aiUrl = options.aiUrl ?? 'http://127.0.0.1:9'; // discard port: nothing listens
  if (!options.withoutAi && !options.withoutRedis && !options.aiUrl) {
    ai = await createAiApp({ ...aiConfig, database: memory(aiConfig), port: 0 });
    await ai.listen(0, '127.0.0.1');
    aiUrl = await ai.getUrl();
  }
  const gatewayConfig = loadGatewayConfig({ ...env, AI_URL: aiUrl.replace('[::1]', '127.0.0.1') });
  const gateway = await createGatewayApp({ ...gatewayConfig, database: memory(gatewayConfig) });
  await gateway.listen(0, '127.0.0.1');
  const url = (await gateway.getUrl()).replace('[::1]', '127.0.0.1');

  return {
    gateway,
    url,
    ai,
    gatewayConfig,
    aiConfig,
    token: (orgs, roles, tokenOptions = {}) =>
      signDevToken(devSigningSecret(gatewayConfig), {
        sub: tokenOptions.sub ?? 'test-user',
        orgs,
        roles,
        ttlSeconds: tokenOptions.ttlSeconds ?? 3600,
      }),
    async close() {
      await gateway.close();
      await ai?.close();
      if (options.withoutRedis) return;
      const queue = new Queue(INDEXING_QUEUE, { connection: redisConnectionOptions(env.REDIS_URL), prefix: env.QUEUE_PREFIX });
      await queue.obliterate({ force: true });
      await queue.close();
    },
  };
}

/** Polls the public status endpoint until the API reaches one of `states`. */
export async function waitForStatus(
  stack: TestStack,
  token: string,
  apiId: string,
  states: IndexingState[] = ['COMPLETED', 'FAILED'],
  timeoutMs = 60_000,
): Promise<{ status: IndexingState; chunkCount?: number; error?: string; indexedAt?: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await request(stack.gateway.getHttpServer())
      .get(`/api-management/ai/indexing-status/${apiId}`)
      .set('authorization', `Bearer ${token}`);
    if (response.status !== 200) throw new Error(`status call failed: ${response.status} ${response.text}`);
    if (states.includes(response.body.status)) return response.body;
    if (Date.now() > deadline) throw new Error(`API ${apiId} still ${response.body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
