import type { OAuthFlowInfo, SecurityRequirement, SecuritySchemeInfo, ServerInfo } from '#contracts';
import { humanize } from '../../chunk-api.js';
import { cleanText, truncate } from '../../clean-text.js';
import { followRef } from '../shared/schema.js';
import { isObject } from '../../is-object.js';
import { type AsyncOperation, refName } from './asyncapi-operations.js';
import { type AsyncApiDocument, majorVersion } from './read-asyncapi.js';

type Json = Record<string, unknown>;

const MAX_FIELDS = 40;
const SUMMARY_CHARS = 200;

/** A field of a payload, headers or named schema, with its description. */
export interface Field {
  name: string;
  description?: string;
}

/**
 * The top-level fields of a schema: its properties, looking through `$ref`s, allOf/oneOf/anyOf
 * and array items (and an Avro record's `fields`), in order, at most MAX_FIELDS.
 */
export function schemaFields(document: AsyncApiDocument, value: unknown, depth = 0): Field[] {
  const schema = followRef(document, value);
  if (!schema || depth > 3) return [];
  const fields = new Map<string, Field>();
  const add = (name: string, described: unknown) => {
    if (fields.has(name) || fields.size >= MAX_FIELDS) return;
    const description = cleanText(followRef(document, described)?.description);
    fields.set(name, { name, ...(description ? { description: truncate(description, SUMMARY_CHARS) } : {}) });
  };
  if (isObject(schema.properties)) Object.entries(schema.properties).forEach(([name, property]) => add(name, property));
  // An Avro record (schemaFormat application/vnd.apache.avro…).
  if (Array.isArray(schema.fields))
    schema.fields.forEach(
      (field) => isObject(field) && typeof field.name === 'string' && add(field.name, field.doc === undefined ? field : { description: field.doc }),
    );
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const parts = schema[key];
    if (Array.isArray(parts)) parts.forEach((part) => schemaFields(document, part, depth + 1).forEach((field) => add(field.name, field)));
  }
  if (fields.size === 0 && schema.items !== undefined) schemaFields(document, schema.items, depth + 1).forEach((field) => add(field.name, field));
  return [...fields.values()];
}

/**
 * An operation's summary: its own, else its (one) message's summary or title, else, when nothing
 * describes it, what it does with that message, named in words: many documents say what an event
 * is only by naming its message (`UserSignedUp`), and an operation's direction is only its verb.
 */
export function operationSummary(entry: AsyncOperation): string {
  const own = cleanText(entry.operation.summary);
  if (own || entry.messages.length !== 1) return own;
  const { message, name } = entry.messages[0];
  const described = cleanText(message.summary) || cleanText(message.title);
  if (described || operationDescription(entry) || !name) return described;
  return SENT_BY_THE_API.has(entry.method) ? `Get notified when ${humanize(name)}` : `Send a ${humanize(name)} message`;
}

/** Verbs of operations whose messages the API sends, so that its users receive them: 2.x `subscribe`, 3.0 `send`. */
const SENT_BY_THE_API = new Set(['SUBSCRIBE', 'SEND']);

/** What the operation does: its description, else its channel's, else its (one) message's. */
export function operationDescription(entry: AsyncOperation): string {
  const single = entry.messages.length === 1 ? entry.messages[0].message.description : undefined;
  return cleanText(entry.operation.description) || cleanText(entry.channel.description) || cleanText(single);
}

export function tagNames(document: AsyncApiDocument, value: unknown): string[] {
  return tagList(document, value).map((tag) => tag.name);
}

export function tagList(document: AsyncApiDocument, value: unknown): { name: string; description?: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw) => {
    const tag = followRef(document, raw);
    if (typeof tag?.name !== 'string') return [];
    const description = cleanText(tag.description);
    return [{ name: tag.name, ...(description ? { description } : {}) }];
  });
}

/** The document's tags: top-level in 2.x, `info.tags` in 3.0. */
export function documentTags(document: AsyncApiDocument): { name: string; description?: string }[] {
  const info = isObject(document.info) ? document.info : {};
  return tagList(document, majorVersion(document) === 3 ? info.tags : document.tags);
}

