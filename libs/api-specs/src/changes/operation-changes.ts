import type { ApiChange, ChangeGap, ChangeSeverity, MediaTypeSchema, OperationDetail, OperationParameter, OperationRequestBody } from '#contracts';
import { capitalised, compareSchemas, type Direction, type SchemaChange } from './schema-changes.js';

/** One operation both specs have, and how to report on it. */
export interface OperationPair {
  /** `METHOD path` as the newer spec writes it. */
  operation: string;
  before: OperationDetail;
  after: OperationDetail;
  /** The format's word for a request body, lower case: `request body`, `message`, `input`. */
  bodyLabel: string;
  /** What the body is to a caller: sent (a request, an AsyncAPI message a caller publishes) or received. */
  bodyDirection: Direction;
  /** See `SchemaComparison.strictInputs`. */
  strictInputs: boolean;
  /** See `SchemaComparison.budget`: shared by every operation of one report. */
  budget: { nodes: number };
  emit: (change: ApiChange) => void;
  /** A part not compared (see `compareSchemas`). */
  gap: (gap: ChangeGap) => void;
}

/** A status that answers a call that worked: `2xx`, or any that is not HTTP's (`data`, `OK`, `result`, `reply`). */
const SUCCESS_STATUS = /^(2(\d\d|XX)|(?!default$)\D.*)$/i;

/** Inputs, request body and responses of one operation, compared. */
export function compareOperation(pair: OperationPair): void {
  const { before, after } = pair;
  if (after.deprecated && !before.deprecated) change(pair, 'info', 'operation-deprecated', 'operation', `${pair.operation} was deprecated`);
  compareInputs(pair);
  compareBodies(pair, before.requestBody, after.requestBody);
  compareResponses(pair);
}

function compareInputs(pair: OperationPair): void {
  const old = inputsByKey(pair.before);
  const now = inputsByKey(pair.after);
  for (const [key, input] of old) {
    const next = now.get(key);
    const location = `input ${(next ?? input).in}.${(next ?? input).name}`;
    if (!next) {
      // GraphQL refuses an argument it does not know; HTTP servers ignore a parameter they no longer read.
      const refused = pair.strictInputs || input.in === 'path';
      change(
        pair,
        refused ? 'breaking' : 'info',
        'input-removed',
        location,
        `${capitalised(inputName(input))} was removed: ${refused ? 'callers that send it are refused' : 'callers that send it are ignored'}`,
      );
      continue;
    }
    if (!input.required && next.required)
      change(pair, 'breaking', 'input-made-required', location, `${capitalised(inputName(next))} was made required: callers that leave it out are refused`);
    if (input.required && !next.required) change(pair, 'non-breaking', 'input-made-optional', location, `${capitalised(inputName(next))} was made optional`);
    if (next.deprecated && !input.deprecated) change(pair, 'info', 'input-deprecated', location, `${capitalised(inputName(next))} was deprecated`);
    schemaChanges(pair, input.schema, next.schema, 'input', 'input', location);
  }
  for (const [key, input] of now) {
    if (old.has(key)) continue;
    const location = `input ${input.in}.${input.name}`;
    if (input.required)
      change(pair, 'breaking', 'required-input-added', location, `Required ${inputName(input)} was added: callers that leave it out are refused`);
    else change(pair, 'non-breaking', 'optional-input-added', location, `Optional ${inputName(input)} was added`);
  }
}

/**
 * Inputs by where they go and their name; a path parameter by its place in the path, since
 * `/pets/{id}` and `/pets/{petId}` are called the same way. Header names are case-insensitive.
 */
