import { randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { EventType } from '#contracts';

/** What a webhook's filters need of an event. */
export interface EventFacts {
  orgId: string;
  type: EventType;
  apiId: string | null;
  teamName: string | null;
}

/** What a webhook's filters are. */
export interface WebhookFilters {
  orgId: string;
  events: readonly string[];
  apiIds: readonly string[];
  teamNames: readonly string[];
}

/** An empty filter lets everything through; a team is compared in any case, and an event of no team passes no team filter. */
export function webhookMatches(webhook: WebhookFilters, event: EventFacts): boolean {
  if (webhook.orgId !== event.orgId) return false;
  if (webhook.events.length > 0 && !webhook.events.includes(event.type)) return false;
  if (webhook.apiIds.length > 0 && (event.apiId === null || !webhook.apiIds.includes(event.apiId))) return false;
  if (webhook.teamNames.length === 0) return true;
  const team = event.teamName?.toLowerCase();
  return team !== undefined && webhook.teamNames.some((name) => name.toLowerCase() === team);
}

/** The longest wait between two tries, whatever the base and the tries. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/** The wait after try `attempt` (1-based) failed: `baseMs`, then doubling. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

// What request-filtering-agent refuses at connect time, for the literal addresses a URL can spell.
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether a URL's host is a literal loopback, private, link-local or unspecified address: refused
 * at registration (a name that resolves to one is refused when a delivery connects).
 */
export function isInternalAddress(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  if (family === 0) return false;
  // IPv4 written as IPv6 (`[::ffff:7f00:1]`): whatever the address, no public receiver is spelt so.
  if (/^::ffff:/i.test(host)) return true;
  return INTERNAL.check(host, family === 4 ? 'ipv4' : 'ipv6');
}
