import type {
  ApiEndpoint,
  ApiModel,
  ApiModelOperation,
  ApiModelSchema,
  ApiOverview,
  JsonSchema,
  LintFinding,
  MediaTypeSchema,
  OperationDetail,
  OperationParameter,
  OperationResponse,
  OperationSelector,
} from '#contracts';
import { headline } from '../../chunk-api.js';
import { cleanText } from '../../clean-text.js';
import { expandSchema, followRef, SchemaBudget } from '../shared/schema.js';
import { isObject } from '../../is-object.js';
import { perDocument, selected, selectorIndex } from '../shared/per-document.js';
import type { ReadSpec, SpecFileType, SpecFormat, SpecMarker } from '../spec-format.js';
import { type SpecSource, structuredFileType } from '../spec-source.js';
import { type AsyncMessage, type AsyncOperation, asyncOperations } from './asyncapi-operations.js';
import { lintAsyncApi } from './lint-asyncapi.js';
import {
  concreteUrl,
  documentTags,
  operationDescription,
  operationRequirements,
  operationSummary,
  operationTags,
  schemaFields,
  securitySchemeInfos,
  serverInfos,
  serverRequirements,
} from './asyncapi-parts.js';
import { type AsyncApiDocument, majorVersion, readAsyncApi } from './read-asyncapi.js';
import { validateAsyncApi } from './validate-asyncapi.js';
import { exampleValue } from '../shared/example-value.js';

type Json = Record<string, unknown>;

const MAX_SERVERS = 5;
const MAX_REPLY_LINES = 8;

/**
 * AsyncAPI 2.0–2.6 and 3.0, in JSON or YAML. Operations are 2.x channels' `publish`/`subscribe`
 * (path: the channel's name) and 3.0 `operations` (`SEND`/`RECEIVE`, path: the channel's address);
 * a message's payload is the body, channel parameters and message headers the inputs, a 3.0
 * `reply` the output. `read` checks the structure; `model` validates with @asyncapi/parser (its
 * file and URL resolvers off, see `validateAsyncApi`). Internal `$ref`s are followed where read;
 * none is ever resolved outside the document.
 */
