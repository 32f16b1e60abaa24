import {
  type ApiEndpoint,
  type ApiModel,
  type ApiModelOperation,
  type ApiModelSchema,
  type ApiOverview,
  type JsonSchema,
  type LintFinding,
  type OperationDetail,
  type OperationParameter,
  type OperationSelector,
  SCHEMA_MARKERS,
} from '#contracts';
import {
  buildASTSchema,
  type DocumentNode,
  type GraphQLArgument,
  GraphQLError,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  Lexer,
  parse,
  Source,
  TokenKind,
} from 'graphql';
import { containerSchema, MAX_SCHEMA_DEPTH, objectSchema, SchemaBudget } from '../shared/schema.js';
import { SpecError } from '../../spec-error.js';
import { SPEC_LIMITS } from '../../spec-limits.js';
import { perDocument, selected, selectorIndex } from '../shared/per-document.js';
import type { ReadSpec, SpecFileType, SpecFormat } from '../spec-format.js';
import { described, firstSentence } from '../shared/text.js';
import type { SpecSource } from '../spec-source.js';
import { graphqlExample } from './call-example.js';
import { lintGraphql } from './lint-graphql.js';

const FORMAT = 'GraphQL SDL';
/** What a GraphQL response is sent as (GraphQL over HTTP). */
const RESPONSE_MEDIA_TYPE = 'application/graphql-response+json';
/** Tokens read before giving up: GitHub's schema (1.2 MB) has about 61,000. */
const MAX_TOKENS = 2_000_000;
/** Brackets inside one another: SDL needs a handful, and graphql's parser recurses into each. */
const MAX_NESTING = 64;
/** Type, directive and schema definitions: GitHub's schema has about 1,600. */
const MAX_DEFINITIONS = 20_000;
/** Object types a return type is expanded through in an operation's detail: behind most types lies the whole graph. */
const OUTPUT_LEVELS = 2;
/** Field names an operation's `Returns` line lists. */
const MAX_RETURN_FIELDS = 40;
/** Words that open an SDL definition (after its description, if any). */
const SDL_KEYWORDS = new Set(['type', 'schema', 'extend', 'interface', 'enum', 'input', 'union', 'scalar', 'directive']);
const OPENING = new Set<TokenKind>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<TokenKind>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);
const SCALAR_SCHEMAS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
};

/**
 * A schema as plain data (it crosses threads by structured clone), read once: descriptions are
 * plain text, types are written as SDL writes them (`[Issue!]!`).
 */
export interface GraphqlDocument {
  description?: string;
  /** The types whose fields are the operations, in this order. */
  roots: { method: RootMethod; type: string }[];
  /** Every named type but GraphQL's own, root types included, in document order. */
  types: GraphqlType[];
}

type RootMethod = 'QUERY' | 'MUTATION' | 'SUBSCRIPTION';

export interface GraphqlType {
  name: string;
  kind: 'object' | 'interface' | 'input' | 'enum' | 'union' | 'scalar';
  description?: string;
  /** Fields, enum values or union members. */
  members: GraphqlMember[];
  /** The interfaces an object or interface type implements. */
  interfaces?: string[];
}

export interface GraphqlMember {
  name: string;
  description?: string;
  /** A field's type (not an enum value's or union member's). */
  type?: string;
  args?: GraphqlMember[];
  defaultValue?: unknown;
  deprecated?: true;
}

/** A field of a root type, with its type. */
interface RootOperation {
  method: RootMethod;
  field: GraphqlMember & { type: string };
}

/** GraphQL schemas in SDL: each root field is an operation, each other named type a schema. */
export class GraphqlFormat implements SpecFormat<GraphqlDocument> {
  readonly kind = 'graphql';
  readonly name = 'GraphQL';
  readonly label = 'GraphQL SDL';
  readonly verbs = ['QUERY', 'MUTATION', 'SUBSCRIPTION'];
  readonly parts = { inputs: 'Arguments', body: 'Input', responses: 'Returns' };
  readonly fileExtensions = ['.graphql', '.graphqls', '.gql'];
  readonly signature = 'a GraphQL schema (SDL type definitions)';
  readonly moduleUrl = import.meta.url;
  // GraphQL validates every query against the schema: an argument or input field it no longer has is an error.
  readonly changeRules = { strictInputs: true };

