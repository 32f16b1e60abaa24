import { loadSpec } from './dereference.js';
import { readSpecDocument } from './read-openapi.js';
import { SpecError } from '../../spec-error.js';

const minimal = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {} };

describe(readSpecDocument.name, () => {
  it('should read JSON text, YAML text and objects', () => {
    expect(readSpecDocument(JSON.stringify(minimal)).flavor).toBe('openapi-3.0');
    expect(readSpecDocument('openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths: {}\n').flavor).toBe('openapi-3.1');
    expect(readSpecDocument({ swagger: '2.0', info: { title: 'T', version: '1' }, paths: {} }).flavor).toBe('swagger-2.0');
  });

  it.each([
    ['{ "openapi": ', /not valid JSON/],
    ['a: [unclosed', /neither valid JSON nor valid YAML/],
    ['just some words', /must be a JSON or YAML object/],
    ['{"info": {"title": "T"}, "paths": {}}', /neither an "openapi" nor a "swagger" field/],
    ['{"openapi": "2.5.0", "info": {"title": "T"}, "paths": {}}', /Unsupported OpenAPI version "2.5.0"/],
    ['{"swagger": "1.2", "info": {"title": "T"}, "paths": {}}', /Unsupported Swagger version/],
    [
      'swagger: 2.0\ninfo: {title: T}\npaths: {}\n',
      /Unsupported Swagger version "2" \(only 2\.0\): the version is a number, not text; in YAML quote it, e\.g\. swagger: "2\.0"/,
    ],
    ['openapi: 3.0\ninfo: {title: T}\npaths: {}\n', /Unsupported OpenAPI version "3" .*in YAML quote it, e\.g\. openapi: "3\.0\.3"/],
    ['{"openapi": "3.0.0", "paths": {}}', /no "info" object/],
    ['{"openapi": "3.0.0", "info": {"title": "T"}}', /no "paths" object/],
    ['   ', /empty/],
  ])('should refuse %j with a reason', (input, reason) => {
    expect(() => readSpecDocument(input)).toThrow(SpecError);
    expect(() => readSpecDocument(input)).toThrow(reason);
  });
});

describe(loadSpec.name, () => {
  it('should never read a file named by an external $ref', async () => {
    const spec = {
      ...minimal,
      paths: { '/x': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: 'file:///etc/passwd' } } } } } } } },
    };
    await expect(loadSpec(spec)).rejects.toThrow(/External \$ref "file:\/\/\/etc\/passwd" is not allowed/);
  });

  it('should refuse http and relative external $refs', async () => {
    const withRef = (ref: string) => ({ ...minimal, components: { schemas: { A: { $ref: ref } } } });
    await expect(loadSpec(withRef('https://example.com/schema.json'))).rejects.toThrow(SpecError);
    await expect(loadSpec(withRef('./other.yaml#/A'))).rejects.toThrow(SpecError);
  });

  it('should ignore external $refs inside vendor extensions', async () => {
    const spec = { ...minimal, components: { 'x-policy': { $ref: '../policies.yaml' } } };
    await expect(loadSpec(spec)).resolves.toMatchObject({ flavor: 'openapi-3.0' });
  });

  it('should report a broken internal $ref as a SpecError', async () => {
    const spec = { ...minimal, paths: { '/x': { get: { responses: { 200: { $ref: '#/components/responses/Missing' } } } } } };
    await expect(loadSpec(spec)).rejects.toThrow(/could not be resolved/);
  });

  it('should not change the document it was given', async () => {
    const spec = structuredClone({ ...minimal, components: { schemas: { A: { type: 'object' }, B: { $ref: '#/components/schemas/A' } } } });
    await loadSpec(spec);
    expect(spec.components.schemas.B).toEqual({ $ref: '#/components/schemas/A' });
  });
});
