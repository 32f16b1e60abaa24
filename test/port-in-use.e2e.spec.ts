import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { assertPortFree, listenError, PortInUseError } from '#config';
import { stackEnv } from './support/stack.js';

/** A port this test holds open, as another program would. */
async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** Runs a built app (`npm run build`) to its end: exit code and everything it printed. */
function runApp(entry: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(process.cwd(), entry)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe('a port already in use', () => {
  let held: { server: Server; port: number };

  beforeAll(async () => {
    held = await holdPort();
  });

  afterAll(() => {
    held?.server.close();
  });

  it('should be named by its setting before anything starts', async () => {
    const refusal = assertPortFree('GATEWAY_PORT', held.port, '127.0.0.1');
    await expect(refusal).rejects.toThrow(PortInUseError);
    await expect(refusal).rejects.toThrow(`GATEWAY_PORT=${held.port} is in use: stop what listens there or set GATEWAY_PORT to a free port`);
  });

  it('should pass a free port', async () => {
    const free = await holdPort();
    free.server.close();
    await new Promise((resolve) => free.server.once('close', resolve));
    await expect(assertPortFree('AI_PORT', free.port, '127.0.0.1')).resolves.toBeUndefined();
  });

  it('should turn the error of a listen that lost the port meanwhile into that line, and leave others as they are', () => {
    const lost = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    const denied = Object.assign(new Error('listen EACCES'), { code: 'EACCES' });
    expect(listenError(lost, 'AI_PORT', 9090)).toEqual(new PortInUseError('AI_PORT', 9090));
    expect(listenError(denied, 'AI_PORT', 80)).toBe(denied);
  });

  it.each([
    ['gateway', 'GATEWAY_PORT', 'GATEWAY_HOST', 'dist/apps/gateway/src/main.js'],
    ['AI app', 'AI_PORT', 'AI_HOST', 'dist/apps/ai/src/main.js'],
  ])('should stop the %s with one line naming %s, and exit code 1', async (_app, portSetting, hostSetting, entry) => {
    const env = stackEnv({ env: { LOG_LEVEL: 'warn', [hostSetting]: '127.0.0.1', [portSetting]: String(held.port) } });
    const { code, output } = await runApp(entry, env);
    expect({ code, lines: output.trim().split('\n') }).toEqual({
      code: 1,
      lines: [`${portSetting}=${held.port} is in use: stop what listens there or set ${portSetting} to a free port`],
    });
  });
});
