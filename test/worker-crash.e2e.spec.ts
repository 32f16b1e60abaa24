import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import request from 'supertest';
import { redisConnectionOptions } from '#config';
import { INDEXING_QUEUE } from '#contracts';
import { chunksOf, DEFAULT_CHUNK_LIMITS, defaultSpecFormats } from '#api-specs';
import { restbenchSpec } from './fixtures/fixtures.js';
import { FakeOpenAi } from './support/fake-openai.js';
import { stackEnv, startStack, type TestStack, until, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const AI_ENTRY = join(process.cwd(), 'dist/apps/ai/src/main.js');

/**
 * The AI app (worker included) as a real process on a PGlite directory, killed for real:
 * `kill -9` mid-job, and SIGTERM mid-job. Needs `npm run build` (npm test runs it).
 */
describe('AI worker killed mid-job', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ai-crash-'));
  const port = 41000 + Math.floor(Math.random() * 9000);
  // Embeddings from a server the test holds (hash vectors, provider `openai`): the process is
  // killed while a job is surely embedding, however fast or slow the machine.
  const fake = new FakeOpenAi(64);
  let env: Record<string, string>;
  let ai: ChildProcess | undefined;
  let aiLog = '';
  let stack: TestStack;
  let publisher: string;
  let queue: Queue;

  const startAi = async () => {
    const child = spawn(process.execPath, [AI_ENTRY], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    ai = child;
    child.stdout!.on('data', (chunk: Buffer) => (aiLog += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (aiLog += chunk));
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
      if (
        await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      if (child.exitCode !== null) throw new Error(`AI app exited ${child.exitCode}: ${aiLog.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    child.kill('SIGKILL');
    throw new Error(`AI app did not start: ${aiLog.slice(-2000)}`);
  };
  /** How the process ended: its exit code, or the signal (Nest re-raises SIGTERM after a clean shutdown). */
  const exited = (child: ChildProcess) =>
    new Promise<string>((resolve) =>
      child.exitCode !== null || child.signalCode !== null
        ? resolve(String(child.exitCode ?? child.signalCode))
        : child.once('exit', (code, signal) => resolve(String(code ?? signal))),
    );
  const register = async (name: string, spec: string) => {
    const created = await request(stack.gateway.getHttpServer())
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name, version: '1', spec });
    expect(created.status).toBe(201);
    return created.body.apiId as string;
  };
  const chunkCount = async (name: string, spec: string) => {
    const chunked = await chunksOf(defaultSpecFormats(), { spec, facts: { name, version: '1' }, limits: DEFAULT_CHUNK_LIMITS });
    return 'chunks' in chunked ? chunked.chunks.length : 0;
  };
  /** Batches of chunks sent to be embedded (a search sends its query alone). */
  const batches = () => fake.requests.filter((sent) => sent.inputs > 1).length;

  beforeAll(async () => {
    await fake.start();
    // A short lock: a killed worker's job is taken over within seconds instead of 30.
    env = stackEnv({
      env: {
        DATA_DIR: dataDir,
        AI_PORT: String(port),
        INDEXING_LOCK_MS: '2000',
        LOG_LEVEL: 'warn',
        EMBEDDINGS_PROVIDER: 'openai',
        OPENAI_BASE_URL: fake.baseUrl,
        EMBEDDINGS_MODEL: 'fake-embed',
        EMBEDDINGS_DIMENSIONS: '64',
      },
    });
    queue = new Queue(INDEXING_QUEUE, { connection: redisConnectionOptions(env.REDIS_URL), prefix: env.QUEUE_PREFIX });
    await startAi();
    stack = await startStack({ aiUrl: `http://127.0.0.1:${port}`, env });
    publisher = await stack.token([ORG], ['publisher']);
  }, 180_000);

  afterAll(async () => {
    ai?.kill('SIGKILL'); // nothing of it to keep, and a job held by a failed test must not delay it
    if (ai) await exited(ai);
    await stack?.close();
    await queue?.close();
    await fake.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('should leave no partial index after kill -9 and finish the job once the worker is back', async () => {
    const spec = restbenchSpec('spotify');
    const release = fake.hold();
    const apiId = await register('Spotify', spec);
    await until(batches, (count) => count > 0); // embedding is under way, and held
    ai!.kill('SIGKILL');
    await exited(ai!);
    release();

    await startAi();
    const status = await waitForStatus(stack, publisher, apiId, ['COMPLETED', 'FAILED'], 120_000);
    expect(status).toMatchObject({ status: 'COMPLETED', chunkCount: await chunkCount('Spotify', spec) });
    const found = await request(stack.gateway.getHttpServer())
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, query: 'add songs to a playlist' });
    expect(found.body.results[0]).toMatchObject({ apiId });
  }, 240_000);

  it('should finish the job in hand on SIGTERM, close the database cleanly and start again on it', async () => {
    const spec = restbenchSpec('tmdb');
    const release = fake.hold();
    const sent = batches();
    const apiId = await register('TMDB', spec);
    await until(batches, (count) => count > sent); // embedding is under way, and held
    const logBefore = aiLog.length;
    ai!.kill('SIGTERM');
    // Its worker has left the queue, the job still in hand: the process is shutting down.
    await until(
      () => queue.getWorkersCount(),
      (count) => count === 0,
    );
    expect({ exitCode: ai!.exitCode, signalCode: ai!.signalCode }).toEqual({ exitCode: null, signalCode: null });
    release();
    expect(['0', 'SIGTERM']).toContain(await exited(ai!));
    expect(aiLog.slice(logBefore)).not.toMatch(/"level":(50|60)/); // no error on the way out

    const sentBeforeRestart = batches();
    await startAi();
    const status = await waitForStatus(stack, publisher, apiId, ['COMPLETED', 'FAILED'], 30_000);
    expect(status).toMatchObject({ status: 'COMPLETED', chunkCount: await chunkCount('TMDB', spec) });
    // Done before the process left: no second run was needed.
    expect(batches()).toBe(sentBeforeRestart);
    const found = await request(stack.gateway.getHttpServer())
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, query: 'movies playing in theatres now' });
    expect(found.body.results[0]).toMatchObject({ apiId });
  }, 240_000);
});
