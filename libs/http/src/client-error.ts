import { maxHeaderSize, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Problem, PROBLEM_CONTENT_TYPE } from '#contracts';
import { problemOf } from './problem.filter.js';

/** What Node answers each of its parser's refusals with (`socketOnError` in its `_http_server.js`), in words. */
function describeClientError(error: NodeJS.ErrnoException): Problem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return problemOf(431, `The request headers are larger than ${Math.round(maxHeaderSize / 1024)} KB; a token this large is not accepted`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return problemOf(413, 'The chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problemOf(408, 'The request took too long to arrive');
    default:
      return problemOf(400, 'The request is not valid HTTP');
  }
}

/**
 * Answers a request that Node's HTTP parser refuses before any handler sees it (headers over
 * Node's limit, malformed HTTP) with problem+json, as every other error, instead of Node's bare
 * status line. There is no request there, so no request id either.
 */
export function answerClientErrorsAsProblems(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node itself: no answer on a socket that is closing, or in the middle of the previous
    // request's response (the bytes would corrupt it); the connection is closed either way.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) socket.write(rawResponse(describeClientError(error)));
    socket.destroy(error);
  });
}

function rawResponse(problem: Problem): string {
  const body = JSON.stringify(problem);
  const head = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}
