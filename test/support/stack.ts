import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Queue } from 'bullmq';
import request from 'supertest';
import { type AiConfig, assertRedisReachable, type GatewayConfig, loadAiConfig, loadGatewayConfig, redisConnectionOptions } from '#config';
import { INDEXING_QUEUE, type IndexingState, type IndexingStatus } from '#contracts';
import { createAiApp } from '../../apps/ai/src/create-ai-app.js';
import { createGatewayApp } from '../../apps/gateway/src/create-gateway-app.js';
import { devSigningSecret, signDevToken } from '../../apps/gateway/src/auth/dev-token.js';
import { starting, stoppable } from './leftovers.js';
import { IN_MEMORY } from './pglite-seed.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A whole stack in this process: AI app and gateway on free ports, in-memory PGlite, real Redis. */
export interface TestStack {
  gateway: INestApplication;
  /** Where the gateway listens (for a browser). */
  url: string;
  /** The AI app in this process (none with `withoutAi`, `withoutRedis` or `aiUrl`). */
  readonly ai?: INestApplication;
  gatewayConfig: GatewayConfig;
  aiConfig: AiConfig;
  token(orgs: string[], roles: string[], options?: { ttlSeconds?: number; sub?: string; client?: string; teams?: string[] }): Promise<string>;
  /** Stops the AI app: the gateway finds nothing at its address. */
  stopAi(): Promise<void>;
  /** Stops the AI app and starts it again on its port, with `env` over the stack's (its data is kept with `aiDataDir`). */
  restartAi(env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Point the gateway at an AI app that is not running. */
  withoutAi?: boolean;
  /** Point the stack at a Redis that is not running (implies `withoutAi`). */
  withoutRedis?: boolean;
  /** Use an AI app that runs elsewhere (a child process) instead of one in this process. */
  aiUrl?: string;
  /** The AI app's PGlite directory, for data that outlives a restart (default: in memory). */
  aiDataDir?: string;
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
    // Fast vectors that match by shared words only (no model to load, no threads): a suite that
    // checks what the real model finds by meaning sets EMBEDDINGS_PROVIDER: 'local'.
    EMBEDDINGS_PROVIDER: 'hash',
    // Tests provoke errors on purpose; TEST_LOG_LEVEL=info shows the apps' logs.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  };
}

/** Starts a stack; a part that fails to start stops the parts already running. */
export function startStack(options: StackOptions = {}): Promise<TestStack> {
  return starting(launch(options));
}

async function launch(options: StackOptions): Promise<TestStack> {
  const env = stackEnv(options);
  // With DATABASE_URL in `options.env` both apps use that PostgreSQL; otherwise a PGlite each
  // (in memory, from the run's initdb: jest.config.js).
  const database = (config: { database: GatewayConfig['database'] }, pgliteDir?: string) =>
    config.database.url ? config.database : { ...config.database, ...IN_MEMORY, ...(pgliteDir ? { pgliteDir } : {}) };
  const startAi = async (config: AiConfig, port: number) => {
    const app = await createAiApp({ ...config, database: database(config, options.aiDataDir) });
    try {
      await app.listen(port, '127.0.0.1');
    } catch (error) {
      await app.close().catch(() => undefined);
      throw error;
    }
    return app;
  };

  const aiConfig = loadAiConfig(env);
  let ai: INestApplication | undefined;
  let gateway: INestApplication | undefined;
  const stopAi = async () => {
    await ai?.close();
    ai = undefined;
  };
  const stop = () => inOrder([() => gateway?.close(), () => ai?.close(), () => (options.withoutRedis ? undefined : clearQueue(env))]);

  try {
    let aiUrl = options.aiUrl ?? 'http://127.0.0.1:9'; // discard port: nothing listens
    if (!options.withoutAi && !options.withoutRedis && !options.aiUrl) {
      ai = await startAi(aiConfig, 0);
      aiUrl = (await ai.getUrl()).replace('[::1]', '127.0.0.1');
    }
    const gatewayConfig = loadGatewayConfig({ ...env, AI_URL: aiUrl });
    const app = await createGatewayApp({ ...gatewayConfig, database: database(gatewayConfig) });
    gateway = app;
    await app.listen(0, '127.0.0.1');
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');

    return {
      gateway: app,
      url,
      get ai() {
        return ai;
      },
      gatewayConfig,
      aiConfig,
      token: (orgs, roles, tokenOptions = {}) =>
        signDevToken(devSigningSecret(gatewayConfig), {
          sub: tokenOptions.sub ?? 'test-user',
          orgs,
          roles,
          ttlSeconds: tokenOptions.ttlSeconds ?? 3600,
          client: tokenOptions.client,
          teams: tokenOptions.teams,
        }),
      stopAi,
      async restartAi(overrides = {}) {
        await stopAi();
        ai = await startAi(loadAiConfig({ ...env, ...overrides }), Number(new URL(aiUrl).port));
      },
      close: stoppable(stop),
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/** Runs every step, each whatever became of the ones before; then throws the first error. */
async function inOrder(steps: (() => Promise<unknown> | undefined)[]): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/** Deletes the stack's queue keys; a Redis that is gone (a suite's own, stopped) has none left to delete. */
async function clearQueue(env: Record<string, string>): Promise<void> {
  if (
    !(await assertRedisReachable(env.REDIS_URL, 1000).then(
      () => true,
      () => false,
    ))
  )
    return;
  const queue = new Queue(INDEXING_QUEUE, { connection: redisConnectionOptions(env.REDIS_URL), prefix: env.QUEUE_PREFIX });
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
  }
}

/** Polls `read` until `done` holds for its value; fails with the last value after `timeoutMs`. */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 60_000, intervalMs = 200): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Polls the public status endpoint until the API reaches one of `states`. */
export async function waitForStatus(
  stack: TestStack,
  token: string,
  apiId: string,
  states: IndexingState[] = ['COMPLETED', 'FAILED'],
  timeoutMs = 60_000,
): Promise<IndexingStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await request(stack.gateway.getHttpServer()).get(`/api-management/ai/indexing-status/${apiId}`).set('authorization', `Bearer ${token}`);
    if (response.status !== 200) throw new Error(`status call failed: ${response.status} ${response.text}`);
    if (states.includes(response.body.status)) return response.body;
    if (Date.now() > deadline) throw new Error(`API ${apiId} still ${response.body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Waits until the index holds the API's newest revision (a new spec, version, stage or details
 * change re-indexes it): the record's revision as it is now, COMPLETED.
 */
export async function waitForNewestRevision(stack: TestStack, token: string, apiId: string, timeoutMs = 120_000): Promise<IndexingStatus> {
  const record = async () =>
    (await request(stack.gateway.getHttpServer()).get(`/api-management/apis/${apiId}`).set('authorization', `Bearer ${token}`).expect(200)).body as {
      revision: number;
      indexing?: { status: string };
    };
  const { revision } = await record();
  await until(record, (body) => body.revision === revision && body.indexing?.status === 'COMPLETED', timeoutMs);
  return waitForStatus(stack, token, apiId, ['COMPLETED'], timeoutMs);
}
