import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { answerClientErrorsAsProblems } from './client-error.js';

/** A socket that keeps what is written to it. */
function fakeSocket(): Writable & { written: string; _httpMessage?: { headersSent: boolean } } {
  const socket = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        socket.written += chunk.toString();
        callback();
      },
    }),
    { written: '' },
  );
  // Node adds this before it emits `clientError`: the socket is destroyed with the parser's error.
  socket.on('error', () => undefined);
  return socket;
}

const parserError = (code: string) => Object.assign(new Error(`Parse Error: ${code}`), { code });

describe(answerClientErrorsAsProblems.name, () => {
  let server: Server;

  beforeEach(() => {
    server = createServer();
    answerClientErrorsAsProblems(server);
  });

  afterEach(() => {
    server.close();
  });

  it('should answer headers over the limit with a complete 431 problem and close the connection', () => {
    const socket = fakeSocket();
    server.emit('clientError', parserError('HPE_HEADER_OVERFLOW'), socket);
    const [head, body] = socket.written.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 431 Request Header Fields Too Large',
      'Content-Type: application/problem+json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ]);
    expect(JSON.parse(body)).toEqual({
      type: 'https://httpstatuses.io/431',
      title: 'Request Header Fields Too Large',
      status: 431,
      detail: 'The request headers are larger than 16 KB; a token this large is not accepted',
    });
    expect(socket.destroyed).toBe(true);
  });

  it('should answer other malformed requests with 400, as Node does', () => {
    const socket = fakeSocket();
    server.emit('clientError', parserError('HPE_INVALID_METHOD'), socket);
    expect(socket.written).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*"detail":"The request is not valid HTTP"/);
    expect(socket.destroyed).toBe(true);
  });

  it('should write nothing to a socket that is no longer writable', () => {
    // Say so without ending it, so that a write would still show.
    const socket = Object.defineProperty(fakeSocket(), 'writable', { value: false });
    server.emit('clientError', parserError('HPE_HEADER_OVERFLOW'), socket);
    expect(socket.written).toBe('');
    expect(socket.destroyed).toBe(true);
  });

  it('should write nothing in the middle of the previous response', () => {
    const socket = Object.assign(fakeSocket(), { _httpMessage: { headersSent: true } });
    server.emit('clientError', parserError('HPE_HEADER_OVERFLOW'), socket);
    expect(socket.written).toBe('');
    expect(socket.destroyed).toBe(true);
  });
});
