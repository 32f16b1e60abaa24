import {
  type ApiListResponse,
  type ApiRecord,
  type ChangeReportResponse,
  type OperationParameter,
  SCHEMA_MARKERS,
  type SearchResponse,
  type SecurityRequirement,
  type SecuritySchemeInfo,
  type ServerInfo,
} from '#contracts';
import { isObject } from '#api-specs';
import { moveToFor } from '../registry/recommended-version.js';
import type { ApiView, OperationView, RatedResult } from './agent-tools.service.js';

/**
 * The tools' answers as short text for a model to read (`structuredContent` carries the full
 * data for programs): one line per item, schemas as compact type sketches, nothing repeated.
 */

const DESCRIPTION_CHARS = 160;
const FIELD_DESCRIPTION_CHARS = 80;
/** A path, channel or URL on one line; longer ones are cut (structuredContent has them whole). */
const ADDRESS_CHARS = 300;
const NAME_CHARS = 100;
/** Items of a list that the text names; the rest are counted. */
const LISTED = {
  versions: 10,
  changes: 40,
  servers: 3,
  schemes: 10,
  scopes: 20,
  parameters: 40,
  mediaTypes: 3,
  responses: 15,
  enum: 12,
  alternatives: 6,
} as const;
/** Levels of a schema sketched in full; deeper objects are named only (the detail's JSON has them). */
const SKETCH_DEPTH = 3;
const SKETCH_FIELDS = 25;

export function searchText(answer: SearchResponse & { orgId: string }, query: string): string {
  if (answer.results.length === 0) return `No API in org "${answer.orgId}" matches "${query}".`;
  const lines = [`${answer.results.length} of ${answer.totalFound} APIs in org "${answer.orgId}" for "${query}", best first:`];
  answer.results.forEach((card, index) => {
    const match = card.match ? ` — ${card.match} match (${card.relevanceScore.toFixed(2)})` : '';
    lines.push(`${index + 1}. ${card.apiName} ${card.version} [${card.kind}]${stageText(card)}${match} — apiId ${card.apiId}${teamText(card)}`);
    if (card.description) lines.push(`   ${short(card.description, DESCRIPTION_CHARS)}`);
    if (card.labels && Object.keys(card.labels).length) lines.push(`   ${labelsText(card.labels)}`);
    for (const endpoint of card.endpoints) lines.push(`   ${endpointText(endpoint)}${summaryText(endpoint.summary, DESCRIPTION_CHARS)}`);
  });
  if (answer.warnings?.length) lines.push(`Note: ${short(answer.warnings.join('; '), 1000)}`);
  lines.push('Call get_operation with an apiId, method and path for everything needed to call one.');
  if (answer.searchId) lines.push(`Once you have used one, tell rate_result (searchId ${answer.searchId}) whether it answered the need.`);
  return lines.join('\n');
}

/** `Recorded: POST /refunds of <apiId> did not answer "refund a card payment".` */
export function rateText(rated: RatedResult): string {
  const what = rated.operation ? `${rated.operation.method} ${short(rated.operation.path, ADDRESS_CHARS)} of API ${rated.apiId}` : `API ${rated.apiId}`;
  const need = rated.query !== undefined ? `"${short(rated.query, DESCRIPTION_CHARS)}"` : `the need of search ${rated.searchId}`;
  return `Recorded: ${what} ${rated.helpful ? 'answered' : 'did not answer'} ${need}.`;
}

export function apiText(view: ApiView, page: { from: number; to: number; page: number; pages: number }): string {
  const { record, overview } = view;
  const kind = `${record.kind}${overview ? `, ${overview.format}` : ''}`;
  const lines = [
    `${record.name} ${record.version} [${kind}] — apiId ${record.apiId} — org ${record.orgId}${teamText(record)}`,
    `Indexing: ${record.indexing?.status ?? 'unknown'}${record.indexing?.error ? ` (${record.indexing.error})` : ''}`,
    `Versions: ${listed(
      record.versions.map((version) => versionText(version, record)),
      LISTED.versions,
      '; ',
    )}`,
  ];
  const description = record.description ?? overview?.description;
  if (description) lines.push(`Description: ${short(description, 500)}`);
  if (record.labels && Object.keys(record.labels).length) lines.push(labelsText(record.labels));
  if (overview) {
    if (overview.servers.length) lines.push(`Servers: ${listed(overview.servers.map(serverText), LISTED.servers, ', ')}`);
    if (overview.securitySchemes.length) lines.push(`Auth schemes: ${listed(overview.securitySchemes.map(schemeText), LISTED.schemes, '; ')}`);
  }
  const total = view.operations.length;
  lines.push(total ? `Operations ${page.from}–${page.to} of ${total} (page ${page.page} of ${page.pages}):` : 'Operations: none');
  for (const op of view.operations.slice(page.from - 1, page.to)) {
    const operationId = op.operationId ? ` (${short(op.operationId, NAME_CHARS)})` : '';
    lines.push(`${endpointText(op)}${operationId}${summaryText(op.summary, DESCRIPTION_CHARS)}${op.deprecated ? ' [deprecated]' : ''}`);
  }
  if (page.page < page.pages) lines.push(`More: get_api with page ${page.page + 1}.`);
  return lines.join('\n');
}

