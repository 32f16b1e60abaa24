import type {
  ApiEndpoint,
  ApiOperationDetailResponse,
  ApiOperationsResponse,
  MediaTypeSchema,
  SecurityRequirement,
  SecuritySchemeInfo,
} from '../../../../libs/contracts/src/index.js';
import { ApiError, ragApiClient } from '../api-client.js';
import { errorBox, methodBadge } from '../components.js';
import { h, handler, replace } from '../dom.js';
import { operationKey } from '../feedback.js';
import { operationLabels, speaksHttp } from '../kinds.js';

/** A value short enough to read on one line stays on one line: schemas read like the spec, not like a log. */
const ONE_LINE_CHARS = 60;

/** What the indexed spec says about the whole API: its own description, servers and how to authenticate. */
export function apiOverviewSection(overview: ApiOperationsResponse | Error, registeredDescription?: string): HTMLElement {
  if (overview instanceof Error) {
    // Not indexed yet (404) is expected right after registration: the endpoints below still show.
    return overview instanceof ApiError && overview.status === 404
      ? h('p', { id: 'api-overview', class: 'muted' }, 'Servers, authentication and operation details show once the spec is indexed.')
      : h('div', { id: 'api-overview' }, errorBox(overview, "Could not load the spec's details"));
  }
  return h(
    'section',
    { id: 'api-overview', class: 'api-overview' },
    overview.description && overview.description !== registeredDescription ? h('p', { class: 'spec-description' }, overview.description) : null,
    overview.servers.length
      ? [
          h('h2', {}, 'Servers'),
          h(
            'ul',
            { class: 'servers' },
            overview.servers.map((server) =>
              h('li', {}, h('code', {}, server.url), server.description ? h('span', { class: 'muted' }, ` ${server.description}`) : null),
            ),
          ),
        ]
      : null,
    cutNotice(overview.cuts),
    h('h2', {}, 'Authentication'),
    overview.securitySchemes.length
      ? h('ul', { class: 'auth-schemes' }, overview.securitySchemes.map(schemeItem))
      : h('p', { class: 'muted' }, 'The spec declares no authentication.'),
  );
}

/** What the answer's size limit cut, when it cut something: a spec larger than anyone reads whole. */
function cutNotice(cuts: string[] | undefined): HTMLElement | null {
  return cuts?.length ? h('p', { class: 'notice' }, `This spec holds more than is shown here: ${cuts.join('; ')}.`) : null;
}

function schemeItem(scheme: SecuritySchemeInfo): HTMLElement {
  const how =
    scheme.type === 'apiKey'
      ? `API key in ${scheme.in ?? '?'} "${scheme.parameterName ?? '?'}"`
      : scheme.type === 'http'
        ? `HTTP ${scheme.scheme ?? ''}${scheme.bearerFormat ? ` (${scheme.bearerFormat})` : ''}`
        : scheme.type === 'openIdConnect'
          ? `OpenID Connect ${scheme.openIdConnectUrl ?? ''}`
          : scheme.type;
  return h(
    'li',
    {},
    h('strong', {}, scheme.name),
    ' ',
    h('span', { class: 'muted' }, how),
    scheme.description ? h('div', {}, scheme.description) : null,
    (scheme.flows ?? []).map((flow) =>
      h(
        'div',
        { class: 'oauth-flow' },
        `OAuth 2 ${flow.flow}`,
        flow.authorizationUrl ? ` · authorize at ${flow.authorizationUrl}` : '',
        flow.tokenUrl ? ` · token at ${flow.tokenUrl}` : '',
        flow.scopes.length
          ? h(
              'ul',
              {},
              flow.scopes.map((scope) => h('li', {}, h('code', {}, scope.name), scope.description ? ` ${scope.description}` : '')),
            )
          : null,
      ),
    ),
  );
}

/**
 * An endpoint that opens to its parameters, request body, responses and security, loaded from
 * the operation-detail route the first time it is opened; each part named as the API's kind names it.
 * `version`: the API's version shown (absent: the recommended one). `onOpen`: each time it is opened.
 */
export function operationRow(token: string, apiId: string, endpoint: ApiEndpoint, kind?: string, version?: string, onOpen?: () => void): HTMLElement {
  const body = h('div', { class: 'operation-detail' }, h('p', { class: 'loading' }, 'Loading…'));
  let requested = false;
  const details = h(
    'details',
    {
      class: 'operation',
      'data-operation': operationKey(endpoint),
      ontoggle: handler(async () => {
        if (!details.open) return;
        onOpen?.();
        if (requested) return;
        requested = true;
        try {
          replace(body, ...operationBody(await ragApiClient.getOperationDetail(token, apiId, { method: endpoint.method, path: endpoint.path }, version), kind));
        } catch (error) {
          // Opening it again tries again.
          requested = false;
          replace(body, errorBox(error, 'Could not load this operation'));
        }
      }),
    },
    h(
      'summary',
      {},
      methodBadge(endpoint.method),
      h('code', { class: 'path' }, endpoint.path),
      endpoint.summary ? h('span', { class: 'summary' }, endpoint.summary) : null,
      endpoint.deprecated ? h('span', { class: 'muted' }, ' (deprecated)') : null,
    ),
    body,
  );
  return h('li', { class: endpoint.deprecated ? 'deprecated' : undefined }, details);
}

