import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, createWriteStream, mkdirSync, mkdtempSync, openSync, rmSync, type WriteStream } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertRedisReachable, loadGatewayConfig } from '#config';
import { devSigningSecret, signDevToken } from '../apps/gateway/src/auth/dev-token.js';
import { PlatformClient, readMetric } from '../apps/cli/src/platform-client.js';
import { soak } from './soak.js';
import { type AppName, startApp, stopApp, waitUntilReady } from '../apps/cli/src/stack-processes.js';

const REDIS_DOWN_MS = 5000;
const AI_DOWN_MS = 3000;
/**
 * Registrations are spread over this long: fast enough that jobs wait in Redis when it is lost
 * (the hash provider indexes ~10 APIs/s here), slow enough that both disruptions fall among them.
 */
const SUBMIT_SECONDS = 12;
const SETTLE_TIMEOUT_MS = 15 * 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `npm run bench -- --soak --chaos`: the soak against a stack of its own, with Redis restarted
 * empty a third of the way through the registrations and the AI app killed (`kill -9`) and
 * started again on its data two thirds of the way; then the soak's check that registry and index
 * agree exactly. Everything it started is stopped at the end, also on failure or Ctrl+C.
 */
export async function chaosSoak(registrations: number, model: 'hash' | 'local'): Promise<boolean> {
  const stack = await ChaosStack.start(model);
  let agreed = false;
  try {
    const orgId = `chaos-${Date.now()}`;
    const token = await signDevToken(devSigningSecret(loadGatewayConfig(stack.env)), {
      sub: 'bench-chaos',
      orgs: [orgId],
      roles: ['publisher'],
      ttlSeconds: 6 * 3600,
    });
    stack.clockStarts();
    agreed = await soak(new PlatformClient(stack.gatewayUrl, token), orgId, {
      registrations,
      updateShare: 0.2,
      deleteShare: 0.1,
      concurrency: 8,
      registrationsPerSecond: registrations / SUBMIT_SECONDS,
      timeoutMs: SETTLE_TIMEOUT_MS,
      disruptions: [
        { afterRegistrations: Math.round(registrations / 3), run: (registered) => stack.restartRedis(`${registered}/${registrations} registered`) },
        { afterRegistrations: Math.round((2 * registrations) / 3), run: (registered) => stack.crashAi(`${registered}/${registrations} registered`) },
      ],
    });
    const reconciled = await readMetric(stack.gatewayUrl, 'reconcile_revisions_total', 'outcome');
    console.log(`\nChaos timeline (${model} embeddings; seconds from the start of the soak):\n${stack.timeline.join('\n')}`);
    console.log(`Gateway reconciliation: ${[...reconciled].map(([outcome, count]) => `${outcome} ${count}`).join(', ') || 'nothing reconciled'}`);
    return agreed;
  } finally {
    await stack.stop(agreed);
  }
}

/** A redis-server without persistence and both apps as child processes, on free ports, with a temporary DATA_DIR. */
class ChaosStack {
  readonly timeline: string[] = [];
  private readonly apps = new Map<AppName, ChildProcess>();
  private redis?: ChildProcess;
  private stopped?: Promise<void>;
  private t0 = performance.now();

  private constructor(
    readonly env: NodeJS.ProcessEnv,
    private readonly dir: string,
    private readonly redisPort: number,
    private readonly log: WriteStream,
  ) {
    // However this process ends, nothing it started outlives it.
    process.once('exit', this.killNow);
    process.once('SIGINT', this.interrupted);
    process.once('SIGTERM', this.interrupted);
  }

