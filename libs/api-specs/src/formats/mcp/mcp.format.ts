import type {
  ApiEndpoint,
  ApiModel,
  ApiModelOperation,
  ApiOverview,
  JsonSchema,
  LintFinding,
  OperationDetail,
  OperationParameter,
  OperationSelector,
} from '#contracts';
import { headline } from '../../chunk-api.js';
import { cleanText, truncate } from '../../clean-text.js';
import { expandSchema, followRef, SchemaBudget } from '../shared/schema.js';
import { fieldNames } from '../shared/field-names.js';
import { isObject } from '../../is-object.js';
import { SpecError } from '../../spec-error.js';
import { SPEC_LIMITS } from '../../spec-limits.js';
import type { ReadSpec, SpecFileType, SpecFormat, SpecMarker } from '../spec-format.js';
import { described } from '../shared/text.js';
import { type SpecSource, structuredFileType } from '../spec-source.js';
import { mcpExample } from './call-example.js';
import { lintMcp } from './lint-mcp.js';

const FORMAT = 'MCP tools/list';
const VERB = 'TOOL';
/**
 * A tool's name: MCP asks for 1–128 of `A-Z a-z 0-9 _ - .`; servers in the wild also use `/`, `:`
 * or letters of other scripts, so any name is taken that has no spaces or control characters and
 * fits an index name (MODEL_LIMITS.nameChars).
 */
const NAME_CHARS = 200;
const TOOL_NAME = /^[^\s\p{C}]+$/u;
const URL_CHARS = 2000;
/** Field names an operation's `Returns` line lists. */
const MAX_RETURN_FIELDS = 40;

/**
 * An MCP server as plain data (it crosses threads by structured clone): what it says of itself,
 * and its tools as `tools/list` gave them (their schemas as written, `$ref`s unexpanded).
 */
export interface McpDocument {
  title?: string;
  version?: string;
  /** Its Streamable HTTP endpoint, when the description gives one. */
  url?: string;
  description?: string;
  tools: McpTool[];
}

export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  /** A JSON Schema with `"type": "object"`: its properties are the tool's arguments. */
  inputSchema: JsonSchema;
  /** A JSON Schema of the tool's `structuredContent`. */
  outputSchema?: JsonSchema;
  annotations?: McpAnnotations;
}

/** Hints a server gives about a tool (MCP 2025-03-26 and later): only hints, never guarantees. */
export interface McpAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * MCP servers, described by their tools: each tool is an operation `TOOL <name>`, its arguments
 * the top-level properties of its input schema. A description is a JSON (or YAML) object, one of:
 *
 * - the result of `tools/list`: `{"tools": [{name, title?, description?, inputSchema, outputSchema?, annotations?}], "nextCursor"?}`;
 * - that with the server's own facts beside `tools`: `{name, version, url?, description?, tools}`,
 *   or `{serverInfo: {name, version, title?}, url?, instructions?, tools}` as `initialize` names them
 *   (`instructions` are the description when there is no `description`);
 * - the whole JSON-RPC response to `tools/list`: `{"jsonrpc": "2.0", "id": …, "result": {"tools": […]}}`,
 *   the server's facts beside `result` or inside it.
 *
 * Tools carry no named schemas of their own: each tool's arguments are in its operation already
 * (and in its L2 chunk), so the model has none. A `$ref` inside a tool's schema points into that
 * schema (`#/$defs/Repo`, as pydantic and zod write them), which is its root when it is expanded.
 */
