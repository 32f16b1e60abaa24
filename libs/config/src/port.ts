import { createServer } from 'node:net';
import { StartupError } from './env.js';

/** Another process listens on the port an app was told to use. */
export class PortInUseError extends StartupError {
  override name = 'PortInUseError';

  constructor(setting: string, port: number) {
    super(`${setting}=${port} is in use: stop what listens there or set ${setting} to a free port`);
  }
}

/** An error from listening on the port of `setting`: one line when the port is taken, else as it was. */
export function listenError(error: unknown, setting: string, port: number): unknown {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE' ? new PortInUseError(setting, port) : error;
}

/** Fails with one line naming `setting` when the port is taken, before an app spends its start-up on it. */
export async function assertPortFree(setting: string, port: number, host: string): Promise<void> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  } catch (error) {
    throw listenError(error, setting, port);
  }
  await new Promise((resolve) => server.close(resolve));
}