  static async start(model: 'hash' | 'local'): Promise<ChaosStack> {
    const dir = mkdtempSync(join(tmpdir(), 'chaos-soak-'));
    const [gatewayPort, aiPort, redisPort] = [await freePort(), await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: join(dir, 'data'),
      GATEWAY_PORT: String(gatewayPort),
      AI_PORT: String(aiPort),
      AI_URL: `http://127.0.0.1:${aiPort}`,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      DATABASE_URL: undefined,
      EMBEDDINGS_PROVIDER: model,
      RATE_LIMIT_PER_MINUTE: '100000',
      RECONCILE_INTERVAL_MS: process.env.RECONCILE_INTERVAL_MS ?? '2000',
      RECONCILE_GRACE_MS: process.env.RECONCILE_GRACE_MS ?? '5000',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    };
    const stack = new ChaosStack(env, dir, redisPort, createWriteStream(join(dir, 'apps.log')));
    console.log(`Chaos stack: gateway :${gatewayPort}, AI :${aiPort}, Redis :${redisPort} (no persistence), data and logs in ${dir}`);
    try {
      await stack.startRedis();
      loadGatewayConfig(env); // writes the dev secrets once, before two processes would race to
      for (const name of ['ai', 'gateway'] as const) stack.apps.set(name, startApp(name, env, stack.log));
      await waitUntilReady(stack.gatewayUrl, [...stack.apps.values()], env.AI_URL);
    } catch (error) {
      await stack.stop(false);
      throw error;
    }
    return stack;
  }

  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.env.GATEWAY_PORT}`;
  }

  clockStarts(): void {
    this.t0 = performance.now();
  }

  /** Redis stopped without saving, down for a while, then started again empty. */
  async restartRedis(when: string): Promise<void> {
    const jobs = await readMetric(this.gatewayUrl, 'indexing_queue_jobs', 'state');
    const unfinished = ['waiting', 'prioritized', 'active', 'delayed'].reduce((sum, state) => sum + (jobs.get(state) ?? 0), 0);
    this.mark(`${when}: Redis stopped (shutdown nosave) with ${unfinished} indexing jobs not yet done in it`);
    await this.stopRedis();
    await sleep(REDIS_DOWN_MS);
    await this.startRedis();
    this.mark('Redis started again, empty');
    await waitUntilReady(this.gatewayUrl, [...this.apps.values()]);
    this.mark('stack ready again (gateway /readyz 200)');
  }

  /** The AI app killed mid-work (`kill -9`), down for a while, then started again on the same data. */
  async crashAi(when: string): Promise<void> {
    this.mark(`${when}: AI app killed (kill -9)`);
    await stopApp(this.apps.get('ai')!, 'SIGKILL');
    await sleep(AI_DOWN_MS);
    this.apps.set('ai', startApp('ai', this.env, this.log));
    this.mark('AI app started again on the same DATA_DIR');
    await waitUntilReady(this.gatewayUrl, [...this.apps.values()], this.env.AI_URL);
    this.mark('stack ready again (AI /healthz, gateway /readyz 200)');
  }

  /** Stops the apps, then Redis (once); the temporary directory is removed, or kept to be looked at. */
  stop(removeFiles: boolean): Promise<void> {
    return (this.stopped ??= this.stopAll(removeFiles));
  }

  private async stopAll(removeFiles: boolean): Promise<void> {
    for (const app of this.apps.values()) {
      const killer = setTimeout(() => app.kill('SIGKILL'), 20_000);
      await stopApp(app);
      clearTimeout(killer);
    }
    await this.stopRedis().catch(() => this.redis?.kill('SIGKILL'));
    process.off('exit', this.killNow);
    process.off('SIGINT', this.interrupted);
    process.off('SIGTERM', this.interrupted);
    this.log.end();
    if (removeFiles) rmSync(this.dir, { recursive: true, force: true });
    else console.log(`Chaos stack stopped; its data and logs are kept in ${this.dir}`);
  }

  private readonly interrupted = () => void this.stop(false).finally(() => process.exit(130));

  private readonly killNow = () => {
    for (const child of [...this.apps.values(), this.redis]) child?.kill('SIGKILL');
    console.error(`Chaos stack killed; its data and logs are kept in ${this.dir}`);
  };

  private async startRedis(): Promise<void> {
    const redisDir = join(this.dir, 'redis');
    mkdirSync(redisDir, { recursive: true });
    const output = openSync(join(this.dir, 'redis.log'), 'a');
    const args = ['--port', String(this.redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir];
    this.redis = spawn('redis-server', args, { stdio: ['ignore', output, output] });
    closeSync(output);
    for (let attempt = 1; ; attempt++) {
      try {
        return await assertRedisReachable(this.env.REDIS_URL!, 1000);
      } catch (error) {
        if (attempt >= 20 || this.redis.exitCode !== null) throw error;
        await sleep(250);
      }
    }
  }

  private async stopRedis(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.exitCode !== null || redis.signalCode !== null) return;
    const exited = once(redis, 'exit');
    await promisify(execFile)('redis-cli', ['-p', String(this.redisPort), 'shutdown', 'nosave']).catch(() => undefined);
    await exited;
  }

  private mark(event: string): void {
    const line = `  +${((performance.now() - this.t0) / 1000).toFixed(1).padStart(5)} s  ${event}`;
    this.timeline.push(line);
    console.log(`chaos${line}`);
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