function operationBody(operation: ApiOperationDetailResponse, kind?: string): (HTMLElement | null)[] {
  const labels = operationLabels(kind, operation.parameters, operation.requestBody?.content ?? []);
  // Where every input is a GraphQL argument (or every one a header), a column saying so says nothing.
  const places = new Set(operation.parameters.map((parameter) => parameter.in));
  const showIn = places.size > 1 || (places.size === 1 && !places.has('argument') && labels.inputs !== 'Headers');
  const columns = ['Name', ...(showIn ? ['In'] : []), 'Required', 'Schema', 'Description'];
  // HTTP operations always say what they take; the other kinds' sections show when there is
  // something in them, and one that takes nothing at all says so under its inputs.
  const http = speaksHttp(kind);
  const takesNothing = operation.parameters.length === 0 && !operation.requestBody;
  return [
    operation.description ? h('p', { class: 'description' }, operation.description) : null,
    operation.truncated ? h('p', { class: 'notice' }, 'Some schemas are too large to show in full: they are cut where it says "$truncated".') : null,
    cutNotice(operation.cuts),
    operation.parameters.length || http || takesNothing ? h('h4', {}, labels.inputs) : null,
    operation.parameters.length ? parametersTable(operation.parameters, columns, showIn) : http || takesNothing ? h('p', { class: 'muted' }, 'None.') : null,
    operation.requestBody || http ? h('h4', {}, labels.body) : null,
    operation.requestBody ? requestBodyBlock(operation.requestBody, http) : http ? h('p', { class: 'muted' }, 'None.') : null,
    operation.responses.length || http ? h('h4', {}, labels.responses) : null,
    operation.responses.length
      ? h(
          'ul',
          { class: 'responses' },
          operation.responses.map((response) =>
            h('li', {}, h('strong', {}, response.status), response.description ? ` ${response.description}` : '', mediaList(response.content)),
          ),
        )
      : http
        ? h('p', { class: 'muted' }, 'None.')
        : null,
    h('h4', {}, 'Security'),
    h('p', { class: 'security' }, securityText(operation.security)),
  ];
}

/** The operation's inputs, a row each; the "In" column only when `showIn`. */
function parametersTable(parameters: ApiOperationDetailResponse['parameters'], columns: string[], showIn: boolean): HTMLElement {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'parameters' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((title) => h('th', {}, title)),
        ),
      ),
      h(
        'tbody',
        {},
        parameters.map((parameter) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', {}, parameter.name), parameter.deprecated ? h('span', { class: 'muted' }, ' (deprecated)') : null),
            showIn ? h('td', {}, parameter.in) : null,
            h('td', {}, parameter.required ? 'yes' : 'no'),
            h('td', {}, parameter.schema ? schemaBlock(parameter.schema) : '—'),
            h('td', {}, parameter.description ?? ''),
          ),
        ),
      ),
    ),
  );
}

/** The request body: whether it is required (HTTP only), its description and its media types. */
function requestBodyBlock(requestBody: NonNullable<ApiOperationDetailResponse['requestBody']>, http: boolean): HTMLElement {
  return h(
    'div',
    { class: 'request-body' },
    // A message or request message is what the operation is: required goes without saying.
    http
      ? h('p', {}, requestBody.required ? 'Required.' : 'Optional.', requestBody.description ? ` ${requestBody.description}` : '')
      : requestBody.description
        ? h('p', {}, requestBody.description)
        : null,
    mediaList(requestBody.content),
  );
}

function mediaList(content: MediaTypeSchema[]): HTMLElement | null {
  if (content.length === 0) return null;
  // Media types with the same schema (Swagger 2.0 gives all of them the same) share one block.
  const bySchema = new Map<string, { mediaTypes: string[]; schema?: MediaTypeSchema['schema'] }>();
  for (const { mediaType, schema } of content) {
    const key = JSON.stringify(schema ?? null);
    const group = bySchema.get(key) ?? { mediaTypes: [], schema };
    group.mediaTypes.push(mediaType);
    bySchema.set(key, group);
  }
  return h(
    'div',
    { class: 'media-types' },
    [...bySchema.values()].map(({ mediaTypes, schema }) =>
      h('div', {}, h('code', { class: 'media-type' }, mediaTypes.join(', ')), schema ? schemaBlock(schema) : null),
    ),
  );
}

function schemaBlock(schema: unknown): HTMLElement {
  return h('pre', { class: 'schema' }, compactJson(schema, ''));
}

/** JSON indented by two spaces, except that values short enough stay on one line. */
function compactJson(value: unknown, indent: string): string {
  const flat = JSON.stringify(value);
  if (flat === undefined) return 'null';
  if (flat.length <= ONE_LINE_CHARS || typeof value !== 'object' || value === null) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => inner + compactJson(item, inner)).join(',\n')}\n${indent}]`;
  const fields = Object.entries(value).map(([key, field]) => `${inner}${JSON.stringify(key)}: ${compactJson(field, inner)}`);
  return `{\n${fields.join(',\n')}\n${indent}}`;
}

function securityText(requirements: SecurityRequirement[]): string {
  if (requirements.length === 0) return 'None declared.';
  return requirements
    .map((requirement) =>
      requirement.length === 0 ? 'none' : requirement.map(({ scheme, scopes }) => (scopes.length ? `${scheme} (${scopes.join(', ')})` : scheme)).join(' and '),
    )
    .join(', or ');
}