/** One operation for a model to call it, each part headed as its kind names it (`Arguments:`, `Message (…)`, `Returns:`). */
export function operationText({ api, overview, detail, example, parts }: OperationView): string {
  const operationId = detail.operationId ? ` (operationId ${short(detail.operationId, NAME_CHARS)})` : '';
  const lines = [`${endpointText(detail)}${operationId} — ${api.name} ${api.version} [${overview.kind}]${detail.deprecated ? ' [deprecated]' : ''}`];
  if (detail.summary) lines.push(short(detail.summary, 600));
  if (detail.description && detail.description !== detail.summary) lines.push(short(detail.description, 600));
  if (overview.servers.length) lines.push(`Base URL: ${listed(overview.servers.map(serverText), LISTED.servers, ' or ')}`);
  lines.push(`Auth: ${securityText(detail.security, overview.securitySchemes)}`);
  if (detail.parameters.length) {
    lines.push(`${parts.inputs}:`);
    for (const parameter of detail.parameters.slice(0, LISTED.parameters)) lines.push(`- ${parameterText(parameter)}`);
    if (detail.parameters.length > LISTED.parameters) lines.push(`- …and ${detail.parameters.length - LISTED.parameters} more (structuredContent lists them)`);
  }
  if (detail.requestBody) {
    for (const content of detail.requestBody.content.slice(0, LISTED.mediaTypes)) {
      lines.push(`${parts.body} (${short(content.mediaType, NAME_CHARS)}${detail.requestBody.required ? ', required' : ''}): ${sketch(content.schema)}`);
    }
  }
  if (detail.responses.length) lines.push(`${parts.responses}:`);
  for (const response of detail.responses.slice(0, LISTED.responses)) {
    const schema = response.content[0]?.schema;
    // Success bodies in full (HTTP 2xx, or a kind's own word: data, OK, reply, result); redirects and errors by status and description.
    const body = schema && !/^([345]|default|error)/i.test(response.status) ? `: ${sketch(schema)}` : '';
    lines.push(`- ${short(response.status, NAME_CHARS)}${response.description ? ` ${short(response.description, FIELD_DESCRIPTION_CHARS)}` : ''}${body}`);
  }
  if (detail.responses.length > LISTED.responses) lines.push(`- …and ${detail.responses.length - LISTED.responses} more`);
  if (detail.truncated) {
    lines.push('Note: some schemas were cut at OPERATION_DETAIL_MAX_CHARS ("$truncated" in structuredContent); the full spec is the resource of this API.');
  }
  const cuts = [...(detail.cuts ?? []), ...(overview.cuts ?? [])];
  if (cuts.length) lines.push(`Note: this spec's texts and lists passed the answer's size limits and were cut (${short(cuts.join('; '), 300)}).`);
  if (example) lines.push(`Example: ${short(example, 4000)}`);
  return lines.join('\n');
}

