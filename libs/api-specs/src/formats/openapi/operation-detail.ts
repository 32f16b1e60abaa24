import {
  type ApiOverview,
  type MediaTypeSchema,
  type OAuthFlowInfo,
  type OperationDetail,
  type OperationParameter,
  type OperationRequestBody,
  type OperationResponse,
  type OperationSelector,
  PARAMETER_LOCATIONS,
  type ParameterLocation,
  type SecurityRequirement,
  type SecuritySchemeInfo,
  type ServerInfo,
} from '#contracts';
import { cleanText } from '../../clean-text.js';
import { expandSchema, followRef, SchemaBudget } from '../shared/schema.js';
import { isObject } from '../../is-object.js';
import { perDocument, selected, selectorIndex } from '../shared/per-document.js';
import { listOperations, type OperationEntry, operationEntries, operationTags } from './operations.js';
import type { SpecDocument, SpecFlavor } from './read-openapi.js';

type Json = Record<string, unknown>;

/** What Swagger 2.0 assumes when neither the operation nor the spec says (`consumes`, `produces`). */
const DEFAULT_MEDIA_TYPES = ['application/json'];
const FORM_MEDIA_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];
/** The keys of a Swagger 2.0 parameter that are its schema (the rest say where it goes). */
const NOT_SCHEMA_KEYS = new Set(['name', 'in', 'required', 'description', 'allowEmptyValue', 'collectionFormat']);
const SWAGGER_OAUTH_FLOWS: Record<string, string> = { accessCode: 'authorizationCode', application: 'clientCredentials' };

/** The API at a glance: description, servers, security schemes, and its operations without schemas. */
export function apiOverview(document: SpecDocument, flavor: SpecFlavor): Omit<ApiOverview, 'kind' | 'format'> {
  const info = isObject(document.info) ? document.info : {};
  const description = cleanText(info.description);
  return {
    ...(description ? { description } : {}),
    servers: servers(document, flavor),
    securitySchemes: securitySchemes(document, flavor),
    security: securityRequirements(document.security),
    operations: listOperations(document),
  };
}

/** The operation a selector names: by `operationId`, or by method (any case) and path. */
export function findOperation(document: SpecDocument, selector: OperationSelector): OperationEntry | undefined {
  return selected(operationIndex(document), selector);
}

const operationIndex = perDocument((document: SpecDocument) =>
  selectorIndex(
    operationEntries(document),
    (entry) => (typeof entry.operation.operationId === 'string' ? entry.operation.operationId : undefined),
    (entry) => `${entry.method} ${entry.path}`,
  ),
);

/** One operation in full, its schemas expanded within `maxChars` (see `expandSchema`). */
export function operationDetail(document: SpecDocument, flavor: SpecFlavor, entry: OperationEntry, maxChars: number): OperationDetail {
  const { operation } = entry;
  const budget = new SchemaBudget(maxChars);
  const schemaOf = (schema: unknown) => {
    const expanded = schema === undefined ? undefined : expandSchema(document, schema, budget);
    return expanded ? { schema: expanded } : {};
  };
  const declared = mergedParameters(document, entry);
  const parameters = declared.flatMap((parameter) => {
    const location = parameter.in as ParameterLocation;
    if (!PARAMETER_LOCATIONS.includes(location) || typeof parameter.name !== 'string') return [];
    const description = cleanText(parameter.description);
    return [
      {
        name: parameter.name,
        in: location,
        required: parameter.required === true || location === 'path',
        ...(description ? { description } : {}),
        ...(parameter.deprecated === true ? { deprecated: true } : {}),
        ...schemaOf(parameterSchema(parameter, flavor)),
      } satisfies OperationParameter,
    ];
  });
  const requestBody =
    flavor === 'swagger-2.0' ? swaggerRequestBody(document, entry, declared, schemaOf) : openApiRequestBody(document, operation.requestBody, schemaOf);
  const produces = mediaTypes(operation.produces ?? document.produces);
  const responses = Object.entries(isObject(operation.responses) ? operation.responses : {}).flatMap(([status, raw]) => {
    const response = followRef(document, raw);
    if (!response) return [];
    const description = cleanText(response.description);
    const content: MediaTypeSchema[] =
      flavor === 'swagger-2.0'
        ? response.schema === undefined
          ? []
          : produces.map((mediaType) => ({ mediaType, ...schemaOf(response.schema) }))
        : mediaContent(response.content, schemaOf);
    return [{ status, ...(description ? { description } : {}), content } satisfies OperationResponse];
  });
  const summary = cleanText(operation.summary);
  const description = cleanText(operation.description);
  return {
    method: entry.method,
    path: entry.path,
    ...(typeof operation.operationId === 'string' ? { operationId: operation.operationId } : {}),
    ...(summary ? { summary } : {}),
    ...(description ? { description } : {}),
    tags: operationTags(operation),
    ...(operation.deprecated === true ? { deprecated: true } : {}),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
    // An operation's own `security` (even an empty one) replaces the API's.
    security: securityRequirements(operation.security ?? document.security),
    ...(budget.truncated ? { truncated: true } : {}),
  };
}