export class AsyncApiFormat implements SpecFormat<AsyncApiDocument> {
  readonly kind = 'asyncapi';
  readonly name = 'AsyncAPI';
  readonly label = 'AsyncAPI 2.x and 3.0';
  readonly verbs = ['PUBLISH', 'SUBSCRIBE', 'SEND', 'RECEIVE'];
  readonly parts = { inputs: 'Parameters', body: 'Message', responses: 'Reply' };
  readonly fileExtensions = ['.json', '.yaml', '.yml'];
  readonly signature = 'an "asyncapi" field';
  readonly moduleUrl = import.meta.url;
  // The messages of 2.x `subscribe` and 3.0 `send` operations are the API's: its callers receive them.
  readonly changeRules = { receivedBodyVerbs: ['SUBSCRIBE', 'SEND'] };
  readonly marker: SpecMarker = { in: (document) => document.asyncapi !== undefined, text: /^\s*["']?asyncapi["']?\s*:/m };

  detect(source: SpecSource): boolean {
    const document = source.object();
    return document !== undefined && this.marker.in(document);
  }

  read(source: SpecSource): ReadSpec<AsyncApiDocument> {
    const document = readAsyncApi(source);
    return { kind: this.kind, format: `AsyncAPI ${String(document.asyncapi)}`, document };
  }

  info(spec: ReadSpec<AsyncApiDocument>) {
    return isObject(spec.document.info) ? (spec.document.info as { title?: unknown; version?: unknown }) : undefined;
  }

  async model(spec: ReadSpec<AsyncApiDocument>): Promise<ApiModel> {
    const document = spec.document;
    await validateAsyncApi(document);
    const { info, description, operations } = this.facts(spec);
    return {
      kind: this.kind,
      format: spec.format,
      ...(typeof info.title === 'string' ? { title: info.title } : {}),
      ...(typeof info.version === 'string' ? { version: info.version } : {}),
      ...(description ? { description } : {}),
      servers: [...new Set(serverInfos(document).map(concreteUrl))].slice(0, MAX_SERVERS),
      securitySchemes: securitySchemeInfos(document, operations).map(({ name, type }) => ({ name, type })),
      tags: documentTags(document),
      operations: operations.map((entry) => modelOperation(document, entry)),
      schemas: namedSchemas(document),
    };
  }

  overview(spec: ReadSpec<AsyncApiDocument>): ApiOverview {
    const document = spec.document;
    const { description, operations } = this.facts(spec);
    return {
      kind: this.kind,
      format: spec.format,
      ...(description ? { description } : {}),
      servers: serverInfos(document),
      securitySchemes: securitySchemeInfos(document, operations),
      security: serverRequirements(document),
      operations: operations.map((entry) => endpoint(document, entry)),
    };
  }

  /** What the model and the overview both start from: the info object, its description as plain text, the operations. */
  private facts({ document }: ReadSpec<AsyncApiDocument>) {
    const info = isObject(document.info) ? document.info : {};
    return { info, description: cleanText(info.description), operations: asyncOperations(document) };
  }

  operation(spec: ReadSpec<AsyncApiDocument>, selector: OperationSelector, maxChars: number): OperationDetail | undefined {
    const document = spec.document;
    const entry = selected(operationIndex(document), selector);
    return entry && operationDetail(document, entry, maxChars);
  }

  /** As registered: JSON or YAML. */
  /** The message to send (or that arrives), as JSON, with where it goes. */
  callExample(api: ApiOverview, operation: OperationDetail): string {
    const server = api.servers[0]?.url ?? 'the broker';
    const message = JSON.stringify(exampleValue(operation.requestBody?.content[0]?.schema));
    return ['PUBLISH', 'RECEIVE'].includes(operation.method)
      ? `Publish to ${operation.path} on ${server}: ${message}`
      : `Subscribe to ${operation.path} on ${server}; each message looks like: ${message}`;
  }

  fileType(text: string): SpecFileType {
    return structuredFileType(text);
  }

  lint(spec: ReadSpec<AsyncApiDocument>): Promise<LintFinding[]> {
    return lintAsyncApi(spec.document);
  }
}

/** By `operationId`, or else by `method` (any case) and `path`: the first that matches. */
const operationIndex = perDocument((document: AsyncApiDocument) =>
  selectorIndex(
    asyncOperations(document),
    (entry) => entry.operationId,
    (entry) => `${entry.method} ${entry.path}`,
  ),
);

function endpoint(document: AsyncApiDocument, entry: AsyncOperation): ApiEndpoint {
  const summary = headline({ summary: operationSummary(entry), description: operationDescription(entry) });
  return {
    method: entry.method,
    path: entry.path,
    ...(summary ? { summary } : {}),
    ...(entry.operationId !== undefined ? { operationId: entry.operationId } : {}),
    tags: operationTags(document, entry),
  };
}

/** What the model and the detail both say of an operation: verb, address, id, texts and tags. */
function operationHead(document: AsyncApiDocument, entry: AsyncOperation) {
  const summary = operationSummary(entry);
  const description = operationDescription(entry);
  return {
    method: entry.method,
    path: entry.path,
    ...(entry.operationId !== undefined ? { operationId: entry.operationId } : {}),
    ...(summary ? { summary } : {}),
    ...(description ? { description } : {}),
    tags: operationTags(document, entry),
  };
}

function modelOperation(document: AsyncApiDocument, entry: AsyncOperation): ApiModelOperation {
  const parameters = channelParameters(document, entry.channel).map(({ name, description }) => ({ name, in: 'path', ...(description ? { description } : {}) }));
  const headers = unique(entry.messages.flatMap((message) => schemaFields(document, message.headers))).map(({ name, description }) => ({
    name,
    in: 'header',
    ...(description ? { description } : {}),
  }));
  const fields = unique(entry.messages.flatMap((message) => schemaFields(document, message.payload))).map((field) => field.name);
  const replies = entry.reply ? replyLines(document, entry.reply.messages) : [];
  return {
    ...operationHead(document, entry),
    ...(entry.operationId !== undefined ? { name: entry.operationId } : {}),
    inputs: [...parameters, ...headers],
    ...(fields.length ? { body: { label: 'Message', fields } } : {}),
    ...(replies.length ? { outputs: { label: 'Reply', lines: replies } } : {}),
  };
}

/** `Pong fields event, reqid` for each message a reply may be. */
function replyLines(document: AsyncApiDocument, messages: AsyncMessage[]): string[] {
  return messages.slice(0, MAX_REPLY_LINES).map((message) => {
    const fields = schemaFields(document, message.payload).map((field) => field.name);
    const name = message.name ?? 'message';
    return fields.length ? `${name} fields ${fields.join(', ')}` : name;
  });
}

/** `components.schemas`, then `components.messages` (by their payload's fields; " message" added to a name a schema has). */
function namedSchemas(document: AsyncApiDocument): ApiModelSchema[] {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const messages = isObject(components.messages) ? components.messages : {};
  const named: ApiModelSchema[] = Object.entries(schemas).flatMap(([name, raw]) => {
    const schema = followRef(document, raw);
    if (!schema) return [];
    const description = cleanText(schema.description) || cleanText(schema.title);
    return [{ name, ...(description ? { description } : {}), fields: schemaFields(document, schema) }];
  });
  const taken = new Set(named.map((schema) => schema.name));
  for (const [key, raw] of Object.entries(messages)) {
    const message = followRef(document, raw);
    if (!message) continue;
    const payload =
      majorVersion(document) === 3 && isObject(message.payload) && message.payload.schemaFormat !== undefined ? message.payload.schema : message.payload;
    const description = cleanText(message.description) || cleanText(message.summary) || cleanText(message.title);
    named.push({ name: taken.has(key) ? `${key} message` : key, ...(description ? { description } : {}), fields: schemaFields(document, payload) });
  }
  return named;
}

interface ChannelParameter {
  name: string;
  description: string;
  parameter: Json;
}

function channelParameters(document: AsyncApiDocument, channel: Json): ChannelParameter[] {
  if (!isObject(channel.parameters)) return [];
  return Object.entries(channel.parameters).map(([name, raw]) => {
    const parameter = followRef(document, raw) ?? {};
    return { name, description: cleanText(parameter.description), parameter };
  });
}

function operationDetail(document: AsyncApiDocument, entry: AsyncOperation, maxChars: number): OperationDetail {
  const budget = new SchemaBudget(maxChars);
  const parameters: OperationParameter[] = channelParameters(document, entry.channel).map(({ name, description, parameter }) => {
    const schema = parameterSchema(document, parameter, budget);
    return { name, in: 'path', required: true, ...(description ? { description } : {}), ...(schema ? { schema } : {}) };
  });
  const headerNames = new Set<string>();
  for (const message of entry.messages) {
    const headers = followRef(document, message.headers);
    if (!headers || !isObject(headers.properties)) continue;
    const required = Array.isArray(headers.required) ? headers.required : [];
    for (const [name, property] of Object.entries(headers.properties)) {
      if (headerNames.has(name)) continue;
      headerNames.add(name);
      const text = cleanText(followRef(document, property)?.description);
      const schema = expandSchema(document, property, budget);
      parameters.push({ name, in: 'header', required: required.includes(name), ...(text ? { description: text } : {}), ...(schema ? { schema } : {}) });
    }
  }
  const responses: OperationResponse[] = entry.reply
    ? [
        {
          status: 'reply',
          ...(entry.reply.description || entry.reply.address ? { description: cleanText(entry.reply.description) || `On ${entry.reply.address}` } : {}),
          content: messageContent(document, entry.reply.messages, budget),
        },
      ]
    : [];
  const bodyDescription = messagesDescription(entry.messages);
  return {
    ...operationHead(document, entry),
    parameters,
    ...(entry.messages.length
      ? {
          requestBody: {
            required: true,
            ...(bodyDescription ? { description: bodyDescription } : {}),
            content: messageContent(document, entry.messages, budget),
          },
        }
      : {}),
    responses,
    security: operationRequirements(document, entry),
    ...(budget.truncated ? { truncated: true } : {}),
  };
}

/** 2.x: the parameter's `schema`; 3.0 parameters are strings, with `enum`, `default` and `examples`. */
function parameterSchema(document: AsyncApiDocument, parameter: Json, budget: SchemaBudget): JsonSchema | undefined {
  if (parameter.schema !== undefined) return expandSchema(document, parameter.schema, budget);
  if (majorVersion(document) === 2) return undefined;
  const schema: Json = { type: 'string' };
  for (const key of ['enum', 'default', 'examples'] as const) if (parameter[key] !== undefined) schema[key] = parameter[key];
  return expandSchema(document, schema, budget);
}

/** One entry per message, its content type that of the message, else the document's `defaultContentType`, else JSON. */
function messageContent(document: AsyncApiDocument, messages: AsyncMessage[], budget: SchemaBudget): MediaTypeSchema[] {
  const fallback = typeof document.defaultContentType === 'string' ? document.defaultContentType : 'application/json';
  return messages.map((message) => {
    const schema = message.payload === undefined ? undefined : expandSchema(document, message.payload, budget);
    return { mediaType: typeof message.message.contentType === 'string' ? message.message.contentType : fallback, ...(schema ? { schema } : {}) };
  });
}

/** Which message (`UserSignedUp: …its summary`), or which messages, in content's order. */
function messagesDescription(messages: AsyncMessage[]): string {
  if (messages.length === 1) {
    const [{ name, message }] = messages;
    const text = cleanText(message.summary) || cleanText(message.title) || cleanText(message.description);
    return [name, text].filter(Boolean).join(': ');
  }
  const names = messages.map((message) => message.name ?? 'unnamed');
  return names.length ? `One of the messages ${names.join(', ')}` : '';
}

function unique<T extends { name: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.name) && seen.add(item.name));
}

export default AsyncApiFormat;