/** A change report: counts, then each change, breaking first, and what could not be compared. */
export function changesText(report: ChangeReportResponse): string {
  const from = `${report.from.version} (revision ${report.from.revision})`;
  const to = `${report.to.version} (revision ${report.to.revision})`;
  // An incomplete report says so first, and never "no changes".
  const incomplete =
    'Warning: this report is NOT complete, so it does not prove the move is safe. ' +
    `Not compared: ${short(report.incompleteReason ?? '', DESCRIPTION_CHARS)}`;
  const lines = report.complete ? [] : [incomplete];
  if (report.changes.length === 0) {
    lines.push(report.complete ? `No changes to operations from ${from} to ${to}.` : `No changes found from ${from} to ${to} in what could be compared.`);
    return lines.join('\n');
  }
  const counts = `${report.breaking} breaking, ${report.nonBreaking} non-breaking, ${report.info} informational change(s)`;
  lines.push(`From ${from} to ${to}: ${counts}${report.complete ? '' : ' in what could be compared'}:`);
  for (const change of report.changes.slice(0, LISTED.changes)) {
    const operation = change.operation ? `${short(change.operation, ADDRESS_CHARS)}: ` : '';
    const location = change.location ? ` (${short(change.location, ADDRESS_CHARS)})` : '';
    lines.push(`- [${change.severity}] ${operation}${short(change.message, DESCRIPTION_CHARS)}${location}`);
  }
  const total = report.breaking + report.nonBreaking + report.info;
  if (total > LISTED.changes) lines.push(`- …and ${total - LISTED.changes} more (structuredContent lists ${report.changes.length})`);
  const impact = report.impact;
  if (impact && (impact.affected.length > 0 || impact.mayBeAffected.length > 0)) {
    const names = (consumers: { name: string }[]) => consumers.map((consumer) => short(consumer.name, ADDRESS_CHARS)).join(', ');
    if (impact.affected.length > 0) lines.push(`Consumers of ${report.from.version} that call a breaking operation: ${names(impact.affected)}.`);
    if (impact.mayBeAffected.length > 0)
      lines.push(`Consumers that named no operations, or call what was not compared, so may be affected: ${names(impact.mayBeAffected)}.`);
  }
  return lines.join('\n');
}

export function listText(list: ApiListResponse, page: number, pageSize: number): string {
  if (list.total === 0) return 'No APIs match.';
  const from = (page - 1) * pageSize + 1;
  const lines = [`APIs ${Math.min(from, list.total)}–${Math.min(from + list.items.length - 1, list.total)} of ${list.total}:`];
  for (const api of list.items) {
    const status = api.indexing?.status ?? 'status unknown';
    lines.push(`- ${api.name} ${api.version} [${api.kind}]${stageText(api)} — apiId ${api.apiId} — org ${api.orgId}${teamText(api)} — ${status}`);
    if (api.labels && Object.keys(api.labels).length) lines.push(`  ${labelsText(api.labels)}`);
  }
  if (from + list.items.length - 1 < list.total) lines.push(`More: list_apis with page ${page + 1}.`);
  return lines.join('\n');
}

/** One line: `Labels: key=value, …` (up to 20 labels of bounded size: never cut). */
function labelsText(labels: Record<string, string>): string {
  return `Labels: ${Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ')}`;
}

function serverText(server: ServerInfo): string {
  return short(server.url, ADDRESS_CHARS);
}

function endpointText({ method, path }: { method: string; path: string }): string {
  return `${short(method, NAME_CHARS)} ${short(path, ADDRESS_CHARS)}`;
}

function schemeText(scheme: SecuritySchemeInfo): string {
  const how =
    scheme.type === 'apiKey'
      ? `apiKey in ${short(scheme.in ?? '', NAME_CHARS)} "${short(scheme.parameterName ?? '', NAME_CHARS)}"`
      : short(scheme.type === 'http' ? `http ${scheme.scheme ?? ''}`.trim() : scheme.type, NAME_CHARS);
  const scopes = [...new Set(scheme.flows?.flatMap((flow) => flow.scopes.map((scope) => short(scope.name, NAME_CHARS))) ?? [])];
  return `${short(scheme.name, NAME_CHARS)} (${how}${scopes.length ? `; scopes: ${listed(scopes, LISTED.scopes, ', ')}` : ''})`;
}

/** The first `max` items joined, and how many more there are. */
function listed(items: string[], max: number, separator: string): string {
  return items.slice(0, max).join(separator) + (items.length > max ? ` (and ${items.length - max} more)` : '');
}

function securityText(security: SecurityRequirement[], schemes: SecuritySchemeInfo[]): string {
  if (security.length === 0) return 'none declared';
  const alternatives = security.slice(0, LISTED.alternatives);
  const more = security.length > alternatives.length ? ` (or ${security.length - alternatives.length} more ways)` : '';
  return (
    alternatives
      .map((requirement) =>
        requirement.length === 0
          ? 'none'
          : requirement
              .map(({ scheme: name, scopes }) => {
                const scheme = schemes.find((candidate) => candidate.name === name);
                const how = scheme ? schemeText({ ...scheme, flows: undefined }) : short(name, NAME_CHARS);
                return `${how}${
                  scopes.length
                    ? ` with scopes ${listed(
                        scopes.map((scope) => short(scope, NAME_CHARS)),
                        LISTED.scopes,
                        ', ',
                      )}`
                    : ''
                }`;
              })
              .join(' and '),
      )
      .join(' or ') + more
  );
}