export class McpFormat implements SpecFormat<McpDocument> {
  readonly kind = 'mcp';
  readonly name = 'MCP server';
  readonly label = 'MCP tools/list (JSON)';
  readonly verbs = [VERB];
  readonly parts = { inputs: 'Arguments', body: 'Input', responses: 'Returns' };
  readonly fileExtensions = ['.json'];
  readonly signature = 'an MCP tools/list result (a "tools" list of tools with a name and an inputSchema)';
  readonly moduleUrl = import.meta.url;
  /** Any top-level `tools` list, fit or not (`detect` asks more of it): reading it says what is wrong with it. */
  readonly marker: SpecMarker = { in: (document) => Array.isArray(document.tools), text: /"tools"\s*:\s*\[/ };

  /**
   * An object with a `tools` list (or one under `result`) holding a tool: a string `name` and an
   * object `inputSchema`. A `tools` list is the least distinctive marker of all formats: this one is
   * asked last (SPEC_FORMAT_PLUGINS), and leaves OpenAPI and AsyncAPI documents alone whatever they hold.
   */
  detect(source: SpecSource): boolean {
    const document = source.object();
    if (!document || document.openapi !== undefined || document.swagger !== undefined || document.asyncapi !== undefined) return false;
    const tools = toolList(document);
    return Array.isArray(tools) && tools.some((tool) => isObject(tool) && typeof tool.name === 'string' && isObject(tool.inputSchema));
  }

  read(source: SpecSource): ReadSpec<McpDocument> {
    const document = source.parsed();
    if (!isObject(document)) throw new SpecError('An MCP server description is a JSON object: the result of tools/list, {"tools": […]}');
    const tools = toolList(document);
    if (tools === undefined && isObject(document.error)) throw new SpecError('The document is a JSON-RPC error response, not the result of tools/list');
    if (tools === undefined) throw new SpecError('The MCP server description has no "tools" list: give the result of tools/list, {"tools": […]}');
    if (!Array.isArray(tools)) throw new SpecError('"tools" must be a list of tools');
    if (tools.length === 0) throw new SpecError('The MCP server lists no tools');
    if (tools.length > SPEC_LIMITS.maxOperations) {
      throw new SpecError(`The MCP server lists ${tools.length} tools; the limit is ${SPEC_LIMITS.maxOperations}: split it into several APIs`);
    }
    const names = new Set<string>();
    const read = tools.map((tool, index) => {
      const checked = readTool(tool, index);
      if (names.has(checked.name)) throw new SpecError(`Two tools are named "${checked.name}": tool names must be unique`);
      names.add(checked.name);
      return checked;
    });
    return { kind: this.kind, format: FORMAT, document: { ...serverFacts(document), tools: read } };
  }

  model({ document }: ReadSpec<McpDocument>): ApiModel {
    return {
      kind: this.kind,
      format: FORMAT,
      ...(document.title ? { title: document.title } : {}),
      ...(document.version ? { version: document.version } : {}),
      ...described(document.description),
      servers: document.url ? [document.url] : [],
      securitySchemes: [],
      tags: [],
      operations: document.tools.map(modelOperation),
      schemas: [],
    };
  }

  overview({ document }: ReadSpec<McpDocument>): ApiOverview {
    return {
      kind: this.kind,
      format: FORMAT,
      ...described(document.description),
      servers: document.url ? [{ url: document.url }] : [],
      securitySchemes: [],
      security: [],
      operations: document.tools.map(endpoint),
    };
  }

  operation({ document }: ReadSpec<McpDocument>, selector: OperationSelector, maxChars: number): OperationDetail | undefined {
    const method = selector.method?.toUpperCase();
    const tool = document.tools.find((candidate) =>
      selector.operationId !== undefined ? candidate.name === selector.operationId : method === VERB && candidate.name === selector.path,
    );
    if (!tool) return undefined;
    const budget = new SchemaBudget(maxChars);
    const input = objectOf(tool.inputSchema);
    const required = new Set(Array.isArray(input.required) ? input.required : []);
    const parameters = Object.entries(isObject(input.properties) ? input.properties : {}).map(([name, property]): OperationParameter => {
      const schema = expandSchema(tool.inputSchema, property, budget);
      return {
        name,
        in: 'argument',
        required: required.has(name),
        ...described(followRef(tool.inputSchema, property)?.description),
        ...(schema ? { schema } : {}),
      };
    });
    const output = tool.outputSchema && expandSchema(tool.outputSchema, tool.outputSchema, budget);
    const { summary, ...listed } = endpoint(tool);
    return {
      ...listed,
      ...(summary ? { summary } : {}),
      ...described(tool.description),
      parameters,
      responses: tool.outputSchema
        ? [
            {
              status: 'result',
              description: "The tool's structuredContent",
              content: [{ mediaType: 'application/json', ...(output ? { schema: output } : {}) }],
            },
          ]
        : [],
      security: [],
      ...(budget.truncated ? { truncated: true } : {}),
    };
  }

  callExample(api: ApiOverview, operation: OperationDetail): string {
    return mcpExample(api, operation);
  }

  lint({ document }: ReadSpec<McpDocument>): LintFinding[] {
    return lintMcp(document);
  }

  /** JSON, or YAML if that is what was registered. */
  fileType(text: string): SpecFileType {
    return structuredFileType(text);
  }
}

/** The `tools` value of a tools/list result, or of a JSON-RPC response's `result`. */
function toolList(document: Record<string, unknown>): unknown {
  if (document.tools !== undefined) return document.tools;
  return isObject(document.result) ? document.result.tools : undefined;
}

/** Name, version, URL and description, wherever the accepted shapes put them (see McpFormat). */
function serverFacts(document: Record<string, unknown>): Omit<McpDocument, 'tools'> {
  const places = [document, ...(isObject(document.result) ? [document.result] : [])];
  const pick = (key: string): unknown => places.map((place) => place[key]).find((value) => value !== undefined);
  const info = places.map((place) => place.serverInfo).find(isObject) ?? {};
  const text = (value: unknown, what: string): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number') return String(value);
    if (typeof value !== 'string') throw new SpecError(`The server's ${what} must be a string`);
    return value.trim() || undefined;
  };
  const url = text(pick('url'), 'url');
  if (url !== undefined && (url.length > URL_CHARS || !/^https?:\/\/\S+$/i.test(url))) {
    throw new SpecError(`The server's url must be an http or https URL of at most ${URL_CHARS} characters, not "${truncate(url, 200)}"`);
  }
  const title = text(info.title ?? info.name ?? pick('name'), 'name');
  const version = text(info.version ?? pick('version'), 'version');
  const description = pick('description') ?? pick('instructions');
  return {
    ...(title ? { title: truncate(title, NAME_CHARS) } : {}),
    ...(version ? { version: truncate(version, NAME_CHARS) } : {}),
    ...(url ? { url } : {}),
    ...(typeof description === 'string' && description.trim() ? { description } : {}),
  };
}