  /** Text whose first definition opens with an SDL keyword and a name (`type Query`), even if broken further on. */
  detect(source: SpecSource): boolean {
    return typeof source.input === 'string' && looksLikeSdl(source.text);
  }

  read(source: SpecSource): ReadSpec<GraphqlDocument> {
    if (typeof source.input !== 'string') throw new SpecError('A GraphQL schema is SDL text, not a JSON object');
    const document = plainDocument(buildSchema(parseSdl(source.text)));
    const operations = rootOperations(document).length;
    if (operations === 0) throw new SpecError('The GraphQL schema has no operations: it declares no fields on a Query, Mutation or Subscription type');
    if (operations > SPEC_LIMITS.maxOperations) {
      throw new SpecError(`The GraphQL schema has ${operations} operations; the limit is ${SPEC_LIMITS.maxOperations}: split it into several APIs`);
    }
    return { kind: this.kind, format: FORMAT, document };
  }

  model({ document }: ReadSpec<GraphqlDocument>): ApiModel {
    const types = typeIndex(document);
    const roots = new Set(document.roots.map((root) => root.type));
    return {
      kind: this.kind,
      format: FORMAT,
      ...described(document.description),
      servers: [],
      securitySchemes: [],
      tags: [],
      operations: rootOperations(document).map((operation) => modelOperation(operation, types)),
      schemas: document.types.filter((type) => !roots.has(type.name)).map(modelSchema),
    };
  }

  overview({ document }: ReadSpec<GraphqlDocument>): ApiOverview {
    return {
      kind: this.kind,
      format: FORMAT,
      ...described(document.description),
      servers: [],
      securitySchemes: [],
      security: [],
      operations: rootOperations(document).map(endpoint),
    };
  }

  operation({ document }: ReadSpec<GraphqlDocument>, selector: OperationSelector, maxChars: number): OperationDetail | undefined {
    const found = findOperation(document, selector);
    if (!found) return undefined;
    const { field } = found;
    const types = typeIndex(document);
    const budget = new SchemaBudget(maxChars);
    const writer = new JsonSchemaWriter(types, budget);
    const parameters = (field.args ?? []).map((arg): OperationParameter => {
      const schema = writer.input(arg);
      return {
        name: arg.name,
        in: 'argument',
        required: isRequired(arg),
        ...described(arg.description),
        ...(arg.deprecated ? { deprecated: true } : {}),
        ...(schema ? { schema } : {}),
      };
    });
    const output = writer.output(field.type);
    return {
      ...endpoint(found),
      // Without a description, the signature says most about what the field does.
      summary: firstSentence(field.description) || signature(field),
      ...described(field.description),
      parameters,
      responses: [
        {
          status: 'data',
          ...described(types.get(namedType(field.type))?.description),
          content: [{ mediaType: RESPONSE_MEDIA_TYPE, ...(output ? { schema: output } : {}) }],
        },
      ],
      security: [],
      ...(budget.truncated ? { truncated: true } : {}),
    };
  }

  callExample(api: ApiOverview, operation: OperationDetail): string {
    return graphqlExample(api, operation);
  }

  lint({ document }: ReadSpec<GraphqlDocument>): LintFinding[] {
    return lintGraphql(document);
  }

  /** SDL has no registered media type: served as text. */
  fileType(): SpecFileType {
    return { extension: 'graphql', mediaType: 'text/plain' };
  }
}

