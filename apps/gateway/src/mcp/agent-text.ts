import { type ApiListResponse, type JsonSchema, type OperationParameter, SCHEMA_MARKERS, type SearchResponse, type SecurityRequirement, type SecuritySchemeInfo } from '#contracts';
import type { ApiView, OperationView } from './agent-tools.service.js';

/**
 * The tools' answers as short text for a model to read (`structuredContent` carries the full
 * data for programs): one line per item, schemas as compact type sketches, nothing repeated.
 */

const DESCRIPTION_CHARS = 160;
const FIELD_DESCRIPTION_CHARS = 80;
/** Levels of a schema sketched in full; deeper objects are named only (the detail's JSON has them). */
const SKETCH_DEPTH = 3;
const SKETCH_FIELDS = 25;

export function searchText(answer: SearchResponse & { orgId: string }, query: string): string {
  if (answer.results.length === 0) return `No API in org "${answer.orgId}" matches "${query}".`;
  const lines = [`${answer.results.length} of ${answer.totalFound} APIs in org "${answer.orgId}" for "${query}", best first:`];
  answer.results.forEach((card, index) => {
    const match = card.match ? ` — ${card.match} match (${card.relevanceScore.toFixed(2)})` : '';
    lines.push(`${index + 1}. ${card.apiName} ${card.version} [${card.kind}]${match} — apiId ${card.apiId}${card.teamName ? ` — team ${card.teamName}` : ''}`);
    if (card.description) lines.push(`   ${short(card.description, DESCRIPTION_CHARS)}`);
    for (const endpoint of card.endpoints) lines.push(`   ${endpoint.method} ${endpoint.path}${endpoint.summary ? ` — ${short(endpoint.summary, DESCRIPTION_CHARS)}` : ''}`);
  });
  if (answer.warnings?.length) lines.push(`Note: ${answer.warnings.join('; ')}`);
  lines.push('Call get_operation with an apiId, method and path for everything needed to call one.');
  return lines.join('\n');
}

export function apiText(view: ApiView, page: { from: number; to: number; page: number; pages: number }): string {
  const { record, overview } = view;
  const lines = [
    `${record.name} ${record.version} [${record.kind}${overview ? `, ${overview.format}` : ''}] — apiId ${record.apiId} — org ${record.orgId}${record.teamName ? ` — team ${record.teamName}` : ''}`,
    `Indexing: ${record.indexing?.status ?? 'unknown'}${record.indexing?.error ? ` (${record.indexing.error})` : ''}`,
  ];
  const description = record.description ?? overview?.description;
  if (description) lines.push(`Description: ${short(description, 500)}`);
  if (overview) {
    if (overview.servers.length) lines.push(`Servers: ${overview.servers.map((server) => server.url).join(', ')}`);
    if (overview.securitySchemes.length) lines.push(`Auth schemes: ${overview.securitySchemes.map(schemeText).join('; ')}`);
  }
  const total = view.operations.length;
  lines.push(total ? `Operations ${page.from}–${page.to} of ${total} (page ${page.page} of ${page.pages}):` : 'Operations: none');
  for (const op of view.operations.slice(page.from - 1, page.to)) {
    lines.push(`${op.method} ${op.path}${op.operationId ? ` (${op.operationId})` : ''}${op.summary ? ` — ${short(op.summary, DESCRIPTION_CHARS)}` : ''}${op.deprecated ? ' [deprecated]' : ''}`);
  }
  if (page.page < page.pages) lines.push(`More: get_api with page ${page.page + 1}.`);
  return lines.join('\n');
}

export function operationText({ api, overview, detail, example }: OperationView): string {
  const lines = [
    `${detail.method} ${detail.path}${detail.operationId ? ` (operationId ${detail.operationId})` : ''} — ${api.name} ${api.version} [${overview.kind}]${detail.deprecated ? ' [deprecated]' : ''}`,
  ];
  if (detail.summary) lines.push(detail.summary);
  if (detail.description && detail.description !== detail.summary) lines.push(short(detail.description, 600));
  if (overview.servers.length) lines.push(`Base URL: ${overview.servers.map((server) => server.url).join(' or ')}`);
  lines.push(`Auth: ${securityText(detail.security, overview.securitySchemes)}`);
  if (detail.parameters.length) {
    lines.push(overview.kind === 'graphql' ? 'Arguments:' : 'Parameters:');
    for (const parameter of detail.parameters) lines.push(`- ${parameterText(parameter)}`);
  }
  if (detail.requestBody) {
    for (const content of detail.requestBody.content) {
      lines.push(`Request body (${content.mediaType}${detail.requestBody.required ? ', required' : ''}): ${sketch(content.schema)}`);
    }
  }
  if (detail.responses.length) lines.push('Responses:');
  for (const response of detail.responses) {
    const schema = response.content[0]?.schema;
    // Success bodies in full; the others by status and description: a caller acts on those alone.
    const body = schema && /^(2|data|OK|reply)/i.test(response.status) ? `: ${sketch(schema)}` : '';
    lines.push(`- ${response.status}${response.description ? ` ${short(response.description, FIELD_DESCRIPTION_CHARS)}` : ''}${body}`);
  }
  if (detail.truncated) lines.push('Note: some schemas were cut at OPERATION_DETAIL_MAX_CHARS ("$truncated" in structuredContent); the full spec is the resource of this API.');
  if (example) lines.push(`Example: ${example}`);
  return lines.join('\n');
}