export function operationTags(document: AsyncApiDocument, entry: AsyncOperation): string[] {
  return tagNames(document, entry.operation.tags);
}

/** Each server as a URL with its protocol (`mqtt://test.mosquitto.org:{port}`), its name in the description. */
export function serverInfos(document: AsyncApiDocument): ServerInfo[] {
  const servers = isObject(document.servers) ? document.servers : {};
  return Object.entries(servers).flatMap(([name, raw]) => {
    const server = followRef(document, raw);
    if (!server) return [];
    const url = serverUrl(server);
    if (!url) return [];
    const description = cleanText(server.description);
    const variables = serverVariables(document, server.variables);
    return [{ url, description: description ? `${name}: ${description}` : name, ...(variables ? { variables } : {}) }];
  });
}

function serverUrl(server: Json): string | undefined {
  const protocol = typeof server.protocol === 'string' && /^[a-z][a-z0-9+.-]*$/i.test(server.protocol) ? server.protocol.toLowerCase() : undefined;
  // 2.x: `url`; 3.0: `host` and `pathname`.
  const address =
    typeof server.url === 'string'
      ? server.url
      : typeof server.host === 'string'
        ? `${server.host}${typeof server.pathname === 'string' ? server.pathname : ''}`
        : undefined;
  if (!address) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(address) || !protocol) return address;
  return `${protocol}://${address}`;
}

function serverVariables(document: AsyncApiDocument, value: unknown): ServerInfo['variables'] {
  if (!isObject(value)) return undefined;
  const variables: NonNullable<ServerInfo['variables']> = {};
  for (const [name, raw] of Object.entries(value)) {
    const variable = followRef(document, raw);
    if (!variable) continue;
    const choices = Array.isArray(variable.enum) ? variable.enum.map(String) : undefined;
    const description = cleanText(variable.description);
    variables[name] = {
      default: variable.default !== undefined ? String(variable.default) : (choices?.[0] ?? ''),
      ...(choices ? { enum: choices } : {}),
      ...(description ? { description } : {}),
    };
  }
  return Object.keys(variables).length ? variables : undefined;
}

/** A server URL with its variables at their defaults, as the model lists it: `mqtt://test.mosquitto.org:1883`. */
export function concreteUrl(server: ServerInfo): string {
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => server.variables?.[name]?.default || whole);
}

/** The schemes `components.securitySchemes` declares, then those written inline (3.0) in servers and operations. */
export function securitySchemeInfos(document: AsyncApiDocument, operations: AsyncOperation[]): SecuritySchemeInfo[] {
  const schemes = new Map<string, SecuritySchemeInfo>();
  const components = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  for (const [name, raw] of Object.entries(components)) {
    const scheme = followRef(document, raw);
    if (scheme) schemes.set(name, schemeInfo(name, scheme));
  }
  if (majorVersion(document) === 3) {
    const lists = [...serverObjects(document).map((server) => server.security), ...operations.map((entry) => entry.operation.security)];
    for (const list of lists) {
      if (!Array.isArray(list)) continue;
      for (const raw of list) {
        const scheme = followRef(document, raw);
        if (!scheme || refName(raw)) continue;
        const name = inlineName(scheme);
        if (!schemes.has(name)) schemes.set(name, schemeInfo(name, scheme));
      }
    }
  }
  return [...schemes.values()];
}

function serverObjects(document: AsyncApiDocument): Json[] {
  const servers = isObject(document.servers) ? document.servers : {};
  return Object.values(servers).flatMap((raw) => {
    const server = followRef(document, raw);
    return server ? [server] : [];
  });
}

/** A scheme written inline (3.0) is known by its type. */
function inlineName(scheme: Json): string {
  return typeof scheme.type === 'string' ? scheme.type : 'inline';
}

