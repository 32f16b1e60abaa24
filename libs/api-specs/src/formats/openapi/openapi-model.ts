import type { ApiModel, ApiModelOperation, ApiModelSchema } from '#contracts';
import { cleanText, truncate } from '../../clean-text.js';
import { fieldNames } from '../shared/field-names.js';
import { isObject } from '../../is-object.js';
import type { LoadedSpec } from './dereference.js';
import { operationEntries, operationTags } from './operations.js';

type Json = Record<string, unknown>;

const MAX_FIELDS = 40;
const MAX_RESPONSES = 8;
const MAX_SERVERS = 5;

/** A dereferenced OpenAPI document in the format-neutral model. */
export function openApiModel(spec: LoadedSpec): ApiModel {
  const doc = spec.document;
  const info = isObject(doc.info) ? doc.info : {};
  const description = cleanText(info.description);
  return {
    kind: 'openapi',
    format: spec.flavor === 'swagger-2.0' ? 'Swagger 2.0' : `OpenAPI ${String(doc.openapi)}`,
    ...(typeof info.title === 'string' ? { title: info.title } : {}),
    ...(typeof info.version === 'string' ? { version: info.version } : {}),
    ...(description ? { description } : {}),
    servers: servers(spec),
    securitySchemes: securitySchemes(spec),
    tags: tags(doc.tags),
    operations: operationEntries(doc).map(({ method, path, operation, sharedParameters }) => modelOperation(spec, method, path, operation, sharedParameters)),
    schemas: schemas(spec),
  };
}

function modelOperation(spec: LoadedSpec, method: string, path: string, op: Json, sharedParameters: unknown[]): ApiModelOperation {
  const parameters = mergeParameters(sharedParameters, Array.isArray(op.parameters) ? op.parameters : []);
  const summary = cleanText(op.summary);
  const description = cleanText(op.description);
  const bodyFields = requestFields(spec, op, parameters);
  const responses = responseLines(spec, op);
  return {
    method,
    path,
    ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
    ...(summary ? { summary } : {}),
    ...(description ? { description } : {}),
    tags: operationTags(op),
    ...(op.deprecated === true ? { deprecated: true } : {}),
    inputs: parameters
      .filter((p) => p.in !== 'body')
      .map(({ name, in: location, description }) => ({ name, in: location, ...(description ? { description } : {}) })),
    ...(bodyFields.length ? { body: { label: 'Request body', fields: bodyFields } } : {}),
    ...(responses.length ? { outputs: { label: 'Responses', lines: responses } } : {}),
  };
}

function schemas(spec: LoadedSpec): ApiModelSchema[] {
  const doc = spec.document;
  const named = spec.flavor === 'swagger-2.0' ? doc.definitions : isObject(doc.components) ? doc.components.schemas : undefined;
  if (!isObject(named)) return [];
  return Object.entries(named).flatMap(([name, schema]) => {
    if (!isObject(schema)) return [];
    const properties = isObject(schema.properties) ? schema.properties : {};
    const description = cleanText(schema.description);
    const fields = fieldNames(schema).map((field) => {
      const property = properties[field];
      const text = isObject(property) ? cleanText(property.description) : '';
      return { name: field, ...(text ? { description: text } : {}) };
    });
    return [{ name, ...(description ? { description } : {}), fields }];
  });
}

interface Parameter {
  name: string;
  in: string;
  description: string;
  schema?: unknown;
}

function mergeParameters(shared: unknown[], own: unknown[]): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...shared, ...own]) {
    if (!isObject(raw) || typeof raw.name !== 'string') continue;
    const param = { name: raw.name, in: String(raw.in ?? ''), description: cleanText(raw.description), schema: raw.schema };
    byKey.set(`${param.in}:${param.name}`, param);
  }
  return [...byKey.values()];
}

function requestFields(spec: LoadedSpec, op: Json, parameters: Parameter[]): string[] {
  if (spec.flavor === 'swagger-2.0') {
    const body = parameters.find((p) => p.in === 'body');
    const formFields = parameters.filter((p) => p.in === 'formData').map((p) => p.name);
    return [...(body ? fieldNames(body.schema) : []), ...formFields].slice(0, MAX_FIELDS);
  }
  const requestBody = isObject(op.requestBody) ? op.requestBody : undefined;
  return fieldNames(firstContentSchema(requestBody?.content)).slice(0, MAX_FIELDS);
}

/** `200 The pet fields id, name`: status, description, and a success's top-level fields. */
function responseLines(spec: LoadedSpec, op: Json): string[] {
  if (!isObject(op.responses)) return [];
  return Object.entries(op.responses)
    .filter(([, response]) => isObject(response))
    .slice(0, MAX_RESPONSES)
    .map(([code, raw]) => {
      const response = raw as Json;
      const description = truncate(cleanText(response.description), 100);
      const schema = spec.flavor === 'swagger-2.0' ? response.schema : firstContentSchema(response.content);
      const fields = code.startsWith('2') ? fieldNames(schema).slice(0, MAX_FIELDS) : [];
      return [code, description, fields.length ? `fields ${fields.join(', ')}` : ''].filter(Boolean).join(' ');
    });
}

function firstContentSchema(content: unknown): unknown {
  if (!isObject(content)) return undefined;
  const json = Object.entries(content).find(([type]) => /json/i.test(type)) ?? Object.entries(content)[0];
  return json && isObject(json[1]) ? json[1].schema : undefined;
}

function tags(raw: unknown): ApiModel['tags'] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((tag) => {
    if (!isObject(tag) || typeof tag.name !== 'string') return [];
    const description = cleanText(tag.description);
    return [{ name: tag.name, ...(description ? { description } : {}) }];
  });
}

function servers(spec: LoadedSpec): string[] {
  const doc = spec.document;
  if (spec.flavor === 'swagger-2.0') {
    return typeof doc.host === 'string' ? [`${doc.host}${typeof doc.basePath === 'string' ? doc.basePath : ''}`] : [];
  }
  return Array.isArray(doc.servers) ? doc.servers.flatMap((s) => (isObject(s) && typeof s.url === 'string' ? [s.url] : [])).slice(0, MAX_SERVERS) : [];
}

function securitySchemes(spec: LoadedSpec): ApiModel['securitySchemes'] {
  const doc = spec.document;
  const schemes = spec.flavor === 'swagger-2.0' ? doc.securityDefinitions : isObject(doc.components) ? doc.components.securitySchemes : undefined;
  if (!isObject(schemes)) return [];
  return Object.entries(schemes).map(([name, scheme]) => (isObject(scheme) && scheme.type ? { name, type: String(scheme.type) } : { name }));
}
