import { ConflictException } from '@nestjs/common';
import { operationKey as endpointKey } from '#api-specs';
import {
  type AffectedConsumer,
  CHANGE_REPORT_LIMITS,
  CONSUMER_LIMITS,
  type ChangeImpact,
  type ChangeReport,
  type ConsumedOperation,
  NOTIFICATION_LIMITS,
} from '#contracts';
import type { Consumer } from './consumer.js';

/**
 * An operation as change reports match it (`GET /pets/{}`, path parameters unnamed: a consumer
 * that wrote `/pets/{petId}` calls `/pets/{id}`), from a consumer's operation or a report's
 * `METHOD address`.
 */
export function operationKey(operation: ConsumedOperation | string): string {
  if (typeof operation !== 'string') return endpointKey({ method: operation.method, path: operation.path.trim() });
  const space = operation.indexOf(' ');
  return endpointKey(space < 0 ? { method: operation, path: '' } : { method: operation.slice(0, space), path: operation.slice(space + 1).trim() });
}

export function affectedConsumer(consumer: Consumer, certain: boolean): AffectedConsumer {
  return {
    consumerId: consumer.id,
    name: consumer.name,
    ...(consumer.teamName ? { teamName: consumer.teamName } : {}),
    ...(consumer.contact ? { contact: consumer.contact } : {}),
    source: consumer.source,
    certain,
  };
}

/**
 * Which consumers of the compared (`from`) version a report's breaking changes reach. A consumer
 * that named operations is affected by a breaking change in one of them, or in the API as a whole
 * (a change without an operation); it may be affected when the report is incomplete where it
 * calls (a part not compared in its operations, or in the whole), or the list of changes was cut. A consumer that named none may
 * be affected by any breaking change, or by an incomplete report. The rest are unaffected. Each
 * breaking change lists the consumers that named its operation (`affectedConsumers`).
 */
export function withImpact<T extends ChangeReport>(report: T, consumers: Consumer[]): T {
  const breaking = report.changes.flatMap((change, index) =>
    change.severity === 'breaking' ? [{ index, key: change.operation && operationKey(change.operation) }] : [],
  );
  const gaps = report.complete ? [] : (report.notCompared ?? []);
  // A list of changes cut short, a gap in the API as a whole, or more gaps than listed may hide a change in any operation.
  const anywhere =
    report.truncated === true || (!report.complete && (gaps.length === 0 || gaps.length >= CHANGE_REPORT_LIMITS.maxGaps || gaps.some((gap) => !gap.operation)));
  const gapOperations = new Set(gaps.flatMap((gap) => (gap.operation ? [operationKey(gap.operation)] : [])));
  const anyBreaking = report.breaking > 0 || !report.complete;
  const affected: AffectedConsumer[] = [];
  const mayBeAffected: AffectedConsumer[] = [];
  const byChange = new Map<number, string[]>();
  let unaffected = 0;
  for (const consumer of consumers) {
    if (consumer.operations.length === 0) {
      if (anyBreaking) mayBeAffected.push(affectedConsumer(consumer, false));
      else unaffected += 1;
      continue;
    }
    const calls = new Set(consumer.operations.map(operationKey));
    let hit = false;
    for (const { index, key } of breaking) {
      if (key !== undefined && !calls.has(key)) continue;
      hit = true;
      const ids = byChange.get(index) ?? [];
      ids.push(consumer.id);
      byChange.set(index, ids);
    }
    if (hit) affected.push(affectedConsumer(consumer, true));
    else if (anywhere || [...calls].some((call) => gapOperations.has(call))) mayBeAffected.push(affectedConsumer(consumer, false));
    else unaffected += 1;
  }
  const changes = report.changes.map((change, index) => {
    const ids = byChange.get(index);
    if (!ids) return change;
    const listed = ids.slice(0, CONSUMER_LIMITS.listedPerChange);
    return { ...change, affectedConsumers: listed, ...(ids.length > listed.length ? { affectedConsumersTotal: ids.length } : {}) };
  });
  const impact: ChangeImpact = { affected, mayBeAffected, unaffected };
  return { ...report, changes, impact };
}

/** The consumers an event tells (the first `NOTIFICATION_LIMITS.consumersCarried`), and how many there are. */
export function toldConsumers(users: Consumer[]): { consumers: AffectedConsumer[]; consumersTotal: number } {
  return { consumers: users.slice(0, NOTIFICATION_LIMITS.consumersCarried).map((user) => affectedConsumer(user, true)), consumersTotal: users.length };
}

/**
 * 409 naming the consumers of what is about to be retired or deleted (`force` goes ahead, and
 * they are told). A client only observed, and not seen for `CONSUMER_LIMITS.observedHoldsDays`, is
 * told but does not hold it up: an agent that read an API once is no user of it.
 */
export function assertUnused(what: string, users: Consumer[], doing: 'retire' | 'delete'): void {
  const since = Date.now() - CONSUMER_LIMITS.observedHoldsDays * 86_400_000;
  const holding = users.filter((user) => user.source !== 'observed' || user.lastSeenAt.getTime() >= since);
  if (holding.length === 0) return;
  throw new ConflictException(
    `${what} is used by ${holding.length} consumer${holding.length === 1 ? '' : 's'}: ${namedList(holding, CONSUMER_LIMITS.named)}. ` +
      `Tell them first, or ${doing} it with force: true (they are told)`,
  );
}

/** Names for a message: the first `limit`, then "and N more". */
export function namedList(consumers: { name: string; teamName?: string | null }[], limit: number): string {
  const named = consumers.slice(0, limit).map((consumer) => (consumer.teamName ? `${consumer.name} (${consumer.teamName})` : consumer.name));
  const more = consumers.length - named.length;
  return named.join(', ') + (more > 0 ? ` and ${more} more` : '');
}