export function listText(list: ApiListResponse, page: number, pageSize: number): string {
  if (list.total === 0) return 'No APIs match.';
  const from = (page - 1) * pageSize + 1;
  const lines = [`APIs ${Math.min(from, list.total)}–${Math.min(from + list.items.length - 1, list.total)} of ${list.total}:`];
  for (const api of list.items) {
    lines.push(`- ${api.name} ${api.version} [${api.kind}] — apiId ${api.apiId} — org ${api.orgId}${api.teamName ? ` — team ${api.teamName}` : ''} — ${api.indexing?.status ?? 'status unknown'}`);
  }
  if (from + list.items.length - 1 < list.total) lines.push(`More: list_apis with page ${page + 1}.`);
  return lines.join('\n');
}

function schemeText(scheme: SecuritySchemeInfo): string {
  const how = scheme.type === 'apiKey' ? `apiKey in ${scheme.in} "${scheme.parameterName}"` : scheme.type === 'http' ? `http ${scheme.scheme ?? ''}`.trim() : scheme.type;
  const scopes = scheme.flows?.flatMap((flow) => flow.scopes.map((scope) => scope.name)) ?? [];
  return `${scheme.name} (${how}${scopes.length ? `; scopes: ${[...new Set(scopes)].slice(0, 30).join(', ')}` : ''})`;
}

function securityText(security: SecurityRequirement[], schemes: SecuritySchemeInfo[]): string {
  if (security.length === 0) return 'none declared';
  return security
    .map((requirement) =>
      requirement.length === 0
        ? 'none'
        : requirement
            .map(({ scheme: name, scopes }) => {
              const scheme = schemes.find((candidate) => candidate.name === name);
              const how = scheme ? schemeText(scheme).replace(/; scopes: .*\)$/, ')') : name;
              return `${how}${scopes.length ? ` with scopes ${scopes.join(', ')}` : ''}`;
            })
            .join(' and '),
    )
    .join(' or ');
}

function parameterText(parameter: OperationParameter): string {
  const flags = [parameter.in, parameter.required ? 'required' : '', parameter.deprecated ? 'deprecated' : ''].filter(Boolean).join(', ');
  return `${parameter.name} (${flags}): ${sketch(parameter.schema)}${parameter.description ? ` — ${short(parameter.description, FIELD_DESCRIPTION_CHARS)}` : ''}`;
}

/** A schema as a compact type: `{uris*: string[] — A JSON array of Spotify URIs; position: integer}` (`*` required). */
export function sketch(schema: JsonSchema | undefined, depth = 0): string {
  if (!schema) return 'any';
  if (SCHEMA_MARKERS.circular in schema) return `<circular ${String(schema[SCHEMA_MARKERS.circular])}>`;
  if (SCHEMA_MARKERS.truncated in schema) return '<cut: see the note>';
  if (Array.isArray(schema.enum)) return schema.enum.slice(0, 12).map((value) => JSON.stringify(value)).join('|') + (schema.enum.length > 12 ? '|…' : '');
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as JsonSchema[]).slice(0, 6).map((part) => sketch(part, depth)).join(' | ');
  }
  if (Array.isArray(schema.allOf)) return (schema.allOf as JsonSchema[]).map((part) => sketch(part, depth)).join(' & ');
  const type = Array.isArray(schema.type) ? schema.type.join('|') : (schema.type as string | undefined);
  if (type === 'array' || schema.items) return `${sketch(schema.items as JsonSchema | undefined, depth)}[]`;
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties && Object.keys(properties).length) {
    const name = typeof schema.title === 'string' ? schema.title : 'object';
    if (depth >= SKETCH_DEPTH) return name;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const entries = Object.entries(properties);
    const fields = entries.slice(0, SKETCH_FIELDS).map(([field, value]) => {
      const description = typeof value?.description === 'string' ? ` — ${short(value.description, FIELD_DESCRIPTION_CHARS)}` : '';
      return `${field}${required.has(field) ? '*' : ''}: ${sketch(value, depth + 1)}${description}`;
    });
    if (entries.length > SKETCH_FIELDS) fields.push(`…${entries.length - SKETCH_FIELDS} more`);
    return `{${fields.join('; ')}}`;
  }
  const format = typeof schema.format === 'string' ? `(${schema.format})` : '';
  return `${type ?? (typeof schema.title === 'string' ? schema.title : 'any')}${format}`;
}

function short(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
