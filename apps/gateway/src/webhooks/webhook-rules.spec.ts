import { Webhook } from 'standardwebhooks';
import {
  isInternalAddress,
  MAX_RETRY_DELAY_MS,
  newWebhookSecret,
  retryDelayMs,
  webhookMatches,
  type EventFacts,
  type WebhookFilters,
} from './webhook-rules.js';

const hook = (filters: Partial<WebhookFilters> = {}): WebhookFilters => ({ orgId: 'acme', events: [], apiIds: [], teamNames: [], ...filters });
const event = (facts: Partial<EventFacts> = {}): EventFacts => ({ orgId: 'acme', type: 'api.created', apiId: 'a1', teamName: 'Payments', ...facts });

describe(webhookMatches.name, () => {
  it('should send every event of its org when it has no filter, and none of another org', () => {
    expect(webhookMatches(hook(), event())).toBe(true);
    expect(webhookMatches(hook(), event({ orgId: 'globex' }))).toBe(false);
  });

  it('should send only the listed types, APIs and teams, the team in any case', () => {
    expect(webhookMatches(hook({ events: ['api.deleted'] }), event())).toBe(false);
    expect(webhookMatches(hook({ events: ['api.deleted', 'api.created'] }), event())).toBe(true);
    expect(webhookMatches(hook({ apiIds: ['a2'] }), event())).toBe(false);
    expect(webhookMatches(hook({ apiIds: ['a2', 'a1'] }), event())).toBe(true);
    expect(webhookMatches(hook({ teamNames: ['PAYMENTS'] }), event())).toBe(true);
    expect(webhookMatches(hook({ teamNames: ['billing'] }), event())).toBe(false);
  });

  it('should not send an event of no team or no API to a webhook that filters on them', () => {
    expect(webhookMatches(hook({ teamNames: ['payments'] }), event({ teamName: null }))).toBe(false);
    expect(webhookMatches(hook({ apiIds: ['a1'] }), event({ apiId: null }))).toBe(false);
  });

  it('should need every filter to match', () => {
    expect(webhookMatches(hook({ events: ['api.created'], apiIds: ['a1'], teamNames: ['billing'] }), event())).toBe(false);
    expect(webhookMatches(hook({ events: ['api.created'], apiIds: ['a1'], teamNames: ['payments'] }), event())).toBe(true);
  });
});

describe(retryDelayMs.name, () => {
  it('should wait the base after the first try, then double, up to an hour', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 5000))).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(30, 5000)).toBe(MAX_RETRY_DELAY_MS);
  });
});

describe(newWebhookSecret.name, () => {
  it('should make a whsec_ secret of 24 random bytes that a Standard Webhooks verifier takes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
    const webhook = new Webhook(secret);
    const signature = webhook.sign('evt-1', new Date(), '{"a":1}');
    const timestamp = String(Math.floor(Date.now() / 1000));
    expect(new Webhook(secret).verify('{"a":1}', { 'webhook-id': 'evt-1', 'webhook-timestamp': timestamp, 'webhook-signature': signature })).toEqual({ a: 1 });
  });
});

describe(isInternalAddress.name, () => {
  it('should find loopback, private, link-local and unspecified literals, as a URL spells them', () => {
    for (const url of [
      'http://127.0.0.1',
      'http://2130706433',
      'http://0x7f000001',
      'http://10.1.2.3',
      'http://172.20.0.1',
      'http://192.168.1.1',
      'http://169.254.169.254',
      'http://0.0.0.0',
      'http://[::1]',
      'http://[::]',
      'http://[fd00::1]',
      'http://[fe80::1]',
      'http://[::ffff:127.0.0.1]',
    ]) {
      expect([url, isInternalAddress(new URL(url).hostname)]).toEqual([url, true]);
    }
  });

  it('should leave public addresses and names to the guard at connect time', () => {
    for (const url of ['http://93.184.216.34', 'http://[2606:4700::1111]', 'https://hooks.example.com', 'http://localhost']) {
      expect([url, isInternalAddress(new URL(url).hostname)]).toEqual([url, false]);
    }
  });
});
