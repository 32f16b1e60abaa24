import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A receiver on 127.0.0.1: each path answers as `routes` says (204 when it says nothing). */
export interface Receiver {
  server: Server;
  port: number;
  received: Received[];
  routes: Map<string, (response: ServerResponse, count: number) => void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const receiver: Receiver = { server: undefined as unknown as Server, port, received: [], routes: new Map() };
  receiver.server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      receiver.received.push({ path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      const route = receiver.routes.get(path);
      if (route) route(res, receiver.received.filter((hit) => hit.path === path).length);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(port, '127.0.0.1', resolve));
  receiver.port = (receiver.server.address() as AddressInfo).port;
  return receiver;
}

export async function stopReceiver({ server }: Receiver): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
