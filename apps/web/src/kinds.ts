import type { ApiKindInfo, MediaTypeSchema, OperationPartNames } from '../../../libs/contracts/src/index.js';
import { ragApiClient } from './api-client.js';

/**
 * The kinds of API the server reads (`GET /api-management/kinds`, its spec format plugins):
 * asked for once a session, before the first view draws. A kind the list lacks (asking failed,
 * or an API of a kind the server no longer reads) still shows: by its own name, its verbs as they come.
 */
let known: readonly ApiKindInfo[] = [];
let asked: Promise<readonly ApiKindInfo[]> | undefined;

/** The server's kinds, asked for the first time this is called in a session; a failure is asked again next time. */
export function loadKinds(token: string): Promise<readonly ApiKindInfo[]> {
  asked ??= ragApiClient.listKinds(token).then(
    ({ items }) => (known = items),
    () => {
      asked = undefined;
      return known;
    },
  );
  return asked;
}

/** Signing out ends the session: the next one asks again. */
export function forgetKinds(): void {
  known = [];
  asked = undefined;
}

/** The kinds known, in the server's order. */
export function knownKinds(): readonly ApiKindInfo[] {
  return known;
}

export function kindInfo(kind: string | undefined): ApiKindInfo | undefined {
  return known.find((info) => info.kind === kind);
}

/** "GraphQL" for `graphql`; an unknown kind is its own name. */
export function kindLabel(kind: string): string {
  return kindInfo(kind)?.name ?? kind;
}

/** The verbs of these kinds, in the server's order. */
export function verbsOf(kinds: Iterable<string>): string[] {
  const wanted = new Set(kinds);
  return known.filter((info) => wanted.has(info.kind)).flatMap((info) => [...info.verbs]);
}

/** The kind whose verb this is (`QUERY` is GraphQL's); undefined for a verb no known kind has. */
export function kindOfVerb(verb: string): string | undefined {
  return known.find((info) => info.verbs.includes(verb))?.kind;
}

/** HTTP's methods: a protocol's, whichever kinds of API use them. */
const HTTP_METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']);

/**
 * Whether a kind's operations are HTTP requests (its verbs are HTTP methods): they always say
 * what they take, and their verbs are always offered as filters. An API whose kind is not
 * known yet counts as HTTP; a kind the list lacks does not.
 */
export function speaksHttp(kind: string | undefined): boolean {
  if (kind === undefined) return true;
  const info = kindInfo(kind);
  return info !== undefined && info.verbs.length > 0 && info.verbs.every((verb) => HTTP_METHODS.has(verb));
}

/** The file names the kinds' documents have (`.json`, `.proto`…), each once, in the kinds' order. */
export function fileExtensions(): string[] {
  return [...new Set(known.flatMap((info) => info.fileExtensions))];
}

/** What an operation's parts are called in its kind: an HTTP request's body is a gRPC request message or an AsyncAPI message. */
export type OperationLabels = OperationPartNames;

export function operationLabels(kind: string | undefined, inputs: { in: string }[], content: MediaTypeSchema[]): OperationLabels {
  // Inputs that are all headers (a message's) are headers, whatever the kind calls its inputs.
  const headers = inputs.length > 0 && inputs.every((input) => input.in === 'header');
  const parts = kindInfo(kind)?.parts;
  if (parts) return { ...parts, inputs: headers ? 'Headers' : parts.inputs };
  // A kind this UI does not know: its inputs and body say what they are.
  return {
    inputs: headers ? 'Headers' : inputs.length && inputs.every((input) => input.in === 'argument') ? 'Arguments' : 'Parameters',
    body: content.every((media) => HTTP_MEDIA_TYPE.test(media.mediaType)) ? 'Request body' : 'Message',
    responses: 'Responses',
  };
}

/** `application/json`, `multipart/form-data; boundary=…`: a body an HTTP request carries. */
const HTTP_MEDIA_TYPE = /^[\w.+-]+\/[\w.+*-]+\s*(;.*)?$/;
