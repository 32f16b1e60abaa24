import { withTimeout } from './with-timeout.js';

/** The part of an ioredis client (or BullMQ's `RedisClient`) that shutting it down needs. */
export interface EndableRedis {
  status: string;
  disconnect(): void;
  connect(): Promise<unknown>;
}

/**
 * How long a connection may stay away from Redis while the app shuts down before it is given up:
 * twice the longest pause between reconnect attempts (`redisConnectionOptions`), so a Redis that
 * is back is seen, and a job in flight can still report its outcome to it.
 */
export const REDIS_AWAY_AT_SHUTDOWN_MS = 2000;

const POLL_MS = 100;

const CONNECTION_ENDED = 'Connection is closed: this client was ended at shutdown.';

/**
 * Ends an ioredis client now and for good: it stops reconnecting, emits `end`, fails the commands
 * waiting in its offline queue ("Connection is closed."), and a later `connect()` fails too, so
 * nothing that awaits them or its `end` hangs and nothing brings it back.
 *
 * `disconnect()` alone does not do that for a client between two reconnect attempts
 * (`reconnecting`): it cancels the next attempt but never reaches `end`, and its queued commands
 * are never answered. BullMQ's `Worker.close()` awaits that `end` on its blocking connection, so
 * with Redis away (or just restarted) it waited forever. One more attempt, made after
 * `disconnect()`, closes the client for good whether it fails (Redis away) or succeeds.
 *
 * And an ended client is not safe either: BullMQ's reset of a blocking connection whose wait timed
 * out (Redis away) calls `connect()` on a client it finds ended, even once its worker has closed,
 * and that client then reconnected for as long as the process lived. So `connect` is replaced.
 */
export function endRedisClient(client: EndableRedis): void {
  if (client.status !== 'end') {
    client.disconnect();
    if (client.status === 'reconnecting') {
      client.connect().then(
        () => client.disconnect(),
        () => undefined,
      );
    }
  }
  client.connect = () => Promise.reject(new Error(CONNECTION_ENDED));
}

/**
 * Waits for `closing` (a BullMQ worker's or queue's close; a worker's lets the job in flight
 * finish) while watching `clients`: one that has not been connected for `awayMs` is ended
 * (`endRedisClient`), which fails what waits on it, so the close completes without Redis. With
 * Redis there, nothing is cut short. Once closed, every client is ended (BullMQ's close leaves one
 * it could not send QUIT to reconnecting for ever). Resolves `true` if every client stayed (or
 * came back) within `awayMs`.
 */
export async function closeWithoutRedis(closing: Promise<unknown>, clients: EndableRedis[], awayMs = REDIS_AWAY_AT_SHUTDOWN_MS): Promise<boolean> {
  const readyAt = clients.map(() => Date.now());
  const ended = new Set<EndableRedis>();
  let done = false;
  const settled = closing
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => (done = true));
  while (!done) {
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, POLL_MS).unref())]);
    clients.forEach((client, index) => {
      if (ended.has(client)) return;
      if (client.status === 'ready') readyAt[index] = Date.now();
      else if (Date.now() - readyAt[index] >= awayMs) {
        ended.add(client);
        endRedisClient(client);
      }
    });
  }
  clients.forEach(endRedisClient);
  await closing;
  return ended.size === 0;
}

/** A BullMQ queue, as far as closing it goes. */
interface BullQueue {
  close(): Promise<void>;
  /** `client` resolves once connected (never while Redis was away since the start: then it is waited for a second only). */
  readonly backend: { readonly client: Promise<EndableRedis> };
}

/** Closes a BullMQ queue within a bound while Redis is away (`closeWithoutRedis`), its connection ended. */
export async function closeQueueWithoutRedis(queue: BullQueue, awayMs = REDIS_AWAY_AT_SHUTDOWN_MS): Promise<boolean> {
  const client = await withTimeout(queue.backend.client, 1000).catch(() => undefined);
  return closeWithoutRedis(queue.close(), client ? [client] : [], awayMs);
}

/**
 * Whether a BullMQ queue's connection is up now (waiting `connectMs` at most for a first
 * connection): a command sent while it is down waits in ioredis's offline queue for as long as
 * Redis stays away, so a caller that must answer now asks first.
 */
export async function queueConnected(queue: Pick<BullQueue, 'backend'>, connectMs = 1000): Promise<boolean> {
  const client = await withTimeout(queue.backend.client, connectMs).catch(() => undefined);
  return client?.status === 'ready';
}