function parameterText(parameter: OperationParameter): string {
  const flags = [parameter.in, parameter.required ? 'required' : '', parameter.deprecated ? 'deprecated' : ''].filter(Boolean).join(', ');
  return `${short(parameter.name, NAME_CHARS)} (${flags}): ${sketch(parameter.schema)}${summaryText(parameter.description, FIELD_DESCRIPTION_CHARS)}`;
}

/** ` — team checkout`, or nothing without a team. */
function teamText(item: { teamName?: string }): string {
  return item.teamName ? ` — team ${item.teamName}` : '';
}

/** ` — ` and the text cut at `maxChars`, or nothing without one. */
function summaryText(text: string | undefined, maxChars: number): string {
  return text ? ` — ${short(text, maxChars)}` : '';
}

/**
 * A schema as a compact type: `{uris*: string[] — A JSON array of Spotify URIs; position: integer}`
 * (`*` required). Any JSON Schema: OpenAPI 3.1 booleans (`true` takes anything), tuples, schemas
 * cut at the size limit (what was kept, then `…cut`).
 */
export function sketch(schema: unknown, depth = 0): string {
  if (schema === true || schema === undefined) return 'any';
  if (schema === false) return 'never';
  if (!isObject(schema)) return 'any';
  if (SCHEMA_MARKERS.circular in schema) return `<circular ${short(String(schema[SCHEMA_MARKERS.circular]), NAME_CHARS)}>`;
  const cut = SCHEMA_MARKERS.truncated in schema ? ' …cut' : '';
  if (Array.isArray(schema.enum))
    return (
      listed(
        schema.enum.map((value) => short(JSON.stringify(value) ?? 'null', NAME_CHARS)),
        LISTED.enum,
        '|',
      ) + cut
    );
  for (const key of ['oneOf', 'anyOf'] as const) {
    const parts = schema[key];
    if (Array.isArray(parts))
      return (
        listed(
          parts.map((part) => sketch(part, depth)),
          LISTED.alternatives,
          ' | ',
        ) + cut
      );
  }
  if (Array.isArray(schema.allOf))
    return (
      listed(
        schema.allOf.map((part) => sketch(part, depth)),
        LISTED.alternatives,
        ' & ',
      ) + cut
    );
  const type = Array.isArray(schema.type) ? schema.type.map(String).join('|') : typeof schema.type === 'string' ? schema.type : undefined;
  const title = typeof schema.title === 'string' ? short(schema.title, NAME_CHARS) : undefined;
  if (Array.isArray(schema.items))
    return `[${listed(
      schema.items.map((item) => sketch(item, depth)),
      LISTED.alternatives,
      ', ',
    )}]${cut}`;
  if (type === 'array' || schema.items !== undefined) return `${sketch(schema.items, depth)}[]${cut}`;
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  if (properties.length) {
    if (depth >= SKETCH_DEPTH) return title ?? 'object';
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const fields = properties.slice(0, SKETCH_FIELDS).map(([field, value]) => {
      const description = isObject(value) && typeof value.description === 'string' ? ` — ${short(value.description, FIELD_DESCRIPTION_CHARS)}` : '';
      return `${short(field, NAME_CHARS)}${required.has(field) ? '*' : ''}: ${sketch(value, depth + 1)}${description}`;
    });
    if (properties.length > SKETCH_FIELDS) fields.push(`…${properties.length - SKETCH_FIELDS} more`);
    return `{${fields.join('; ')}${cut ? '; …cut' : ''}}`;
  }
  if (cut) return '<cut: see the note>';
  const format = typeof schema.format === 'string' ? `(${short(schema.format, NAME_CHARS)})` : '';
  return `${type ?? title ?? 'any'}${format}`;
}

function short(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** A card's stage, when it is not plain production: ` (deprecated, sunset 2027-06-30)`. */
function stageText(card: { lifecycle?: string; sunsetDate?: string }): string {
  if (!card.lifecycle || card.lifecycle === 'production') return '';
  return ` (${card.lifecycle}${card.sunsetDate ? `, sunset ${card.sunsetDate}` : ''})`;
}

/** `1.0.0 (deprecated, sunset 2027-06-30; move to 2.0.0)`, `2.0.0 (production, recommended)`. */
function versionText(version: ApiRecord['versions'][number], record: ApiRecord): string {
  const recommended = version.version === record.version;
  const successor = moveToFor(version, record);
  const moveTo = successor ? `; move to ${short(successor, NAME_CHARS)}` : '';
  const sunset = version.sunsetDate ? `, sunset ${version.sunsetDate}` : '';
  return `${short(version.version, NAME_CHARS)} (${version.lifecycle}${sunset}${recommended ? ', recommended' : ''}${moveTo})`;
}
