import { describe, expect, it } from '@jest/globals';
import { SpecError } from '../../spec-error.js';
import type { AsyncApiDocument } from './read-asyncapi.js';
import { validateAsyncApi } from './validate-asyncapi.js';

describe(validateAsyncApi.name, () => {
  it('should say in one line, without its stack or any server path, that the parser itself failed', async () => {
    const failure = new RangeError('Invalid string length');
    failure.stack =
      'RangeError: Invalid string length\n    at JSON.stringify (<anonymous>)\n    at toJSON (/srv/app/node_modules/@asyncapi/parser/cjs/document.js:12:20)';
    const channels = {};
    Object.defineProperty(channels, 'user/signedup', {
      enumerable: true,
      get: () => {
        throw failure;
      },
    });
    const document = { asyncapi: '2.6.0', info: { title: 'x', version: '1' }, channels } as AsyncApiDocument;
    const error = await validateAsyncApi(document).then(
      () => new Error('accepted'),
      (reason: Error) => reason,
    );
    expect(error).toBeInstanceOf(SpecError);
    expect(error.message).toBe('The AsyncAPI parser could not process the spec (RangeError: Invalid string length)');
  });
});
