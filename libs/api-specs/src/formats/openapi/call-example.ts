import type { ApiOverview, OperationDetail, OperationParameter, SecuritySchemeInfo } from '#contracts';
import { exampleValue, quote } from '../shared/example-value.js';

/**
 * A curl command that calls the operation: the first server's URL (its variables at their
 * defaults), required query and header parameters with example values, the credentials its
 * first security requirement asks for (as shell variables, never values), and a body built from
 * the first request body schema.
 */
export function curlExample(api: ApiOverview, operation: OperationDetail): string {
  const url = `${serverUrl(api)}${operation.path}`;
  const required = operation.parameters.filter((parameter) => parameter.required);
  const query = required.filter((parameter) => parameter.in === 'query').map((parameter) => `${parameter.name}=${encodeURIComponent(scalar(parameter))}`);
  const headers = required.filter((parameter) => parameter.in === 'header').map((parameter) => `${parameter.name}: ${scalar(parameter)}`);
  const credentials = credentialsFor(api, operation);
  query.push(...credentials.query);
  headers.push(...credentials.headers);
  const parts = [`curl -X ${operation.method}`, quote(`${url}${query.length ? `?${query.join('&')}` : ''}`)];
  for (const header of headers) parts.push(`-H ${quote(header)}`);
  const content = operation.requestBody?.content[0];
  if (content) {
    parts.push(`-H ${quote(`Content-Type: ${content.mediaType}`)}`);
    const body = exampleValue(content.schema);
    parts.push(`-d ${quote(/json/i.test(content.mediaType) ? JSON.stringify(body) : formEncoded(body))}`);
  }
  return parts.join(' ');
}

/** The first server, its template variables at their defaults; `https://api.example.com` when the spec names none. */
function serverUrl(api: ApiOverview): string {
  const server = api.servers[0];
  if (!server) return 'https://api.example.com';
  const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => server.variables?.[name]?.default ?? whole).replace(/\/$/, '');
  return url.startsWith('//') ? `https:${url}` : url;
}

function credentialsFor(api: ApiOverview, operation: OperationDetail): { headers: string[]; query: string[] } {
  const credentials = { headers: [] as string[], query: [] as string[] };
  for (const { scheme: name } of operation.security[0] ?? []) {
    const scheme = api.securitySchemes.find((candidate) => candidate.name === name);
    if (scheme) addCredential(scheme, credentials);
  }
  return credentials;
}

function addCredential(scheme: SecuritySchemeInfo, credentials: { headers: string[]; query: string[] }): void {
  const variable = `$${scheme.name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}`;
  if (scheme.type === 'apiKey' && scheme.parameterName) {
    if (scheme.in === 'query') credentials.query.push(`${scheme.parameterName}=${variable}`);
    else if (scheme.in === 'header') credentials.headers.push(`${scheme.parameterName}: ${variable}`);
    else credentials.headers.push(`Cookie: ${scheme.parameterName}=${variable}`);
  } else if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
    credentials.headers.push(`Authorization: Basic ${variable}`);
  } else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
    credentials.headers.push(`Authorization: Bearer ${variable}`);
  }
}

function scalar(parameter: OperationParameter): string {
  const value = exampleValue(parameter.schema);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function formEncoded(body: unknown): string {
  if (typeof body !== 'object' || body === null) return String(body);
  return Object.entries(body)
    .map(([key, value]) => `${key}=${encodeURIComponent(typeof value === 'object' ? JSON.stringify(value) : String(value))}`)
    .join('&');
}