function looksLikeSdl(text: string): boolean {
  try {
    const lexer = new Lexer(new Source(text));
    let token = lexer.advance();
    if (token.kind === TokenKind.STRING || token.kind === TokenKind.BLOCK_STRING) token = lexer.advance();
    const next = lexer.advance();
    // `schema {` has no name; a YAML `type: object` has a colon where SDL has one.
    return (
      token.kind === TokenKind.NAME &&
      SDL_KEYWORDS.has(token.value) &&
      (next.kind === TokenKind.NAME || next.kind === TokenKind.BRACE_L || next.kind === TokenKind.AT)
    );
  } catch {
    return false;
  }
}

function parseSdl(text: string): DocumentNode {
  checkNesting(text);
  let document: DocumentNode;
  try {
    document = parse(text, { maxTokens: MAX_TOKENS });
  } catch (error) {
    throw invalid(error);
  }
  if (document.definitions.length > MAX_DEFINITIONS) {
    throw new SpecError(`The GraphQL schema has ${document.definitions.length} definitions; the limit is ${MAX_DEFINITIONS}`);
  }
  return document;
}

/** graphql's parser recurses into every bracket: deep nesting is refused before it can overflow the stack. */
function checkNesting(text: string): void {
  let depth = 0;
  try {
    const lexer = new Lexer(new Source(text));
    for (let token = lexer.advance(), count = 1; token.kind !== TokenKind.EOF; token = lexer.advance(), count++) {
      if (count > MAX_TOKENS) throw new SpecError(`The GraphQL schema has more than ${MAX_TOKENS.toLocaleString('en-US')} tokens`);
      if (CLOSING.has(token.kind)) depth--;
      else if (OPENING.has(token.kind) && ++depth > MAX_NESTING) {
        throw new SpecError(`The GraphQL schema is nested more than ${MAX_NESTING} levels deep (line ${token.line}, column ${token.column})`);
      }
    }
  } catch (error) {
    throw invalid(error);
  }
}

function buildSchema(document: DocumentNode): GraphQLSchema {
  try {
    // Not validated as strictly as a server would: real schemas (GitHub's) define a field twice here and there.
    return buildASTSchema(document, { assumeValidSDL: true });
  } catch (error) {
    throw invalid(error);
  }
}

/** A parser or schema error as the reason a publisher reads, with where it is. */
function invalid(error: unknown): SpecError {
  if (error instanceof SpecError) return error;
  if (error instanceof RangeError) return new SpecError('The GraphQL schema is nested too deeply');
  if (error instanceof GraphQLError) {
    const at = error.locations?.[0];
    return new SpecError(`The GraphQL schema is not valid: ${error.message.replace(/\.$/, '')}${at ? ` (line ${at.line}, column ${at.column})` : ''}`);
  }
  // buildASTSchema throws plain errors about the document: `Unknown type: "Foo".`
  if (error instanceof Error) return new SpecError(`The GraphQL schema is not valid: ${error.message.split('\n')[0].replace(/\.$/, '')}`);
  throw error;
}

/** The schema as plain data: `schema { query: … }` and `extend type` are already applied by graphql. */
function plainDocument(schema: GraphQLSchema): GraphqlDocument {
  const roots = [
    ['QUERY', schema.getQueryType()],
    ['MUTATION', schema.getMutationType()],
    ['SUBSCRIPTION', schema.getSubscriptionType()],
  ] as const;
  return {
    ...described(schema.description),
    roots: roots.flatMap(([method, type]) => (type ? [{ method, type: type.name }] : [])),
    types: Object.values(schema.getTypeMap())
      .filter((type) => !isIntrospectionType(type) && !isSpecifiedScalarType(type))
      .map(plainType),
  };
}