/** One tool checked, as plain data of the keys this format reads. */
function readTool(tool: unknown, index: number): McpTool {
  if (!isObject(tool)) throw new SpecError(`tools[${index}] must be an object with a name and an inputSchema`);
  const { name } = tool;
  if (typeof name !== 'string' || !name) throw new SpecError(`tools[${index}] has no name: each tool needs a non-empty string "name"`);
  // Quoted as JSON: a control character in it is shown escaped.
  const at = `tools[${index}] (${JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name)})`;
  if (name.length > NAME_CHARS) throw new SpecError(`${at}: the name has ${name.length} characters; the limit is ${NAME_CHARS} (MCP asks for 128 at most)`);
  if (!TOOL_NAME.test(name)) throw new SpecError(`${at}: a tool name has no spaces or control characters (MCP names use A-Z, a-z, 0-9, _, - and .)`);
  if (!isObject(tool.inputSchema)) throw new SpecError(`${at} has no inputSchema: each tool needs a JSON Schema object for its arguments`);
  const input = objectOf(tool.inputSchema);
  if (input.type !== 'object') throw new SpecError(`${at}: its inputSchema must have "type": "object"`);
  if (input.properties !== undefined && !isObject(input.properties)) throw new SpecError(`${at}: its inputSchema's "properties" must be an object`);
  if (tool.outputSchema !== undefined && !isObject(tool.outputSchema)) throw new SpecError(`${at}: its outputSchema must be a JSON Schema object`);
  if (tool.annotations !== undefined && !isObject(tool.annotations)) throw new SpecError(`${at}: its annotations must be an object`);
  return {
    name,
    ...texts({ title: tool.title, description: tool.description }),
    inputSchema: tool.inputSchema,
    ...(isObject(tool.outputSchema) ? { outputSchema: tool.outputSchema } : {}),
    ...(isObject(tool.annotations) ? { annotations: readAnnotations(tool.annotations) } : {}),
  };
}

function readAnnotations(annotations: Record<string, unknown>): McpAnnotations {
  const hints = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
  return {
    ...texts({ title: annotations.title }),
    ...Object.fromEntries(hints.filter((hint) => typeof annotations[hint] === 'boolean').map((hint) => [hint, annotations[hint]])),
  };
}

/** The string values among `values` (others are ignored: they are only shown). */
function texts<K extends string>(values: Record<K, unknown>): Partial<Record<K, string>> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === 'string' && value.trim())) as Partial<Record<K, string>>;
}

/** A schema with a `$ref` at its top followed within itself (`{"$ref": "#/$defs/Args", "$defs": …}`). */
function objectOf(schema: JsonSchema): JsonSchema {
  return followRef(schema, schema) ?? schema;
}

function endpoint(tool: McpTool): ApiEndpoint {
  // Its title, else the first sentence of its description, as other kinds' operations are headlined.
  const summary = headline({ summary: cleanText(tool.title ?? tool.annotations?.title) || undefined, description: cleanText(tool.description) });
  return { method: VERB, path: tool.name, ...(summary ? { summary } : {}), operationId: tool.name, tags: hintTags(tool.annotations) };
}

/** `read-only` and `destructive` where a server says so: what an agent (or a person) filters tools by. */
function hintTags(annotations: McpAnnotations | undefined): string[] {
  return [
    ...(annotations?.readOnlyHint === true ? ['read-only'] : []),
    ...(annotations?.destructiveHint === true && annotations.readOnlyHint !== true ? ['destructive'] : []),
  ];
}

function modelOperation(tool: McpTool): ApiModelOperation {
  const { summary, ...listed } = endpoint(tool);
  const description = cleanText(tool.description);
  const input = objectOf(tool.inputSchema);
  const properties = isObject(input.properties) ? input.properties : {};
  const returned = tool.outputSchema ? returnLine(objectOf(tool.outputSchema)) : '';
  return {
    ...listed,
    name: tool.name,
    ...(summary ? { summary } : {}),
    // A one-sentence description is the summary already.
    ...(description && description !== summary ? { description } : {}),
    inputs: Object.entries(properties).map(([name, property]) => ({ name, in: 'argument', ...described(followRef(tool.inputSchema, property)?.description) })),
    ...(returned ? { outputs: { label: 'Returns', lines: [returned] } } : {}),
  };
}

/** `fields id, url, number…`, or the output schema's own title or description. */
function returnLine(schema: JsonSchema): string {
  const names = fieldNames(schema);
  if (names.length > 0) return `fields ${names.slice(0, MAX_RETURN_FIELDS).join(', ')}${names.length > MAX_RETURN_FIELDS ? ', …' : ''}`;
  return cleanText(schema.title) || cleanText(schema.description);
}

export default McpFormat;
