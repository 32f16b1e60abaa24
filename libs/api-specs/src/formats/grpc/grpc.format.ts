import type {
  ApiEndpoint,
  ApiModel,
  ApiModelOperation,
  ApiModelSchema,
  ApiOverview,
  JsonSchema,
  LintFinding,
  OperationDetail,
  OperationSelector,
  SecurityRequirement,
  SecuritySchemeInfo,
} from '#contracts';
import { SCHEMA_MARKERS } from '#contracts';
import protobuf from 'protobufjs';
import { cleanText } from '../../clean-text.js';
import { containerSchema, MAX_SCHEMA_DEPTH, objectSchema, SchemaBudget } from '../shared/schema.js';
import { SpecError } from '../../spec-error.js';
import { SPEC_LIMITS } from '../../spec-limits.js';
import { perDocument, selected, selectorIndex } from '../shared/per-document.js';
import type { ReadSpec, SpecFileType, SpecFormat } from '../spec-format.js';
import { firstSentence } from '../shared/text.js';
import type { SpecSource } from '../spec-source.js';
import { exampleValue, quote } from '../shared/example-value.js';
import { lintProto } from './lint-proto.js';

const MEDIA_TYPE = 'application/grpc';
/** Messages, enums and services: Google's largest API files have a few hundred. */
const MAX_DEFINITIONS = 20_000;
/** Field names an operation's `Request` and `Returns` list. */
const MAX_LISTED_FIELDS = 40;
const OAUTH_SCHEME = 'oauth2';
/** A declaration only a .proto file starts a line with. */
const PROTO_DECLARATION = /^[ \t]*(?:syntax[ \t]*=[ \t]*["']proto[23]["']|edition[ \t]*=|package[ \t]+[\w.]+[ \t]*;|(?:message|service)[ \t]+\w+[ \t]*\{)/m;
const SYNTAX = /^[ \t]*(syntax|edition)[ \t]*=[ \t]*["']([^"']+)["']/m;
const SCALARS: Record<string, JsonSchema> = {
  double: { type: 'number' },
  float: { type: 'number' },
  int32: { type: 'integer', format: 'int32' },
  uint32: { type: 'integer', format: 'uint32' },
  sint32: { type: 'integer', format: 'int32' },
  fixed32: { type: 'integer', format: 'uint32' },
  sfixed32: { type: 'integer', format: 'int32' },
  int64: { type: 'integer', format: 'int64' },
  uint64: { type: 'integer', format: 'uint64' },
  sint64: { type: 'integer', format: 'int64' },
  fixed64: { type: 'integer', format: 'uint64' },
  sfixed64: { type: 'integer', format: 'int64' },
  bool: { type: 'boolean' },
  string: { type: 'string' },
  bytes: { type: 'string', format: 'byte' },
};
/** The imported types nearly every API uses, as their JSON mapping shows them. */
const WELL_KNOWN: Record<string, JsonSchema> = {
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
  'google.protobuf.Duration': { type: 'string' },
  'google.protobuf.FieldMask': { type: 'string' },
  'google.protobuf.Empty': { type: 'object' },
};

/**
 * A .proto file as plain data (it crosses threads by structured clone). Types are named relative
 * to the package (`Refund`, `Refund.Status`); a type the file imports keeps the name it was
 * written with (`google.protobuf.Timestamp`), as imports are never read.
 */
export interface ProtoDocument {
  services: ProtoService[];
  /** Messages and enums, each nested one after its parent. */
  types: ProtoType[];
}

export interface ProtoService {
  name: string;
  /** `payments.v1.PaymentService` */
  fullName: string;
  description?: string;
  deprecated?: true;
  /** `option (google.api.default_host)`. */
  host?: string;
  /** `option (google.api.oauth_scopes)`. */
  scopes: string[];
  methods: ProtoMethod[];
}

export interface ProtoMethod {
  name: string;
  description?: string;
  deprecated?: true;
  requestType: string;
  requestStream?: true;
  responseType: string;
  responseStream?: true;
}

export interface ProtoType {
  name: string;
  kind: 'message' | 'enum';
  description?: string;
  /** Message fields or enum values. */
  fields: ProtoField[];
}

export interface ProtoField {
  name: string;
  description?: string;
  /** A message field's type: a scalar (`int64`) or a type's name. */
  type?: string;
  repeated?: true;
  /** A map field's key type (`type` is its values'). */
  keyType?: string;
  required?: true;
}

interface RpcEntry {
  service: ProtoService;
  method: ProtoMethod;
}

/** Protocol Buffers files: each rpc of each service is an operation, each message and enum a schema. */
export class GrpcFormat implements SpecFormat<ProtoDocument> {
  readonly kind = 'grpc';
  readonly name = 'gRPC';
  readonly label = 'Protocol Buffers (gRPC)';
  readonly verbs = ['RPC'];
  readonly parts = { inputs: 'Parameters', body: 'Request', responses: 'Returns' };
  readonly fileExtensions = ['.proto'];
  readonly signature = 'a Protocol Buffers file (.proto with a service or message)';
  readonly moduleUrl = import.meta.url;

  /** Text with a line only a .proto file has (even if broken further on), that is not a JSON or YAML object. */
  detect(source: SpecSource): boolean {
    return typeof source.input === 'string' && PROTO_DECLARATION.test(source.text) && source.object() === undefined;
  }

  read(source: SpecSource): ReadSpec<ProtoDocument> {
    if (typeof source.input !== 'string') throw new SpecError('A .proto file is text, not a JSON object');
    const { root, package: packageName } = parseProto(source.text);
    const document = plainDocument(root, packageName);
    if (document.services.length === 0 && document.types.length === 0) throw new SpecError('The .proto file declares no services and no messages');
    const rpcs = rpcEntries(document).length;
    if (rpcs > SPEC_LIMITS.maxOperations) {
      throw new SpecError(`The .proto file has ${rpcs} rpcs; the limit is ${SPEC_LIMITS.maxOperations}: split it into several APIs`);
    }
    return { kind: this.kind, format: syntaxOf(source.text), document };
  }

  model(spec: ReadSpec<ProtoDocument>): ApiModel {
    const { document } = spec;
    const types = typeIndex(document);
    return {
      kind: this.kind,
      format: spec.format,
      ...description(document),
      servers: servers(document),
      securitySchemes: securitySchemes(document).map(({ name, type }) => ({ name, type })),
      tags: document.services.map(({ name, description }) => ({ name, ...(description ? { description } : {}) })),
      operations: rpcEntries(document).map((entry) => modelOperation(entry, types)),
      schemas: document.types.map(modelSchema),
    };
  }

  overview(spec: ReadSpec<ProtoDocument>): ApiOverview {
    const { document } = spec;
    return {
      kind: this.kind,
      format: spec.format,
      ...description(document),
      servers: servers(document).map((url) => ({ url })),
      securitySchemes: securitySchemes(document),
      // Each rpc says what its service requires.
      security: [],
      operations: rpcEntries(document).map(endpoint),
    };
  }

  operation({ document }: ReadSpec<ProtoDocument>, selector: OperationSelector, maxChars: number): OperationDetail | undefined {
    const entry = findRpc(document, selector);
    if (!entry) return undefined;
    const { service, method } = entry;
    const budget = new SchemaBudget(maxChars);
    const writer = new JsonSchemaWriter(typeIndex(document), budget);
    const request = writer.root(method.requestType);
    const response = writer.root(method.responseType);
    return {
      ...endpoint(entry),
      ...(method.description ? { description: method.description } : {}),
      parameters: [],
      requestBody: {
        required: true,
        ...(method.requestStream ? { description: 'A stream of requests (client streaming)' } : {}),
        content: [{ mediaType: MEDIA_TYPE, ...(request ? { schema: request } : {}) }],
      },
      responses: [
        {
          status: 'OK',
          ...(method.responseStream ? { description: 'A stream of responses (server streaming)' } : {}),
          content: [{ mediaType: MEDIA_TYPE, ...(response ? { schema: response } : {}) }],
        },
      ],
      security: requirements(service),
      ...(budget.truncated ? { truncated: true } : {}),
    };
  }

  fileType(): SpecFileType {
    return { extension: 'proto', mediaType: 'text/plain' };
  }

  /** A grpcurl command: the request message as JSON, to the service's default host (port 443) or a placeholder. */
  callExample(api: ApiOverview, operation: OperationDetail): string {
    const host = api.servers[0]?.url.replace(/^[a-z]+:\/\//, '').replace(/\/.*$/, '') ?? 'grpc.example.com';
    const request = exampleValue(operation.requestBody?.content[0]?.schema);
    return `grpcurl -H 'Authorization: Bearer $TOKEN' -d ${quote(JSON.stringify(request))} ${host.includes(':') ? host : `${host}:443`} ${operation.path}`;
  }

  lint({ document }: ReadSpec<ProtoDocument>): LintFinding[] {
    return lintProto(document);
  }
}

/**
 * Parses the text alone: protobufjs's `parse` only lists imports (`load` would read them), and
 * stops nesting past protoc's 32 levels.
 */
function parseProto(text: string): protobuf.IParserResult {
  try {
    return protobuf.parse(text, { keepCase: true, alternateCommentMode: true });
  } catch (error) {
    if (error instanceof RangeError || (error as Error)?.message === 'max depth exceeded') {
      throw new SpecError('The .proto file nests its definitions too deeply (protoc allows 32 levels)');
    }
    if (error instanceof Error) throw new SpecError(`The .proto file is not valid: ${error.message}`);
    throw error;
  }
}

/** `proto3`, `proto2` (what a file without `syntax` is), or `edition 2023`. */
function syntaxOf(text: string): string {
  const [, keyword, value] = SYNTAX.exec(text) ?? [];
  return keyword === 'edition' ? `edition ${value}` : (value ?? 'proto2');
}

/** Every service, message and enum, walked without recursion, with type references resolved by protobuf's scoping. */
function plainDocument(root: protobuf.Root, packageName: string | undefined): ProtoDocument {
  const document: ProtoDocument = { services: [], types: [] };
  const prefix = packageName ? `.${packageName}.` : '.';
  const nameOf = (object: protobuf.ReflectionObject) => (object.fullName.startsWith(prefix) ? object.fullName.slice(prefix.length) : object.fullName.slice(1));
  const typeName = (scope: protobuf.Namespace, type: string) => {
    if (Object.hasOwn(SCALARS, type)) return type;
    const found = scope.lookup(type, [protobuf.Type, protobuf.Enum]);
    return found ? nameOf(found) : type.replace(/^\./, '');
  };
  const pending: protobuf.ReflectionObject[] = [...root.nestedArray].reverse();
  while (pending.length > 0) {
    const object = pending.pop()!;
    if (object instanceof protobuf.Service) document.services.push(plainService(object, typeName));
    else if (object instanceof protobuf.Type) document.types.push(plainMessage(object, nameOf(object), typeName));
    else if (object instanceof protobuf.Enum) document.types.push(plainEnum(object, nameOf(object)));
    if (document.services.length + document.types.length > MAX_DEFINITIONS) {
      throw new SpecError(`The .proto file has more than ${MAX_DEFINITIONS} messages, enums and services`);
    }
    if (object instanceof protobuf.Namespace) pending.push(...[...object.nestedArray].reverse());
  }
  return document;
}

type TypeName = (scope: protobuf.Namespace, type: string) => string;

function plainService(service: protobuf.Service, typeName: TypeName): ProtoService {
  const host = service.options?.['(google.api.default_host)'];
  const scopes = service.options?.['(google.api.oauth_scopes)'];
  return {
    name: service.name,
    fullName: service.fullName.slice(1),
    ...commented(service.comment),
    ...deprecated(service.options),
    ...(typeof host === 'string' && host ? { host } : {}),
    scopes:
      typeof scopes === 'string'
        ? scopes
            .split(',')
            .map((scope) => scope.trim())
            .filter(Boolean)
        : [],
    methods: service.methodsArray.map((method) => ({
      name: method.name,
      ...commented(method.comment),
      ...deprecated(method.options),
      requestType: typeName(service, method.requestType),
      ...(method.requestStream ? { requestStream: true as const } : {}),
      responseType: typeName(service, method.responseType),
      ...(method.responseStream ? { responseStream: true as const } : {}),
    })),
  };
}

function plainMessage(type: protobuf.Type, name: string, typeName: TypeName): ProtoType {
  return {
    name,
    kind: 'message',
    ...commented(type.comment),
    fields: type.fieldsArray.map((field) => ({
      name: field.name,
      ...commented(field.comment),
      type: typeName(type, field.type),
      ...(field.repeated ? { repeated: true as const } : {}),
      ...(field instanceof protobuf.MapField ? { keyType: field.keyType } : {}),
      ...(field.required ? { required: true as const } : {}),
    })),
  };
}

function plainEnum(type: protobuf.Enum, name: string): ProtoType {
  return {
    name,
    kind: 'enum',
    ...commented(type.comment),
    fields: Object.keys(type.values).map((value) => ({ name: value, ...commented(type.comments[value]) })),
  };
}

function commented(comment: string | null | undefined): { description?: string } {
  const text = cleanText(comment);
  return text ? { description: text } : {};
}

function deprecated(options: Record<string, unknown> | undefined): { deprecated?: true } {
  return options?.deprecated === true ? { deprecated: true } : {};
}

const typeIndex = perDocument((document: ProtoDocument): Map<string, ProtoType> => new Map(document.types.map((type) => [type.name, type])));

const rpcEntries = perDocument((document: ProtoDocument): RpcEntry[] =>
  document.services.flatMap((service) => service.methods.map((method) => ({ service, method }))),
);

const rpcIndex = perDocument((document: ProtoDocument) => selectorIndex(rpcEntries(document), operationId, (entry) => `RPC ${rpcPath(entry)}`));

function findRpc(document: ProtoDocument, selector: OperationSelector): RpcEntry | undefined {
  return selected(rpcIndex(document), selector);
}

/** `payments.v1.PaymentService/Refund`, as gRPC addresses it. */
function rpcPath({ service, method }: RpcEntry): string {
  return `${service.fullName}/${method.name}`;
}

function operationId({ service, method }: RpcEntry): string {
  return `${service.name}.${method.name}`;
}

function endpoint(entry: RpcEntry): ApiEndpoint {
  const summary = firstSentence(entry.method.description);
  return {
    method: 'RPC',
    path: rpcPath(entry),
    ...(summary ? { summary } : {}),
    operationId: operationId(entry),
    tags: [entry.service.name],
    ...(entry.method.deprecated || entry.service.deprecated ? { deprecated: true } : {}),
  };
}

function modelOperation(entry: RpcEntry, types: Map<string, ProtoType>): ApiModelOperation {
  const { method } = entry;
  const { summary, ...listed } = endpoint(entry);
  const requestFields = types.get(method.requestType)?.fields.map((field) => field.name) ?? [];
  return {
    ...listed,
    name: method.name,
    ...(summary ? { summary } : {}),
    // A one-sentence description is the summary already.
    ...(method.description && method.description !== summary ? { description: method.description } : {}),
    inputs: [],
    ...(requestFields.length > 0 ? { body: { label: method.requestStream ? 'Request (client streaming)' : 'Request', fields: requestFields } } : {}),
    outputs: { label: 'Returns', lines: [`${method.responseStream ? 'stream of ' : ''}${typeLine(method.responseType, types)}`] },
  };
}

/** `ListRefundsResponse fields refunds, next_page_token`, `google.protobuf.Empty`. */
function typeLine(name: string, types: Map<string, ProtoType>): string {
  const fields = types.get(name)?.fields.map((field) => field.name) ?? [];
  if (fields.length === 0) return name;
  const more = fields.length > MAX_LISTED_FIELDS ? ', …' : '';
  return `${name} ${types.get(name)!.kind === 'enum' ? 'values' : 'fields'} ${fields.slice(0, MAX_LISTED_FIELDS).join(', ')}${more}`;
}

function modelSchema(type: ProtoType): ApiModelSchema {
  return {
    name: type.name,
    ...(type.description ? { description: type.description } : {}),
    fields: type.fields.map(({ name, description }) => ({ name, ...(description ? { description } : {}) })),
  };
}

/** A file has no description of its own: its services' say what it offers. */
function description(document: ProtoDocument): { description?: string } {
  const text = document.services.flatMap((service) => (service.description ? [service.description] : [])).join(' ');
  return text ? { description: text } : {};
}

function servers(document: ProtoDocument): string[] {
  return [...new Set(document.services.flatMap((service) => (service.host ? [`https://${service.host}`] : [])))];
}

function securitySchemes(document: ProtoDocument): SecuritySchemeInfo[] {
  const scopes = [...new Set(document.services.flatMap((service) => service.scopes))];
  if (scopes.length === 0) return [];
  return [{ name: OAUTH_SCHEME, type: 'oauth2', description: `OAuth 2.0 scopes (google.api.oauth_scopes): ${scopes.join(', ')}` }];
}

function requirements(service: ProtoService): SecurityRequirement[] {
  return service.scopes.length > 0 ? [[{ scheme: OAUTH_SCHEME, scopes: service.scopes }]] : [];
}

/**
 * Messages as JSON Schema, within one operation's budget (see SchemaBudget): a message met again
 * inside itself becomes `{ "$circular": "Message" }`.
 */
class JsonSchemaWriter {
  constructor(
    private readonly types: Map<string, ProtoType>,
    private readonly budget: SchemaBudget,
  ) {}

  /** A request's or response's message. */
  root(name: string): JsonSchema | undefined {
    return this.budget.root(() => this.schema(name, []));
  }

  /** `path`: the messages this one is inside; `extra`: a field's description, beside its type. */
  private schema(name: string, path: string[], extra: JsonSchema = {}): JsonSchema | undefined {
    const type = this.types.get(name);
    const leaf = (schema: JsonSchema) => this.budget.plain({ ...schema, ...extra });
    if (!type) return leaf(Object.hasOwn(SCALARS, name) ? SCALARS[name] : imported(name));
    if (type.kind === 'enum') return leaf({ type: 'string', title: name, enum: type.fields.map((value) => value.name) });
    if (path.includes(name)) return leaf({ [SCHEMA_MARKERS.circular]: name });
    if (path.length >= MAX_SCHEMA_DEPTH) return this.budget.cut(`the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
    const head = { title: type.name, ...(type.description ? { description: type.description } : {}) };
    const inner = [...path, name];
    return objectSchema(this.budget, {
      head,
      fields: type.fields,
      write: (field) => this.field(field, inner),
      isRequired: (field) => field.required === true,
      extra,
    });
  }

  /** A repeated field as an array of its type, a map field as an object of them (map keys are strings in JSON). */
  private field(field: ProtoField, path: string[]): JsonSchema | undefined {
    const extra = field.description ? { description: field.description } : {};
    if (field.keyType === undefined && !field.repeated) return this.schema(field.type!, path, extra);
    return containerSchema(this.budget, field.keyType === undefined ? 'items' : 'additionalProperties', () => this.schema(field.type!, path), extra);
  }
}

/** A type from a file this one imports: named, never fetched. */
function imported(name: string): JsonSchema {
  return { ...WELL_KNOWN[name], title: name, description: 'Defined in an imported file, which is not read' };
}

export default GrpcFormat;