function plainType(type: GraphQLNamedType): GraphqlType {
  const head = { name: type.name, ...described(type.description) };
  if (isObjectType(type) || isInterfaceType(type)) {
    const interfaces = type.getInterfaces().map((implemented) => implemented.name);
    return {
      ...head,
      kind: isObjectType(type) ? 'object' : 'interface',
      members: Object.values(type.getFields()).map((field) => ({ ...plainValue(field), args: field.args.map(plainValue) })),
      ...(interfaces.length > 0 ? { interfaces } : {}),
    };
  }
  if (isInputObjectType(type)) return { ...head, kind: 'input', members: Object.values(type.getFields()).map(plainValue) };
  if (isEnumType(type)) return { ...head, kind: 'enum', members: type.getValues().map(plainMember) };
  if (isUnionType(type)) return { ...head, kind: 'union', members: type.getTypes().map((member) => ({ name: member.name })) };
  return { ...head, kind: 'scalar', members: [] };
}

/** A field, argument or input field: typed, perhaps with a default. */
function plainValue(value: GraphQLField<unknown, unknown> | GraphQLArgument | GraphQLInputField): GraphqlMember {
  const defaultValue = 'defaultValue' in value ? value.defaultValue : undefined;
  return { ...plainMember(value), type: String(value.type), ...(defaultValue !== undefined ? { defaultValue } : {}) };
}

function plainMember(member: { name: string; description?: string | null; deprecationReason?: string | null }): GraphqlMember {
  return { name: member.name, ...described(member.description), ...(member.deprecationReason != null ? { deprecated: true as const } : {}) };
}

const typeIndex = perDocument((document: GraphqlDocument): Map<string, GraphqlType> => new Map(document.types.map((type) => [type.name, type])));

/** Root fields in order: queries, mutations, subscriptions. */
const rootOperations = perDocument((document: GraphqlDocument): RootOperation[] => {
  const types = typeIndex(document);
  return document.roots.flatMap(({ method, type }) =>
    (types.get(type)?.members ?? []).map((field) => ({ method, field: { ...field, type: field.type ?? '' } })),
  );
});

const operationIndex = perDocument((document: GraphqlDocument) =>
  selectorIndex(
    rootOperations(document),
    ({ field }) => field.name,
    ({ method, field }) => `${method} ${field.name}`,
  ),
);

function findOperation(document: GraphqlDocument, selector: OperationSelector): RootOperation | undefined {
  return selected(operationIndex(document), selector);
}

function endpoint({ method, field }: RootOperation): ApiEndpoint {
  const summary = firstSentence(field.description);
  return {
    method,
    path: field.name,
    ...(summary ? { summary } : {}),
    operationId: field.name,
    tags: [],
    ...(field.deprecated ? { deprecated: true } : {}),
  };
}

function modelOperation(operation: RootOperation, types: Map<string, GraphqlType>): ApiModelOperation {
  const { field } = operation;
  const { summary, ...listed } = endpoint(operation);
  const args = field.args ?? [];
  const input = args.find((arg) => arg.name === 'input');
  const inputType = input && types.get(namedType(input.type!));
  return {
    ...listed,
    name: field.name,
    ...(summary ? { summary } : {}),
    // A one-sentence description is the summary already.
    ...(field.description && field.description !== summary ? { description: field.description } : {}),
    inputs: args.map((arg) => ({ name: arg.name, in: 'argument', ...described(arg.description) })),
    // Mutations in the Relay style (GitHub's) take everything in one `input` object.
    ...(inputType?.kind === 'input' ? { body: { label: 'Input', fields: inputType.members.map((member) => member.name) } } : {}),
    outputs: { label: 'Returns', lines: [returnLine(field.type, types)] },
  };
}

/** `PullRequest fields id, title…`, `SearchResultItem one of Issue, PullRequest`, `String`. */
function returnLine(type: string, types: Map<string, GraphqlType>): string {
  const name = namedType(type);
  const named = types.get(name);
  const names = named?.members.map((member) => member.name) ?? [];
  if (names.length === 0) return name;
  const word = named!.kind === 'enum' ? 'values' : named!.kind === 'union' ? 'one of' : 'fields';
  const more = names.length > MAX_RETURN_FIELDS ? ', …' : '';
  return `${name} ${word} ${names.slice(0, MAX_RETURN_FIELDS).join(', ')}${more}`;
}

