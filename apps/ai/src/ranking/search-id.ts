import { randomUUID } from 'node:crypto';

/**
 * A new `searchId`: a UUIDv7 (RFC 9562), whose first 48 bits are the millisecond it was made. The
 * search log is written after the answer has gone out, so feedback sent through another replica
 * may arrive before the row: its id tells a search answered a moment ago, worth waiting for, from
 * one that is unknown. (Time-ordered ids also keep the log's primary key index compact.)
 */
export function newSearchId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // A v4 UUID's random bits and variant after the version digit: the 74 random bits of a v7.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}

/** When a searchId was made (ms since the epoch), if it is a UUIDv7; ids of earlier versions (v4) do not say. */
export function searchIdTime(searchId: string): number | undefined {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7/i.test(searchId)) return undefined;
  return parseInt(searchId.slice(0, 8) + searchId.slice(9, 13), 16);
}