function inputsByKey(detail: OperationDetail): Map<string, OperationParameter> {
  const placeholders = [...detail.path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
  const inputs = new Map<string, OperationParameter>();
  for (const input of detail.parameters) {
    const place = input.in === 'path' ? placeholders.indexOf(input.name) : -1;
    const key = place >= 0 ? `path.#${place}` : `${input.in}.${input.in === 'header' ? input.name.toLowerCase() : input.name}`;
    if (!inputs.has(key)) inputs.set(key, input);
  }
  return inputs;
}

function inputName(input: OperationParameter): string {
  return input.in === 'argument' ? `argument ${input.name}` : `${input.in} parameter ${input.name}`;
}

function compareBodies(pair: OperationPair, old: OperationRequestBody | undefined, now: OperationRequestBody | undefined): void {
  const label = pair.bodyLabel;
  if (!old && !now) return;
  if (!old) {
    if (now!.required) change(pair, 'breaking', 'request-body-added', label, `A required ${label} was added: callers that send none are refused`);
    else change(pair, 'non-breaking', 'request-body-added', label, `An optional ${label} was added`);
    return;
  }
  if (!now) {
    change(pair, 'info', 'request-body-removed', label, `The ${label} was removed: callers that send one are ignored`);
    return;
  }
  if (!old.required && now.required)
    change(pair, 'breaking', 'request-body-made-required', label, `The ${label} was made required: callers that send none are refused`);
  if (old.required && !now.required) change(pair, 'non-breaking', 'request-body-made-optional', label, `The ${label} was made optional`);
  const input = pair.bodyDirection === 'input';
  compareContents(pair, old.content, now.content, {
    label,
    direction: pair.bodyDirection,
    prefix: label === 'message' ? 'message' : 'request',
    // A caller that sends a media type no longer read is refused; one that receives it just no longer does.
    removed: input ? 'breaking' : 'info',
  });
}

function compareResponses(pair: OperationPair): void {
  const now = new Map(pair.after.responses.map((response) => [response.status, response]));
  const old = new Set(pair.before.responses.map((response) => response.status));
  for (const response of pair.before.responses) {
    const next = now.get(response.status);
    const location = `response ${response.status}`;
    const success = SUCCESS_STATUS.test(response.status);
    if (!next) {
      if (success) change(pair, 'breaking', 'success-response-removed', location, `The ${response.status} response was removed: callers that expect it break`);
      else change(pair, 'info', 'response-removed', location, `The ${response.status} response was removed`);
      continue;
    }
    compareContents(pair, response.content, next.content, { label: location, direction: 'output', prefix: 'response', removed: success ? 'breaking' : 'info' });
  }
  for (const response of pair.after.responses) {
    if (old.has(response.status)) continue;
    const success = SUCCESS_STATUS.test(response.status);
    change(pair, success ? 'non-breaking' : 'info', 'response-added', `response ${response.status}`, `A ${response.status} response was added`);
  }
}

interface ContentSide {
  /** `request body`, `response 200`. */
  label: string;
  direction: Direction;
  /** What codes start with: `request`, `response`, `message`. */
  prefix: string;
  /** What a media type no longer there does to a caller. */
  removed: ChangeSeverity;
}

/**
 * Content by media type (AsyncAPI lists a message per entry: those of one media type in order). A
 * pair whose schemas are those of a pair already compared (JSON and XML of one schema) is not
 * compared again, so each change is reported once.
 */
function compareContents(pair: OperationPair, old: MediaTypeSchema[], now: MediaTypeSchema[], side: ContentSide): void {
  const unmatched = new Map<string, MediaTypeSchema[]>();
  for (const media of now) unmatched.set(media.mediaType, [...(unmatched.get(media.mediaType) ?? []), media]);
  const several = old.length > 1 || now.length > 1;
  const compared = new Set<string>();
  for (const media of old) {
    const next = unmatched.get(media.mediaType)?.shift();
    const label = several ? `${side.label} ${media.mediaType}` : side.label;
    if (!next) {
      change(pair, side.removed, `${side.prefix}-media-type-removed`, label, `${capitalised(side.label)} no longer has ${media.mediaType} content`);
      continue;
    }
    const key = JSON.stringify([media.schema, next.schema]);
    if (compared.has(key)) continue;
    compared.add(key);
    schemaChanges(pair, media.schema, next.schema, side.direction, side.prefix, label);
  }
  for (const media of [...unmatched.values()].flat()) {
    change(
      pair,
      'non-breaking',
      `${side.prefix}-media-type-added`,
      `${side.label} ${media.mediaType}`,
      `${capitalised(side.label)} now has ${media.mediaType} content`,
    );
  }
}

function schemaChanges(pair: OperationPair, old: unknown, now: unknown, direction: Direction, prefix: string, location: string): void {
  if (old === undefined || now === undefined) return;
  const locate = (pointer: string) => (pointer ? `${location} ${pointer}` : location);
  compareSchemas(old, now, {
    direction,
    strictInputs: pair.strictInputs,
    locate,
    budget: pair.budget,
    emit: ({ severity, code, pointer, message }: SchemaChange) => change(pair, severity, `${prefix}-${code}`, locate(pointer), message),
    gap: (pointer, reason) => pair.gap({ operation: pair.operation, location: locate(pointer), reason }),
  });
}

function change(pair: OperationPair, severity: ChangeSeverity, code: string, location: string, message: string): void {
  pair.emit({ severity, code, operation: pair.operation, location, message });
}