type SchemaOf = (schema: unknown) => { schema?: MediaTypeSchema['schema'] };

/** Path-level parameters, then the operation's; the operation's own win on the same name and location. */
function mergedParameters(document: SpecDocument, { operation, sharedParameters }: OperationEntry): Json[] {
  const own = Array.isArray(operation.parameters) ? operation.parameters : [];
  const byKey = new Map<string, Json>();
  for (const raw of [...sharedParameters, ...own]) {
    const parameter = followRef(document, raw);
    if (parameter) byKey.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
  }
  return [...byKey.values()];
}

/** OpenAPI 3 has a `schema` (or one media type's); a Swagger 2.0 parameter is its own schema. */
function parameterSchema(parameter: Json, flavor: SpecFlavor): unknown {
  if (flavor !== 'swagger-2.0') {
    if (parameter.schema !== undefined) return parameter.schema;
    const [media] = Object.values(isObject(parameter.content) ? parameter.content : {});
    return isObject(media) ? media.schema : undefined;
  }
  const schema = Object.fromEntries(Object.entries(parameter).filter(([key]) => !NOT_SCHEMA_KEYS.has(key) && !key.startsWith('x-')));
  return Object.keys(schema).length ? schema : undefined;
}

function openApiRequestBody(document: SpecDocument, raw: unknown, schemaOf: SchemaOf): OperationRequestBody | undefined {
  const body = followRef(document, raw);
  if (!body) return undefined;
  const description = cleanText(body.description);
  return { required: body.required === true, ...(description ? { description } : {}), content: mediaContent(body.content, schemaOf) };
}

