import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { SearchResult } from '#contracts';
import type { Caller } from '../auth/caller.js';
import { type AiClient, type AiResponse, AiUnavailableError } from '../proxy/ai-client.js';
import { IMPLICIT_SIGNAL_WINDOW_MS, ImplicitFeedback } from './implicit-feedback.js';

describe(ImplicitFeedback.name, () => {
  const alice = { sub: 'alice', orgs: ['acme'], roles: ['reader'] } as Caller;
  const bob = { sub: 'bob', orgs: ['acme'], roles: ['reader'] } as Caller;
  const search = { searchId: 'search-1', orgId: 'acme', results: [{ apiId: 'payments' }, { apiId: 'refunds' }] as SearchResult[] };
  const accepted: AiResponse = { status: 204, contentType: 'application/json', body: '' };
  // The background call's answer is handled a few microtasks later.
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  let call: jest.Mock<AiClient['call']>;
  let feedback: ImplicitFeedback;

  beforeEach(() => {
    call = jest.fn<AiClient['call']>().mockResolvedValue(accepted);
    feedback = new ImplicitFeedback({ call } as unknown as AiClient);
  });

  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('should send one opened signal for an API the caller\'s search returned', () => {
    feedback.searched(alice, search);
    feedback.opened(alice, 'refunds', undefined, 'request-1');

    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith('POST', '/feedback', {
      body: { searchId: 'search-1', apiId: 'refunds', helpful: true, signal: 'opened', person: 'alice', orgIds: ['acme'] },
      requestId: 'request-1',
    });
  });

  it('should send nothing the second time the same API is opened after the same search', () => {
    feedback.searched(alice, search);
    feedback.opened(alice, 'refunds');
    feedback.opened(alice, 'refunds');

    expect(call).toHaveBeenCalledTimes(1);
  });

  it('should send one signal per operation opened, with the operation as the tool resolved it', () => {
    feedback.searched(alice, search);
    const refund = { method: 'POST', path: '/refunds' };
    feedback.opened(alice, 'refunds', refund);
    feedback.opened(alice, 'refunds', { ...refund });
    feedback.opened(alice, 'refunds', { method: 'GET', path: '/refunds/{id}' });

    expect(call).toHaveBeenCalledTimes(2);
    expect(call.mock.calls[0][2]?.body).toMatchObject({ apiId: 'refunds', operation: refund, signal: 'opened' });
    expect(call.mock.calls[1][2]?.body).toMatchObject({ apiId: 'refunds', operation: { method: 'GET', path: '/refunds/{id}' } });
  });

  it('should credit the newest search that returned the API', () => {
    feedback.searched(alice, search);
    feedback.searched(alice, { ...search, searchId: 'search-2' });
    feedback.opened(alice, 'payments');

    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0][2]?.body).toMatchObject({ searchId: 'search-2' });
  });

  it('should send nothing for an API the search did not return', () => {
    feedback.searched(alice, search);
    feedback.opened(alice, 'billing');

    expect(call).not.toHaveBeenCalled();
  });

  it('should send nothing when another caller opens an API someone else\'s search returned', () => {
    feedback.searched(alice, search);
    feedback.opened(bob, 'refunds');

    expect(call).not.toHaveBeenCalled();
  });

  it('should send nothing for a search of an org the caller\'s token no longer lists', () => {
    feedback.searched(alice, search);
    feedback.opened({ ...alice, orgs: ['globex'] }, 'refunds');

    expect(call).not.toHaveBeenCalled();
  });

  it('should send nothing once the window after the search has passed', () => {
    jest.useFakeTimers({ now: new Date('2026-12-05T12:00:00Z') });
    feedback.searched(alice, search);
    jest.setSystemTime(Date.now() + IMPLICIT_SIGNAL_WINDOW_MS - 1000);
    feedback.opened(alice, 'payments');
    jest.setSystemTime(Date.now() + 2000);
    feedback.opened(alice, 'refunds');

    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0][2]?.body).toMatchObject({ apiId: 'payments' });
  });

  it('should remember nothing of a search without a searchId', () => {
    feedback.searched(alice, { ...search, searchId: '' });
    feedback.opened(alice, 'refunds');

    expect(call).not.toHaveBeenCalled();
  });

  it('should neither throw nor reject when the AI app is down, and log it', async () => {
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    call.mockRejectedValue(new AiUnavailableError('The search service is unavailable right now; try again shortly', 5));
    feedback.searched(alice, search);

    expect(() => feedback.opened(alice, 'refunds')).not.toThrow();
    await settled();
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('unavailable'));
  });

  it('should neither throw nor reject when the AI app refuses the signal, and warn of it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    call.mockResolvedValue({ status: 400, contentType: 'application/problem+json', body: '{"detail":"searchId is required"}' });
    feedback.searched(alice, search);

    expect(() => feedback.opened(alice, 'refunds')).not.toThrow();
    await settled();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('400'));
  });

  it('should not throw when the AI client throws before it returns a promise', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    call.mockImplementation(() => {
      throw new Error('boom');
    });
    feedback.searched(alice, search);

    expect(() => feedback.opened(alice, 'refunds')).not.toThrow();
    await settled();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('boom'));
  });
});
