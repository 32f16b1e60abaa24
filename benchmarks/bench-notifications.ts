import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { GATEWAY_ROUTES, type GatewayClient, type PlatformEvent } from '#contracts';
import { percentile } from './eval-metrics.js';

export interface NotificationsBenchOptions {
  apis: number;
  consumersPerApi: number;
  /** The loopback port of the receiver: the stack's WEBHOOK_ALLOWED_HOSTS must list `127.0.0.1:<port>`. */
  receiverPort: number;
}

const ops = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`/things${index}/{id}`, { get: { summary: `Read thing ${index}` } }]));
const spec = (name: string, operations: number) => ({ openapi: '3.0.3', info: { title: name, version: '1.0.0' }, paths: ops(operations) });

/**
 * `--notifications [--apis 100] [--consumers 20] [--receiver-port 9911]`, against a running stack
 * whose WEBHOOK_ALLOWED_HOSTS lists `127.0.0.1:<receiver-port>` (issue #43): in a fresh org, `--apis`
 * APIs with `--consumers` declared consumers each (half naming one operation, half none) and one
 * webhook to a receiver on loopback that verifies every signature; then each API revised with a
 * breaking change, one after another. Prints what a revision costs with its impact, how long its
 * `api.breaking_change` took to arrive, lost and duplicate deliveries, the dependency view, the
 * feed of a person who watches every API, and a refused retirement.
 */
export async function notificationsBench(client: GatewayClient, orgId: string, options: NotificationsBenchOptions): Promise<void> {
  const arrivals = new Map<string, number>();
  let deliveries = 0;
  let badSignatures = 0;
  let secret = '';
  const receiver = createServer((request, response) => {
    void body(request).then((text) => {
      deliveries += 1;
      try {
        const event = new Webhook(secret).verify(text, request.headers as Record<string, string>) as PlatformEvent;
        if (event.type === 'api.breaking_change' && !arrivals.has(event.api.apiId)) arrivals.set(event.api.apiId, performance.now());
      } catch {
        badSignatures += 1;
      }
      response.writeHead(204).end();
    });
  });
  receiver.listen(options.receiverPort, '127.0.0.1');
  await once(receiver, 'listening');
  const port = (receiver.address() as AddressInfo).port;
  try {
    const hook = await client.request(GATEWAY_ROUTES.createWebhook, {
      body: { orgId, url: `http://127.0.0.1:${port}/hooks`, events: ['api.breaking_change'] },
    });
    secret = hook.secret;

    const apiIds: string[] = [];
    let started = performance.now();
    for (let index = 0; index < options.apis; index++) {
      const record = await client.request(GATEWAY_ROUTES.registerApi, {
        body: { orgId, name: `Notified ${index}`, version: '1.0.0', spec: spec(`Notified ${index}`, 4) },
      });
      apiIds.push(record.apiId);
      for (let consumer = 0; consumer < options.consumersPerApi; consumer++) {
        const operations = consumer % 2 === 0 ? [{ method: 'GET', path: `/things${consumer % 4}/{id}` }] : [];
        await client.request(GATEWAY_ROUTES.addConsumer, { params: { apiId: record.apiId }, body: { name: `service-${consumer}`, operations } });
      }
    }
    console.log(
      `Set up ${options.apis} APIs with ${options.apis * options.consumersPerApi} consumers in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const revisions: number[] = [];
    const answeredAt = new Map<string, number>();
    let affected = 0;
    for (const apiId of apiIds) {
      started = performance.now();
      // Three operations of four are left: the consumers of the fourth are affected, those naming none may be.
      const answer = await client.request(GATEWAY_ROUTES.reviseVersion, { params: { apiId, version: '1.0.0' }, body: { spec: spec('Revised', 3) } });
      revisions.push(performance.now() - started);
      answeredAt.set(apiId, performance.now());
      affected += answer.impact?.affected.length ?? 0;
    }
    const deadline = performance.now() + 60_000;
    while (arrivals.size < apiIds.length && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const latencies = apiIds.filter((apiId) => arrivals.has(apiId)).map((apiId) => arrivals.get(apiId)! - answeredAt.get(apiId)!);
    console.log(`\n| measure | p50 ms | p95 ms | max ms | n |`);
    console.log(`|---|---|---|---|---|`);
    row('breaking revision, with its impact', revisions);
    row('api.breaking_change: answer → receiver', latencies);
    console.log(
      `\nDeliveries: ${arrivals.size} of ${apiIds.length} breaking changes arrived within 60 s, ${deliveries - arrivals.size} more deliveries (retries or duplicates), ${badSignatures} bad signatures; ${affected} consumers named affected in the answers`,
    );

    const views: number[] = [];
    for (let round = 0; round < 10; round++) {
      started = performance.now();
      await client.request(GATEWAY_ROUTES.consumerDependencies, { query: { orgId } });
      views.push(performance.now() - started);
    }
    for (const apiId of apiIds) await client.request(GATEWAY_ROUTES.watchApi, { params: { apiId }, body: {} });
    const feeds: number[] = [];
    let before: string | undefined;
    for (let round = 0; round < 20; round++) {
      started = performance.now();
      const page = await client.request(GATEWAY_ROUTES.notifications, { query: { orgId, limit: 30, ...(before ? { before } : {}) } });
      feeds.push(performance.now() - started);
      before = page.nextBefore;
    }
    const refusals: number[] = [];
    for (const apiId of apiIds.slice(0, 20)) {
      started = performance.now();
      await client.request(GATEWAY_ROUTES.patchVersion, { params: { apiId, version: '1.0.0' }, body: { lifecycle: 'retired' } }).catch(() => undefined);
      refusals.push(performance.now() - started);
    }
    console.log(`\n| read | p50 ms | p95 ms | max ms | n |`);
    console.log(`|---|---|---|---|---|`);
    row(`dependency view (${options.apis * options.consumersPerApi} uses)`, views);
    row(`feed page of 30, watching ${options.apis} APIs`, feeds);
    row('retire refused (409 naming the consumers)', refusals);
    await client.request(GATEWAY_ROUTES.deleteWebhook, { params: { webhookId: hook.webhookId } });
  } finally {
    receiver.close();
  }
}

function row(label: string, values: number[]): void {
  if (values.length === 0) return console.log(`| ${label} | – | – | – | 0 |`);
  console.log(
    `| ${label} | ${percentile(values, 50).toFixed(0)} | ${percentile(values, 95).toFixed(0)} | ${Math.max(...values).toFixed(0)} | ${values.length} |`,
  );
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
