import { followRef } from '../shared/schema.js';
import { isObject } from '../../is-object.js';

/** An AsyncAPI document as its JSON or YAML said it (plain data: `$ref`s are followed when read, never resolved in place). */
export type AsyncApiDocument = Record<string, unknown>;

type Json = Record<string, unknown>;

/** A message as an operation sends it: traits applied, its payload and headers as schemas. */
export interface AsyncMessage {
  /** Its `name`, `messageId`, key among a channel's messages, or the name its `$ref` ends in. */
  name?: string;
  message: Json;
  /** The payload schema (a 3.0 multi-format schema's `schema`); undefined when it has none. */
  payload?: unknown;
  headers?: unknown;
}

/** One operation of either major version, with what it refers to followed. */
export interface AsyncOperation {
  /** `PUBLISH`/`SUBSCRIBE` (2.x), `SEND`/`RECEIVE` (3.0). */
  method: string;
  /** The channel's name (2.x) or address (3.0). */
  path: string;
  operationId?: string;
  operation: Json;
  channel: Json;
  messages: AsyncMessage[];
  /** 3.0: what the receiver answers. */
  reply?: { address?: string; description?: string; messages: AsyncMessage[] };
}

const VERBS_2 = ['publish', 'subscribe'];

/** How many operations a document declares (before anything is followed): for SPEC_LIMITS. */
export function operationCount(document: AsyncApiDocument): number {
  if (String(document.asyncapi).startsWith('3.')) return isObject(document.operations) ? Object.keys(document.operations).length : 0;
  if (!isObject(document.channels)) return 0;
  return Object.values(document.channels).reduce<number>(
    (count, item) => count + (isObject(item) ? VERBS_2.filter((verb) => item[verb] !== undefined).length : 0),
    0,
  );
}

/** Every operation, in document order. */
export function asyncOperations(document: AsyncApiDocument): AsyncOperation[] {
  return String(document.asyncapi).startsWith('3.') ? operations3(document) : operations2(document);
}

function operations2(document: AsyncApiDocument): AsyncOperation[] {
  const channels = isObject(document.channels) ? document.channels : {};
  return Object.entries(channels).flatMap(([name, raw]) => {
    const channel = followRef(document, raw);
    if (!channel) return [];
    return Object.keys(channel)
      .filter((key) => VERBS_2.includes(key))
      .flatMap((verb) => {
        const found = followRef(document, channel[verb]);
        if (!found) return [];
        // AsyncAPI 2.x merges traits into the operation as a JSON merge patch: the trait wins.
        const operation = withTraits(document, found, 'trait');
        return [
          {
            method: verb.toUpperCase(),
            path: name,
            ...(typeof operation.operationId === 'string' ? { operationId: operation.operationId } : {}),
            operation,
            channel,
            messages: messages2(document, operation.message),
          },
        ];
      });
  });
}

/** A 2.x operation's `message`: one message, or `oneOf` several. */
function messages2(document: AsyncApiDocument, value: unknown): AsyncMessage[] {
  const message = followRef(document, value);
  if (!message) return [];
  if (Array.isArray(message.oneOf) && message.payload === undefined && message.headers === undefined) {
    return message.oneOf.flatMap((item) => messages2(document, item));
  }
  return [asyncMessage(document, message, refName(value), 2)];
}

function operations3(document: AsyncApiDocument): AsyncOperation[] {
  const operations = isObject(document.operations) ? document.operations : {};
  return Object.entries(operations).flatMap(([key, raw]) => {
    const found = followRef(document, raw);
    if (!found) return [];
    // AsyncAPI 3.0: "the object's own values win" over its traits'.
    const operation = withTraits(document, found, 'own');
    const channel = followRef(document, operation.channel) ?? {};
    const reply = followRef(document, operation.reply);
    return [
      {
        method: operation.action === 'send' ? 'SEND' : 'RECEIVE',
        path: channelAddress(channel, operation.channel) ?? key,
        operationId: key,
        operation,
        channel,
        messages: messages3(document, operation.messages, channel),
        ...(reply ? { reply: reply3(document, reply) } : {}),
      },
    ];
  });
}

function reply3(document: AsyncApiDocument, reply: Json): NonNullable<AsyncOperation['reply']> {
  const channel = followRef(document, reply.channel);
  const address = followRef(document, reply.address);
  const location = typeof address?.location === 'string' ? address.location : channel ? channelAddress(channel, reply.channel) : undefined;
  const description = typeof address?.description === 'string' ? address.description : undefined;
  return {
    ...(location ? { address: location } : {}),
    ...(description ? { description } : {}),
    messages: messages3(document, reply.messages, channel ?? {}),
  };
}

/** A 3.0 operation's (or reply's) `messages`, or when it lists none all its channel's. */
function messages3(document: AsyncApiDocument, listed: unknown, channel: Json): AsyncMessage[] {
  if (Array.isArray(listed)) {
    return listed.flatMap((value) => {
      const message = followRef(document, value);
      return message ? [asyncMessage(document, message, refName(value), 3)] : [];
    });
  }
  if (!isObject(channel.messages)) return [];
  return Object.entries(channel.messages).flatMap(([key, value]) => {
    const message = followRef(document, value);
    return message ? [asyncMessage(document, message, key, 3)] : [];
  });
}

function asyncMessage(document: AsyncApiDocument, found: Json, fallbackName: string | undefined, major: 2 | 3): AsyncMessage {
  const message = withTraits(document, found, major === 2 ? 'trait' : 'own');
  const name = [message.name, message.messageId, fallbackName].find((value): value is string => typeof value === 'string' && value !== '');
  const payload = schemaOf(document, message.payload, major);
  const headers = schemaOf(document, message.headers, major);
  return { ...(name ? { name } : {}), message, ...(payload !== undefined ? { payload } : {}), ...(headers !== undefined ? { headers } : {}) };
}

/** A schema, or the `schema` of a 3.0 multi-format schema object (`{ schemaFormat, schema }`). */
function schemaOf(document: AsyncApiDocument, value: unknown, major: 2 | 3): unknown {
  if (value === undefined) return undefined;
  if (major === 3) {
    const multi = followRef(document, value);
    if (multi && typeof multi.schemaFormat === 'string' && multi.schema !== undefined) return multi.schema;
  }
  return value;
}

/**
 * An operation or message with its `traits` merged in (shallowly): in 2.x each trait patches the
 * object (`winner: 'trait'`), in 3.0 the object's own values win (`'own'`).
 */
function withTraits(document: AsyncApiDocument, object: Json, winner: 'trait' | 'own'): Json {
  if (!Array.isArray(object.traits)) return object;
  const { traits, ...own } = object;
  const found = (traits as unknown[]).flatMap((trait) => {
    const value = followRef(document, trait);
    return value ? [value] : [];
  });
  const merged = found.reduce<Json>((result, trait) => ({ ...result, ...trait }), {});
  return winner === 'trait' ? { ...own, ...merged } : { ...merged, ...own };
}

/** A 3.0 channel's `address`, or when it has none (or `null`: unknown or dynamic) its key. */
function channelAddress(channel: Json, value: unknown): string | undefined {
  return typeof channel.address === 'string' && channel.address !== '' ? channel.address : refName(value);
}

/** The last token of a local `$ref` (`#/channels/userSignedUp` → `userSignedUp`). */
export function refName(value: unknown): string | undefined {
  if (!isObject(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) return undefined;
  const token = value.$ref
    .slice(value.$ref.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  try {
    return decodeURIComponent(token) || undefined;
  } catch {
    return token || undefined;
  }
}