/** Swagger 2.0: the `body` parameter, or the `formData` ones as one object, in each media type the operation consumes. */
function swaggerRequestBody(document: SpecDocument, { operation }: OperationEntry, parameters: Json[], schemaOf: SchemaOf): OperationRequestBody | undefined {
  const consumes = mediaTypes(operation.consumes ?? document.consumes);
  const body = parameters.find((parameter) => parameter.in === 'body');
  if (body) {
    const description = cleanText(body.description);
    return {
      required: body.required === true,
      ...(description ? { description } : {}),
      content: consumes.map((mediaType) => ({ mediaType, ...schemaOf(body.schema) })),
    };
  }
  const fields = parameters.filter((parameter) => parameter.in === 'formData' && typeof parameter.name === 'string');
  if (fields.length === 0) return undefined;
  const form = {
    type: 'object',
    properties: Object.fromEntries(
      fields.map((field) => [
        field.name,
        { ...(parameterSchema(field, 'swagger-2.0') as Json), ...(field.description ? { description: field.description } : {}) },
      ]),
    ),
    required: fields.filter((field) => field.required === true).map((field) => field.name),
  };
  const formTypes = consumes.filter((mediaType) => FORM_MEDIA_TYPES.includes(mediaType));
  const fallback = fields.some((field) => field.type === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
  return {
    required: fields.some((field) => field.required === true),
    content: (formTypes.length ? formTypes : [fallback]).map((mediaType) => ({ mediaType, ...schemaOf(form) })),
  };
}

function mediaContent(content: unknown, schemaOf: SchemaOf): MediaTypeSchema[] {
  return Object.entries(isObject(content) ? content : {}).map(([mediaType, media]) => ({ mediaType, ...schemaOf(isObject(media) ? media.schema : undefined) }));
}

function mediaTypes(value: unknown): string[] {
  const types = Array.isArray(value) ? value.filter((type): type is string => typeof type === 'string') : [];
  return types.length ? types : DEFAULT_MEDIA_TYPES;
}

/** OpenAPI 3 `servers`; for Swagger 2.0, one URL per scheme from `host` and `basePath` (scheme-relative when none is given). */
function servers(document: SpecDocument, flavor: SpecFlavor): ServerInfo[] {
  if (flavor === 'swagger-2.0') {
    const basePath = typeof document.basePath === 'string' ? document.basePath : '';
    if (typeof document.host !== 'string') return basePath ? [{ url: basePath }] : [];
    const schemes = Array.isArray(document.schemes) ? document.schemes.filter((scheme): scheme is string => typeof scheme === 'string') : [];
    return (schemes.length ? schemes.map((scheme) => `${scheme}:`) : ['']).map((scheme) => ({ url: `${scheme}//${document.host}${basePath}` }));
  }
  return (Array.isArray(document.servers) ? document.servers : []).flatMap((server) => {
    if (!isObject(server) || typeof server.url !== 'string') return [];
    const description = cleanText(server.description);
    const variables = Object.entries(isObject(server.variables) ? server.variables : {}).flatMap(([name, variable]) =>
      isObject(variable)
        ? [
            [
              name,
              {
                default: String(variable.default ?? ''),
                ...(Array.isArray(variable.enum) ? { enum: variable.enum.map(String) } : {}),
                ...(cleanText(variable.description) ? { description: cleanText(variable.description) } : {}),
              },
            ] as const,
          ]
        : [],
    );
    return [{ url: server.url, ...(description ? { description } : {}), ...(variables.length ? { variables: Object.fromEntries(variables) } : {}) }];
  });
}

/**
 * Each security scheme by the fields that say how to authenticate, and no others: a spec may
 * carry example keys or client secrets in extensions, which are never passed on.
 */
function securitySchemes(document: SpecDocument, flavor: SpecFlavor): SecuritySchemeInfo[] {
  const declared = flavor === 'swagger-2.0' ? document.securityDefinitions : isObject(document.components) ? document.components.securitySchemes : undefined;
  return Object.entries(isObject(declared) ? declared : {}).flatMap(([name, raw]) => {
    const scheme = followRef(document, raw);
    if (!scheme || typeof scheme.type !== 'string') return [];
    const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
    const basic = flavor === 'swagger-2.0' && scheme.type === 'basic';
    return [
      withoutUndefined<SecuritySchemeInfo>({
        name,
        type: basic ? 'http' : scheme.type,
        description: cleanText(scheme.description) || undefined,
        in: text(scheme.in),
        parameterName: scheme.type === 'apiKey' ? text(scheme.name) : undefined,
        scheme: basic ? 'basic' : text(scheme.scheme),
        bearerFormat: text(scheme.bearerFormat),
        flows: scheme.type === 'oauth2' ? oauthFlows(scheme, flavor) : undefined,
        openIdConnectUrl: text(scheme.openIdConnectUrl),
      }),
    ];
  });
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

function oauthFlows(scheme: Json, flavor: SpecFlavor): OAuthFlowInfo[] {
  const flows: [string, unknown][] =
    flavor === 'swagger-2.0'
      ? [[SWAGGER_OAUTH_FLOWS[String(scheme.flow)] ?? String(scheme.flow), scheme]]
      : Object.entries(isObject(scheme.flows) ? scheme.flows : {});
  return flows.flatMap(([flow, raw]) => {
    if (!isObject(raw)) return [];
    const url = (key: string) => (typeof raw[key] === 'string' ? { [key]: raw[key] as string } : {});
    const scopes = Object.entries(isObject(raw.scopes) ? raw.scopes : {}).map(([scope, description]) => ({
      name: scope,
      ...(cleanText(description) ? { description: cleanText(description) } : {}),
    }));
    return [{ flow, ...url('authorizationUrl'), ...url('tokenUrl'), ...url('refreshUrl'), scopes }];
  });
}

function securityRequirements(value: unknown): SecurityRequirement[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((requirement) =>
    Object.entries(requirement).map(([scheme, scopes]) => ({
      scheme,
      scopes: Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [],
    })),
  );
}