function modelSchema(type: GraphqlType): ApiModelSchema {
  return {
    name: type.name,
    ...described(type.description),
    fields: type.members.map(({ name, description }) => ({ name, ...described(description) })),
  };
}

/** `closePullRequest(input: ClosePullRequestInput!): ClosePullRequestPayload` */
function signature(field: RootOperation['field']): string {
  const args = (field.args ?? []).map((arg) => `${arg.name}: ${arg.type}`).join(', ');
  return `${field.name}${args ? `(${args})` : ''}: ${field.type}`;
}

/** `[Issue!]!` → `Issue` */
function namedType(type: string): string {
  return type.replace(/[[\]!]/g, '');
}

/** A caller must give it: non-null, and no default to fall back on. */
function isRequired(value: GraphqlMember): boolean {
  return value.type!.endsWith('!') && value.defaultValue === undefined;
}

function defaulted(value: unknown): { default?: unknown } {
  return value === undefined ? {} : { default: value };
}

/**
 * GraphQL types as JSON Schema, within one operation's budget (see SchemaBudget): a type met
 * again inside itself becomes `{ "$circular": "Type" }`.
 */
class JsonSchemaWriter {
  constructor(
    private readonly types: Map<string, GraphqlType>,
    private readonly budget: SchemaBudget,
  ) {}

  /** An argument's type in full: input types only repeat through themselves, which `$circular` cuts. */
  input(arg: GraphqlMember): JsonSchema | undefined {
    return this.budget.root(() => this.schema(arg.type!, [], MAX_SCHEMA_DEPTH, defaulted(arg.defaultValue)));
  }

  /** A return type, its object types expanded OUTPUT_LEVELS deep and only named past that. */
  output(type: string): JsonSchema | undefined {
    return this.budget.root(() => this.schema(type, [], OUTPUT_LEVELS));
  }

  /**
   * `type` as SDL writes it; `path`: the types this one is inside; `levels`: how many may be
   * expanded; `extra`: what a field says of itself (description, default), beside its type.
   */
  private schema(type: string, path: string[], levels: number, extra: JsonSchema = {}): JsonSchema | undefined {
    const nullable = type.endsWith('!') ? type.slice(0, -1) : type;
    if (!nullable.startsWith('[')) return this.named(nullable, path, levels, extra);
    return containerSchema(this.budget, 'items', () => this.schema(nullable.slice(1, -1), path, levels), extra);
  }

  private named(name: string, path: string[], levels: number, extra: JsonSchema = {}): JsonSchema | undefined {
    const type = this.types.get(name);
    const leaf = (schema: JsonSchema) => this.budget.plain({ ...schema, ...extra });
    if (!type) return leaf(SCALAR_SCHEMAS[name] ?? { title: name });
    if (type.kind === 'scalar') return leaf({ title: name, ...described(type.description) });
    if (type.kind === 'enum') return leaf({ type: 'string', title: name, enum: type.members.map((value) => value.name) });
    if (path.includes(name)) return leaf({ [SCHEMA_MARKERS.circular]: name });
    if (path.length >= MAX_SCHEMA_DEPTH) return this.budget.cut(`the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
    if (path.length >= levels) return leaf({ type: 'object', title: name });
    const inner = [...path, name];
    const head = { title: name, ...described(type.description) };
    if (type.kind !== 'union') {
      const write = (field: GraphqlMember) => this.schema(field.type!, inner, levels, { ...described(field.description), ...defaulted(field.defaultValue) });
      return objectSchema(this.budget, { head, fields: type.members, write, isRequired, extra });
    }
    return this.budget.object((fields) => {
      fields.values(head);
      fields.list('oneOf', type.members, (member) => this.named(member.name, inner, levels));
      fields.values(extra);
    });
  }
}

export default GraphqlFormat;