/** What a scheme declares (names, places, URLs, scopes): never a credential. */
function schemeInfo(name: string, scheme: Json): SecuritySchemeInfo {
  const description = cleanText(scheme.description);
  const type = typeof scheme.type === 'string' ? scheme.type : 'unknown';
  const flows = oauthFlows(scheme.flows);
  return {
    name,
    type,
    ...(description ? { description } : {}),
    // apiKey: in `user` or `password`; httpApiKey: in `query`, `header` or `cookie`, named `name`.
    ...(typeof scheme.in === 'string' ? { in: scheme.in } : {}),
    ...(type === 'httpApiKey' && typeof scheme.name === 'string' ? { parameterName: scheme.name } : {}),
    ...(typeof scheme.scheme === 'string' ? { scheme: scheme.scheme } : {}),
    ...(typeof scheme.bearerFormat === 'string' ? { bearerFormat: scheme.bearerFormat } : {}),
    ...(flows.length ? { flows } : {}),
    ...(typeof scheme.openIdConnectUrl === 'string' ? { openIdConnectUrl: scheme.openIdConnectUrl } : {}),
  };
}

function oauthFlows(value: unknown): OAuthFlowInfo[] {
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([flow, raw]) => {
    if (!isObject(raw)) return [];
    // 2.x `scopes`, 3.0 `availableScopes`.
    const scopes = isObject(raw.availableScopes) ? raw.availableScopes : isObject(raw.scopes) ? raw.scopes : {};
    return [
      {
        flow,
        ...(typeof raw.authorizationUrl === 'string' ? { authorizationUrl: raw.authorizationUrl } : {}),
        ...(typeof raw.tokenUrl === 'string' ? { tokenUrl: raw.tokenUrl } : {}),
        ...(typeof raw.refreshUrl === 'string' ? { refreshUrl: raw.refreshUrl } : {}),
        scopes: Object.entries(scopes).map(([scope, text]) => ({ name: scope, ...(typeof text === 'string' && text ? { description: cleanText(text) } : {}) })),
      },
    ];
  });
}

/**
 * Security requirements as a list of alternatives: 2.x writes requirement objects
 * (`{ apiKey: [] }`, as OpenAPI), 3.0 a list of schemes (`$ref`s or inline) any one of which lets
 * a caller in, each with the `scopes` it needs.
 */
export function requirements(document: AsyncApiDocument, value: unknown): SecurityRequirement[] {
  if (!Array.isArray(value)) return [];
  if (majorVersion(document) === 2) {
    return value.flatMap((requirement) =>
      isObject(requirement) ? [Object.entries(requirement).map(([scheme, scopes]) => ({ scheme, scopes: strings(scopes) }))] : [],
    );
  }
  return value.flatMap((raw) => {
    const scheme = followRef(document, raw);
    if (!scheme) return [];
    return [[{ scheme: refName(raw) ?? inlineName(scheme), scopes: strings(scheme.scopes) }]];
  });
}

/** What the servers require, alternatives de-duplicated: AsyncAPI has no document-wide security. */
export function serverRequirements(document: AsyncApiDocument, names?: string[]): SecurityRequirement[] {
  const servers = isObject(document.servers) ? document.servers : {};
  const seen = new Map<string, SecurityRequirement>();
  for (const [name, raw] of Object.entries(servers)) {
    if (names && !names.includes(name)) continue;
    for (const requirement of requirements(document, followRef(document, raw)?.security)) seen.set(JSON.stringify(requirement), requirement);
  }
  return [...seen.values()];
}

/** An operation's security: its own, else its channel's servers' (3.0 `servers` are `$ref`s, 2.x names), else all servers'. */
export function operationRequirements(document: AsyncApiDocument, entry: AsyncOperation): SecurityRequirement[] {
  if (Array.isArray(entry.operation.security)) return requirements(document, entry.operation.security);
  const listed = entry.channel.servers;
  const names = Array.isArray(listed) ? listed.flatMap((server) => (typeof server === 'string' ? [server] : (refName(server) ?? []))) : undefined;
  return serverRequirements(document, names?.length ? names : undefined);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
