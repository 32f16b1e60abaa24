import type { MediaTypeSchema } from '../../../libs/contracts/src/index.js';

/**
 * The kinds of API the platform reads (`ApiModel.kind` in libs/contracts), as people call them,
 * with the verbs their operations use. A kind not listed here (a newer server's) still shows: by
 * its own name, with its verbs as they come.
 */
export const KINDS = [
  { kind: 'openapi', label: 'OpenAPI', verbs: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
  { kind: 'asyncapi', label: 'AsyncAPI', verbs: ['PUBLISH', 'SUBSCRIBE', 'SEND', 'RECEIVE'] },
  { kind: 'graphql', label: 'GraphQL', verbs: ['QUERY', 'MUTATION', 'SUBSCRIPTION'] },
  { kind: 'grpc', label: 'gRPC', verbs: ['RPC'] },
] as const;

/** "GraphQL" for `graphql`; an unknown kind is its own name. */
export function kindLabel(kind: string): string {
  return KINDS.find((known) => known.kind === kind)?.label ?? kind;
}

/** The verbs of these kinds, in the order above. */
export function verbsOf(kinds: Iterable<string>): string[] {
  const wanted = new Set(kinds);
  return KINDS.filter((known) => wanted.has(known.kind)).flatMap((known) => [...known.verbs]);
}

/** The kind whose verb this is (`QUERY` is graphql's); undefined for a verb no listed kind has. */
export function kindOfVerb(verb: string): string | undefined {
  return KINDS.find((known) => (known.verbs as readonly string[]).includes(verb))?.kind;
}

/** What an operation's parts are called in its kind: an HTTP request's body is a gRPC request message or an AsyncAPI message. */
export interface OperationLabels {
  /** Named inputs: HTTP parameters, GraphQL arguments, message headers. */
  inputs: string;
  /** What is sent: the request body, message or request message. */
  body: string;
  /** What comes back. */
  responses: string;
}

export function operationLabels(kind: string | undefined, inputs: { in: string }[], content: MediaTypeSchema[]): OperationLabels {
  switch (kind) {
    case 'graphql':
      return { inputs: 'Arguments', body: 'Input', responses: 'Returns' };
    case 'grpc':
      return { inputs: 'Parameters', body: 'Request', responses: 'Returns' };
    case 'asyncapi':
      return { inputs: inputs.length && inputs.every((input) => input.in === 'header') ? 'Headers' : 'Parameters', body: 'Message', responses: 'Reply' };
    case 'openapi':
      return { inputs: 'Parameters', body: 'Request body', responses: 'Responses' };
    default:
      // A kind this UI does not know: its inputs and body say what they are.
      return {
        inputs: inputs.length && inputs.every((input) => input.in === 'argument') ? 'Arguments' : 'Parameters',
        body: content.every((media) => HTTP_MEDIA_TYPE.test(media.mediaType)) ? 'Request body' : 'Message',
        responses: 'Responses',
      };
  }
}

/** `application/json`, `multipart/form-data; boundary=…`: a body an HTTP request carries. */
const HTTP_MEDIA_TYPE = /^[\w.+-]+\/[\w.+*-]+\s*(;.*)?$/;
