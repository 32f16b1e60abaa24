import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { starting, stoppable } from './leftovers.js';

/** The built entry points (`npx tsc -p tsconfig.build.json` makes them). */
export const ENTRIES = {
  ai: 'apps/ai/src/main.js',
  gateway: 'apps/gateway/src/main.js',
  migrate: 'apps/cli/src/migrate.js',
} as const;

const DIST = join(process.cwd(), 'dist');
/** Characters of a process's output kept for error messages. */
const LOG_KEEP = 200_000;

/**
 * The environment a child starts from: this one's, without what Jest put in it for itself
 * (`--experimental-vm-modules` would only make each child warn).
 */
function inherited(): Record<string, string> {
  const env = { ...process.env } as Record<string, string>;
  delete env.NODE_OPTIONS;
  return env;
}

/**
 * One app of the platform as a real child process (`node dist/...`), its output kept. Registered
 * with the file's leftovers (test/support/leftovers.ts) as soon as it is spawned, so it is
 * killed after the file's last hook even if a test or hook failed before stopping it.
 */
export class AppProcess {
  readonly child: ChildProcess;
  /** How it ended: its exit code, or the signal that ended it. */
  readonly exited: Promise<string>;
  readonly stop: () => Promise<void>;
  private output = '';

  constructor(
    readonly name: string,
    entry: string,
    env: Record<string, string>,
    /** Where it answers HTTP (none for a script). */
    readonly url?: string,
  ) {
    const child = spawn(process.execPath, [join(DIST, entry)], { env: { ...inherited(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString();
      if (this.output.length > LOG_KEEP * 2) this.output = this.output.slice(-LOG_KEEP);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve(String(code ?? signal)));
      child.once('error', (error) => resolve(`error: ${error.message}`));
    });
    // Killed outright: what it holds is the test's to check, and nothing of it needs keeping.
    this.stop = stoppable(async () => {
      if (this.running) child.kill('SIGKILL');
      await this.exited;
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The last of its output. */
  log(chars = 4000): string {
    return this.output.slice(-chars);
  }

  /** Sends `signal` and waits until the process has exited. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<string> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
}

/** Polls `url + path` until it answers 2xx; fails at once if the process exits, or after `timeoutMs` with its log. */
export function waitUntilAnswering(app: AppProcess, path: string, timeoutMs = 180_000): Promise<void> {
  return starting(
    (async () => {
      let last = '';
      for (const deadline = Date.now() + timeoutMs; ;) {
        const ok = await fetch(`${app.url}${path}`, { signal: AbortSignal.timeout(5000) }).then(
          (response) => ((last = `HTTP ${response.status}`), response.ok),
          (error: Error) => ((last = error.message), false),
        );
        if (ok) return;
        if (!app.running) throw new Error(`${app.name} exited (${await app.exited}) while starting:\n${app.log()}`);
        if (Date.now() > deadline) throw new Error(`${app.name} did not answer ${path} within ${timeoutMs} ms (last: ${last}):\n${app.log()}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })(),
  );
}

/** Runs a built script (e.g. migrations) to its end; throws with its output unless it exits 0. */
export async function runScript(name: string, entry: string, env: Record<string, string>, timeoutMs = 120_000): Promise<string> {
  const script = new AppProcess(name, entry, env);
  const timer = setTimeout(() => void script.kill('SIGKILL'), timeoutMs);
  try {
    const code = await script.exited;
    if (code !== '0') throw new Error(`${name} ended with ${code}:\n${script.log()}`);
    return script.log();
  } finally {
    clearTimeout(timer);
    await script.stop();
  }
}

/** A TCP port nobody listens on right now (the OS's choice). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The sum of a Prometheus metric's samples in a scrape (text format) whose labels include `labels`.
 * 0 when there is none (a counter never incremented has no sample with that label).
 */
export function metricSum(scrape: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of scrape.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) sum += Number(match[3]);
  }
  return sum;
}
