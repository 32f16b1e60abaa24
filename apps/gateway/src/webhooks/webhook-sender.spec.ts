import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { GatewayConfig } from '#config';
import { newWebhookSecret } from './webhook-rules.js';
import { WEBHOOK_ADDRESS_REFUSED, WebhookSender } from './webhook-sender.js';

interface Hit {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver on 127.0.0.1 that answers as `answer` says, and records what it got. */
async function receiver(answer: (response: ServerResponse) => void): Promise<{ server: Server; port: number; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

describe(WebhookSender.name, () => {
  const servers: Server[] = [];
  const sender = (allowedHosts: string[], timeoutMs = 5000) => new WebhookSender({ webhooks: { allowedHosts, timeoutMs } } as GatewayConfig);
  const start = async (answer: (response: ServerResponse) => void) => {
    const started = await receiver(answer);
    servers.push(started.server);
    return started;
  };

  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('should POST the body signed per Standard Webhooks, and count a 2xx as delivered', async () => {
    const { port, hits } = await start((res) => res.writeHead(202).end('queued'));
    const secret = newWebhookSecret();
    const body = JSON.stringify({ eventId: 'evt-1', type: 'api.created' });
    const attempt = await sender([`127.0.0.1:${port}`]).send({ url: `http://127.0.0.1:${port}/in`, secret, eventId: 'evt-1', body }, 3);
    expect(attempt).toMatchObject({ attempt: 3, statusCode: 202 });
    expect(attempt.error).toBeUndefined();
    expect(hits).toHaveLength(1);
    const [{ headers, body: received }] = hits;
    expect(received).toBe(body);
    expect(headers['webhook-id']).toBe('evt-1');
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(received, headers as Record<string, string>)).toEqual({ eventId: 'evt-1', type: 'api.created' });
  });

  it('should fail a redirect without following it, and any status but 2xx', async () => {
    const target = await start((res) => res.writeHead(204).end());
    const { port } = await start((res) => res.writeHead(302, { location: `http://127.0.0.1:${target.port}/` }).end());
    const allowed = [`127.0.0.1:${port}`, `127.0.0.1:${target.port}`];
    const request = { url: `http://127.0.0.1:${port}/`, secret: newWebhookSecret(), eventId: 'evt-2', body: '{}' };
    expect(await sender(allowed).send(request, 1)).toMatchObject({ statusCode: 302, error: 'The receiver answered 302 (redirects are not followed)' });
    expect(target.hits).toEqual([]);
  });

  it('should give up on a receiver that does not answer within WEBHOOK_TIMEOUT_MS', async () => {
    const { port } = await start(() => undefined);
    const attempt = await sender([`127.0.0.1:${port}`], 300).send(
      { url: `http://127.0.0.1:${port}/`, secret: newWebhookSecret(), eventId: 'evt-3', body: '{}' },
      1,
    );
    expect(attempt).toMatchObject({ error: 'The receiver did not answer within 300 ms (WEBHOOK_TIMEOUT_MS)' });
    expect(attempt.statusCode).toBeUndefined();
    expect(attempt.durationMs).toBeGreaterThanOrEqual(250);
  });

  it('should refuse a loopback receiver whose host:port is not allowed, without connecting', async () => {
    const { port, hits } = await start((res) => res.writeHead(204).end());
    const attempt = await sender(['127.0.0.1:1']).send({ url: `http://127.0.0.1:${port}/`, secret: newWebhookSecret(), eventId: 'evt-4', body: '{}' }, 1);
    expect(attempt.error).toBe(WEBHOOK_ADDRESS_REFUSED);
    expect(hits).toEqual([]);
  });
});
