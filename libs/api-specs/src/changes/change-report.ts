import type { ApiEndpoint, ChangeReport, OperationDetail } from '#contracts';
import type { ReadWithFormat, SpecFormats } from '../formats/spec-formats.js';
import { SpecError } from '../spec-error.js';
import type { SpecRefusal, StoredSpec } from '../spec-tasks.js';
import { ChangeLog } from './change-log.js';
import { compareOperation } from './operation-changes.js';

export interface ChangeInput {
  /** The earlier spec. */
  from: StoredSpec;
  /** The later one. */
  to: StoredSpec;
  /**
   * What each operation's schemas may take on each side, at least (OPERATION_DETAIL_MAX_CHARS):
   * a comparison reads up to COMPARED_CHARS_PER_OPERATION, since a schema cut where an answer
   * would be cut is a schema not compared.
   */
  maxChars: number;
}

/**
 * What one report may read and walk: schemas of one operation (each side), of every operation
 * together (both sides), and pairs of schema nodes. A spec past them gets a report that says what
 * it did not compare (`complete: false`), within the spec thread's time and memory, rather than a
 * refusal or a silent zero.
 */
export const CHANGE_COMPARISON_LIMITS: ComparisonLimits = { charsPerOperation: 2_000_000, chars: 100_000_000, nodes: 2_000_000 };

export interface ComparisonLimits {
  readonly charsPerOperation: number;
  readonly chars: number;
  readonly nodes: number;
}

type Side = 'from' | 'to';

/** A side read, and its operations by key (see `operationKey`). */
interface ReadSide extends ReadWithFormat {
  operations: Map<string, ApiEndpoint>;
}

/**
 * What changed from one spec of an API to another, for a caller of the API: operations removed
 * and added, and for each operation both have, its inputs, request body and responses compared
 * on the format-neutral `OperationDetail` every kind has, each change rated by whether a caller
 * written for `from` breaks on `to`. What it could not compare it names (`notCompared`), and the
 * report is then not `complete`. A spec thread's task: a side that cannot be read is refused,
 * naming it.
 */
export function changeReportOf(formats: SpecFormats, { from, to, maxChars }: ChangeInput, limits = CHANGE_COMPARISON_LIMITS): ChangeReport | SpecRefusal {
  const before = readSide(formats, from, 'from');
  if (isRefused(before)) return before;
  const after = readSide(formats, to, 'to');
  if (isRefused(after)) return after;
  const log = new ChangeLog();
  const perOperation = Math.max(maxChars, limits.charsPerOperation);
  const budget = { chars: limits.chars, nodes: limits.nodes };
  let skipped = 0;
  if (before.format.kind !== after.format.kind) {
    log.add({
      severity: 'breaking',
      code: 'api-kind-changed',
      location: 'api',
      message: `The API changed from ${before.spec.format} to ${after.spec.format}: callers must be rewritten`,
    });
  }
  for (const [key, old] of before.operations) {
    const now = after.operations.get(key);
    if (!now) {
      const name = `${old.method} ${old.path}`;
      log.add({ severity: 'breaking', code: 'operation-removed', operation: name, location: 'operation', message: `${name} was removed: callers of it break` });
      continue;
    }
    const operation = `${now.method} ${now.path}`;
    if (budget.chars <= 0 || budget.nodes <= 0) {
      skipped++;
      continue;
    }
    const oldDetail = detailOf(before, old, perOperation, 'from');
    if (isRefused(oldDetail)) return oldDetail;
    const newDetail = detailOf(after, now, perOperation, 'to');
    if (isRefused(newDetail)) return newDetail;
    if (!oldDetail || !newDetail) {
      log.gap({ operation, location: 'operation', reason: `the ${oldDetail ? 'later' : 'earlier'} spec's operation could not be read in full: not compared` });
      continue;
    }
    budget.chars -= JSON.stringify(oldDetail).length + JSON.stringify(newDetail).length;
    if (oldDetail.truncated || newDetail.truncated) {
      log.gap({
        operation,
        location: 'operation',
        reason: `its schemas pass ${perOperation} characters on the ${oldDetail.truncated ? (newDetail.truncated ? 'earlier and later' : 'earlier') : 'later'} side: compared up to where they are cut`,
      });
    }
    compareOperation({
      operation,
      before: oldDetail,
      after: newDetail,
      bodyLabel: after.format.parts.body.toLowerCase(),
      bodyDirection: receivesBody(after, now) ? 'output' : 'input',
      strictInputs: after.format.changeRules?.strictInputs ?? false,
      budget,
      emit: (change) => log.add(change),
      gap: (gap) => log.gap(gap),
    });
  }
  if (skipped > 0) {
    log.gap({
      location: 'api',
      reason: `${skipped} operation${skipped === 1 ? '' : 's'} both specs have ${skipped === 1 ? 'was' : 'were'} not compared: the report's budget for reading schemas ran out (very large specs)`,
    });
  }
  for (const [key, added] of after.operations) {
    if (before.operations.has(key)) continue;
    const name = `${added.method} ${added.path}`;
    log.add({ severity: 'non-breaking', code: 'operation-added', operation: name, location: 'operation', message: `${name} was added` });
  }
  return log.report();
}

function readSide(formats: SpecFormats, { text, format }: StoredSpec, side: Side): ReadSide | SpecRefusal {
  return refusalOf(side, () => {
    const read = formats.read(text, format);
    const operations = new Map<string, ApiEndpoint>();
    for (const operation of read.format.overview(read.spec).operations) {
      const key = operationKey(operation);
      // A second operation with the same key is the one the format's lookup never finds either.
      if (!operations.has(key)) operations.set(key, operation);
    }
    return { ...read, operations };
  });
}

function detailOf(side: ReadSide, { method, path }: ApiEndpoint, maxChars: number, name: Side): OperationDetail | undefined | SpecRefusal {
  return refusalOf(name, () => side.format.operation(side.spec, { method, path }, maxChars));
}

/** `GET /pets/{}`: an operation by its method and path, path parameters unnamed (`/pets/{id}` is `/pets/{petId}`). */
export function operationKey({ method, path }: Pick<ApiEndpoint, 'method' | 'path'>): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
}

/** An operation whose body the API sends (an event it publishes): its callers receive it. */
function receivesBody(side: ReadSide, { method }: ApiEndpoint): boolean {
  return side.format.changeRules?.receivedBodyVerbs?.includes(method.toUpperCase()) ?? false;
}

function refusalOf<T>(side: Side, task: () => T): T | SpecRefusal {
  try {
    return task();
  } catch (error) {
    if (error instanceof SpecError) return { refused: `The "${side}" spec cannot be compared: ${error.message}` };
    throw error;
  }
}

function isRefused(result: object | undefined): result is SpecRefusal {
  return result !== undefined && 'refused' in result;
}
