import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { GatewayConfig } from '#config';
import { redisConnectionOptions } from '#config';
import { AI_ROUTES, type SearchResult } from '#contracts';
import type { Caller } from '../auth/caller.js';
import { type AiClient, AiAnswer, AiUnavailableError } from '../ai-client/ai-client.js';
import { IMPLICIT_SIGNAL_WINDOW_MS, ImplicitFeedback } from './implicit-feedback.js';

/** Agents' recent searches in a real Redis (REDIS_URL), under a prefix of this run's. */
describe(ImplicitFeedback.name, () => {
  const alice = { sub: 'alice', orgs: ['acme'], roles: ['reader'] } as Caller;
  const bob = { sub: 'bob', orgs: ['acme'], roles: ['reader'] } as Caller;
  const search = { searchId: 'search-1', orgId: 'acme', results: [{ apiId: 'payments' }, { apiId: 'refunds' }] as SearchResult[] };
  const accepted = new AiAnswer(204, 'application/json', '');
  // The background call's answer is handled a few microtasks later.
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  const connect = (url: string) => {
    const redis = new Redis({ ...redisConnectionOptions(url), enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    redis.on('error', () => undefined);
    return redis;
  };

  let redis: Redis;
  let call: jest.Mock<AiClient['request']>;
  let feedback: ImplicitFeedback;
  /** Another gateway replica on the same Redis. */
  let otherReplica: ImplicitFeedback;

  beforeAll(async () => {
    redis = connect(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    await redis.connect();
  });

  afterAll(() => redis.disconnect());

  beforeEach(() => {
    const config = { redis: { queuePrefix: `test-${randomUUID().slice(0, 8)}` } } as GatewayConfig;
    call = jest.fn<AiClient['request']>().mockResolvedValue(accepted);
    feedback = new ImplicitFeedback({ request: call } as unknown as AiClient, redis, config);
    otherReplica = new ImplicitFeedback({ request: call } as unknown as AiClient, redis, config);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it("should send one opened signal for an API the caller's search returned", async () => {
    await feedback.searched(alice, search);
    await feedback.opened(alice, 'refunds', undefined, 'request-1');

    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith(AI_ROUTES.feedback, {
      body: { searchId: 'search-1', apiId: 'refunds', helpful: true, signal: 'opened', person: 'alice', orgIds: ['acme'] },
      requestId: 'request-1',
    });
  });

  it('should send nothing the second time the same API is opened after the same search', async () => {
    await feedback.searched(alice, search);
    await feedback.opened(alice, 'refunds');
    await feedback.opened(alice, 'refunds');

    expect(call).toHaveBeenCalledTimes(1);
  });

  it('should send one signal per operation opened, with the operation as the tool resolved it', async () => {
    await feedback.searched(alice, search);
    const refund = { method: 'POST', path: '/refunds' };
    await feedback.opened(alice, 'refunds', refund);
    await feedback.opened(alice, 'refunds', { ...refund });
    await feedback.opened(alice, 'refunds', { method: 'GET', path: '/refunds/{id}' });

    expect(call).toHaveBeenCalledTimes(2);
    expect(call.mock.calls[0][1]?.body).toMatchObject({ apiId: 'refunds', operation: refund, signal: 'opened' });
    expect(call.mock.calls[1][1]?.body).toMatchObject({ apiId: 'refunds', operation: { method: 'GET', path: '/refunds/{id}' } });
  });

  it('should credit the newest search that returned the API', async () => {
    await feedback.searched(alice, search);
    await feedback.searched(alice, { ...search, searchId: 'search-2' });
    await feedback.opened(alice, 'payments');

    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0][1]?.body).toMatchObject({ searchId: 'search-2' });
  });

  it('should send nothing for an API the search did not return', async () => {
    await feedback.searched(alice, search);
    await feedback.opened(alice, 'billing');

    expect(call).not.toHaveBeenCalled();
  });

  it("should send nothing when another caller opens an API someone else's search returned", async () => {
    await feedback.searched(alice, search);
    await feedback.opened(bob, 'refunds');

    expect(call).not.toHaveBeenCalled();
  });

  it("should send nothing for a search of an org the caller's token no longer lists", async () => {
    await feedback.searched(alice, search);
    await feedback.opened({ ...alice, orgs: ['globex'] }, 'refunds');

    expect(call).not.toHaveBeenCalled();
  });

  it('should send nothing once the window after the search has passed', async () => {
    const now = jest.spyOn(Date, 'now');
    const start = Date.parse('2026-12-05T12:00:00Z');
    now.mockReturnValue(start);
    await feedback.searched(alice, search);
    now.mockReturnValue(start + IMPLICIT_SIGNAL_WINDOW_MS - 1000);
    await feedback.opened(alice, 'payments');
    now.mockReturnValue(start + IMPLICIT_SIGNAL_WINDOW_MS + 1000);
    await feedback.opened(alice, 'refunds');

    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0][1]?.body).toMatchObject({ apiId: 'payments' });
  });

  it('should remember nothing of a search without a searchId', async () => {
    await feedback.searched(alice, { ...search, searchId: '' });
    await feedback.opened(alice, 'refunds');

    expect(call).not.toHaveBeenCalled();
  });

  it('should neither throw nor reject when the AI app is down, and log it', async () => {
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    call.mockRejectedValue(new AiUnavailableError('The search service is unavailable right now; try again shortly', 5));
    await feedback.searched(alice, search);

    await expect(feedback.opened(alice, 'refunds')).resolves.toBeUndefined();
    await settled();
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('unavailable'));
  });

  it('should neither throw nor reject when the AI app refuses the signal, and warn of it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    call.mockResolvedValue(new AiAnswer(400, 'application/problem+json', '{"detail":"searchId is required"}'));
    await feedback.searched(alice, search);

    await expect(feedback.opened(alice, 'refunds')).resolves.toBeUndefined();
    await settled();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('400'));
  });

  it('should not throw when the AI client throws before it returns a promise', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    call.mockImplementation(() => {
      throw new Error('boom');
    });
    await feedback.searched(alice, search);

    await expect(feedback.opened(alice, 'refunds')).resolves.toBeUndefined();
    await settled();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('boom'));
  });

  it('should count an opening on another replica than the search, once across replicas', async () => {
    await feedback.searched(alice, search);
    await otherReplica.opened(alice, 'refunds');
    await feedback.opened(alice, 'refunds');

    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0][1]?.body).toMatchObject({ searchId: 'search-1', apiId: 'refunds', person: 'alice' });
  });

  it("should tell the need of a search the caller made, on any replica, and of no one else's", async () => {
    await feedback.searched(alice, { ...search, query: 'refund a card payment' });

    await expect(otherReplica.queryOf(alice, 'search-1')).resolves.toBe('refund a card payment');
    await expect(feedback.queryOf(alice, 'search-9')).resolves.toBeUndefined();
    await expect(feedback.queryOf(bob, 'search-1')).resolves.toBeUndefined();
  });

  it('should neither throw nor send while Redis is away', async () => {
    const away = connect('redis://127.0.0.1:6390');
    const cutOff = new ImplicitFeedback({ request: call } as unknown as AiClient, away, { redis: { queuePrefix: 'test-away' } } as GatewayConfig);
    await expect(cutOff.searched(alice, search)).resolves.toBeUndefined();
    await expect(cutOff.opened(alice, 'refunds')).resolves.toBeUndefined();
    await expect(cutOff.queryOf(alice, 'search-1')).resolves.toBeUndefined();
    expect(call).not.toHaveBeenCalled();
    away.disconnect();
  });
});
