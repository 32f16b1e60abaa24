import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { AI_ROUTES, GATEWAY_ROUTES } from '#contracts';

const READY_TIMEOUT_MS = 180_000;
const distRoot = fileURLToPath(new URL('../../..', import.meta.url));

export type AppName = 'ai' | 'gateway';
const ENTRIES: Record<AppName, string> = { ai: 'apps/ai/src/main.js', gateway: 'apps/gateway/src/main.js' };

/** Apps stopped on purpose (`stopApp`): their exit, even by SIGKILL, does not stop the parent. */
const stopping = new WeakSet<ChildProcess>();

/** Both apps as child processes (built `dist/`), their output prefixed; stopped with the parent. */
export function startStackProcesses(env: NodeJS.ProcessEnv = process.env): ChildProcess[] {
  const children = [startApp('ai', env), startApp('gateway', env)];
  const stop = () => children.forEach((child) => child.kill('SIGTERM'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('exit', stop);
  return children;
}

/**
 * One app as a child process, each line of its output prefixed with its name, to `output` (both
 * streams) or else to this process's stdout and stderr. An app that stops by itself stops this process.
 */
export function startApp(name: AppName, env: NodeJS.ProcessEnv, output?: Writable): ChildProcess {
  const child = spawn(process.execPath, [join(distRoot, ENTRIES[name])], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((line) => `[${name}] ${line}\n`)
      .join('');
  child.stdout!.on('data', (chunk: Buffer) => (output ?? process.stdout).write(prefix(chunk)));
  child.stderr!.on('data', (chunk: Buffer) => (output ?? process.stderr).write(prefix(chunk)));
  child.on('exit', (code, signal) => {
    if (!stopping.has(child) && signal !== 'SIGTERM' && code !== 0) {
      console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping.`);
      process.exit(1);
    }
  });
  return child;
}

/** Stops an app on purpose and waits until it has exited; `SIGKILL` plays a crash. */
export async function stopApp(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  stopping.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/** Resolves once the gateway's /readyz answers 200 (database, Redis and AI app all up). */
export async function waitUntilReady(baseUrl: string, children: ChildProcess[] = [], aiUrl?: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  const poll = async (probe: () => Promise<boolean>) => {
    while (!(await probe().catch((error: Error) => ((last = error.message), false)))) {
      if (children.some((child) => child.exitCode !== null)) throw new Error('an app stopped while starting');
      if (Date.now() > deadline) throw new Error(`the apps were not ready after ${READY_TIMEOUT_MS / 1000} s: ${last}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  // The AI app (loading its model) first: asking the gateway's readiness before it is up would
  // only fill the log with "not ready" warnings.
  if (aiUrl) await poll(() => isAlive(aiUrl));
  await poll(() => isReady(baseUrl));
}

async function isAlive(baseUrl: string): Promise<boolean> {
  return (await fetch(`${baseUrl}${AI_ROUTES.healthz.path}`)).ok;
}

export async function isReady(baseUrl: string): Promise<boolean> {
  const response = await fetch(`${baseUrl}${GATEWAY_ROUTES.readyz.path}`, { signal: AbortSignal.timeout(5000) });
  return response.ok;
}
