import { readFixture } from '../../../../../test/fixtures/fixtures.js';
import { markerCount, schemaChars, shapeProblems } from '../../../../../test/support/schema-shape.js';
import { MAX_SCHEMA_DEPTH } from '../shared/schema.js';
import { apiOverview, findOperation, operationDetail } from './operation-detail.js';
import { readSpecDocument, type SpecDocument } from './read-openapi.js';

const MAX_CHARS = 20_000;

function detailOf(spec: string | Record<string, unknown>, selector: { operationId?: string; method?: string; path?: string }, maxChars = MAX_CHARS) {
  const { document, flavor } = readSpecDocument(spec);
  const entry = findOperation(document, selector);
  if (!entry) throw new Error(`no operation ${JSON.stringify(selector)}`);
  return operationDetail(document, flavor, entry, maxChars);
}

describe(operationDetail.name, () => {
  const petstore = readFixture('petstore-swagger2.yaml');

  it('should turn a Swagger 2.0 body parameter into a request body in each media type the operation consumes', () => {
    const detail = detailOf(petstore, { operationId: 'addPet' });

    expect(detail).toMatchObject({ method: 'POST', path: '/pet', summary: 'Add a new pet to the store', tags: ['pet'], parameters: [] });
    expect(detail.requestBody?.required).toBe(true);
    expect(detail.requestBody?.description).toBe('Pet object that needs to be added to the store');
    expect(detail.requestBody?.content.map((media) => media.mediaType)).toEqual(['application/json', 'application/xml']);
    const pet = detail.requestBody!.content[0].schema!;
    expect(pet).toMatchObject({
      type: 'object',
      required: ['name', 'photoUrls'],
      properties: { category: { type: 'object', properties: { name: { type: 'string' } } } },
    });
    expect(JSON.stringify(pet)).not.toContain('$ref');
    expect(detail.security).toEqual([[{ scheme: 'petstore_auth', scopes: ['write:pets', 'read:pets'] }]]);
  });

  it('should give Swagger 2.0 parameters a schema of their own type fields, and responses one per media type produced', () => {
    const detail = detailOf(petstore, { method: 'get', path: '/pet/findByStatus' });

    expect(detail.parameters).toEqual([
      {
        name: 'status',
        in: 'query',
        required: true,
        description: 'Status values that need to be considered for filter',
        schema: { type: 'array', items: { type: 'string', enum: ['available', 'pending', 'sold'] } },
      },
    ]);
    expect(detail.requestBody).toBeUndefined();
    const ok = detail.responses.find((response) => response.status === '200')!;
    expect(ok.content).toHaveLength(1);
    expect(ok.content[0]).toMatchObject({
      mediaType: 'application/json',
      schema: { type: 'array', items: { type: 'object', description: 'A pet for sale in the pet store' } },
    });
    expect(detail.responses.find((response) => response.status === '400')).toEqual({ status: '400', description: 'Invalid status value', content: [] });
  });

  it('should collect Swagger 2.0 formData parameters into one object body', () => {
    const spec = {
      swagger: '2.0',
      info: { title: 'Upload', version: '1' },
      paths: {
        '/files': {
          post: {
            consumes: ['multipart/form-data'],
            parameters: [
              { name: 'file', in: 'formData', type: 'file', required: true },
              { name: 'note', in: 'formData', type: 'string', description: 'Free text' },
            ],
            responses: { 201: { description: 'Stored' } },
          },
        },
      },
    };
    expect(detailOf(spec, { method: 'POST', path: '/files' }).requestBody).toEqual({
      required: true,
      content: [
        {
          mediaType: 'multipart/form-data',
          schema: { type: 'object', properties: { file: { type: 'file' }, note: { type: 'string', description: 'Free text' } }, required: ['file'] },
        },
      ],
    });
  });

  it("should merge path-level parameters, the operation's own winning, and follow parameter and body $refs in OpenAPI 3", () => {
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Shop', version: '1' },
      paths: {
        '/orders/{id}': {
          parameters: [{ $ref: '#/components/parameters/Id' }, { name: 'trace', in: 'header', schema: { type: 'string' } }],
          patch: {
            operationId: 'updateOrder',
            deprecated: true,
            parameters: [{ name: 'trace', in: 'header', required: true, description: 'Trace id', schema: { type: 'string', format: 'uuid' } }],
            requestBody: { $ref: '#/components/requestBodies/Order' },
            responses: { '2XX': { description: 'Updated', content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } } },
            security: [],
          },
        },
      },
      components: {
        parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'integer' } } },
        requestBodies: { Order: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } } },
        schemas: { Order: { type: 'object', properties: { total: { type: 'number' } } } },
      },
      security: [{ key: [] }],
    };
    const detail = detailOf(spec, { operationId: 'updateOrder' });

    expect(detail.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
      { name: 'trace', in: 'header', required: true, description: 'Trace id', schema: { type: 'string', format: 'uuid' } },
    ]);
    expect(detail.deprecated).toBe(true);
    expect(detail.requestBody).toEqual({
      required: true,
      content: [{ mediaType: 'application/json', schema: { type: 'object', properties: { total: { type: 'number' } } } }],
    });
    expect(detail.responses[0]).toMatchObject({ status: '2XX', description: 'Updated' });
    // The operation's empty `security` overrides the API's: no credentials.
    expect(detail.security).toEqual([]);
  });

  it('should cut a schema that contains itself with a marker naming it', () => {
    const detail = detailOf(readFixture('circular-openapi31.json'), { operationId: 'getEmployee' });

    expect(detail.parameters).toEqual([{ name: 'id', in: 'path', required: true, description: 'Employee id', schema: { type: 'string' } }]);
    const employee = detail.responses[0].content[0].schema!;
    expect(employee).toMatchObject({
      type: 'object',
      properties: {
        manager: { $circular: '#/components/schemas/Employee' },
        reports: { type: 'array', items: { $circular: '#/components/schemas/Employee' } },
      },
    });
    expect(detail.truncated).toBeUndefined();
  });

  it('should stop expanding at the size limit with a note, and say so', () => {
    const fields = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`field${i}`, { $ref: '#/components/schemas/Big' }]));
    const spec = {
      openapi: '3.1.0',
      info: { title: 'Huge', version: '1' },
      paths: {
        '/huge': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: fields } } } } } } },
      },
      components: {
        schemas: {
          Big: {
            type: 'object',
            properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: 'string', description: 'x'.repeat(40) }])),
          },
        },
      },
    };
    const detail = detailOf(spec, { method: 'GET', path: '/huge' }, 5000);

    expect(detail.truncated).toBe(true);
    const text = JSON.stringify(detail.responses[0].content[0].schema);
    expect(text.length).toBeLessThan(6000);
    expect(text).toContain('"$truncated":"Cut here: this operation\'s schemas pass 5000 characters (OPERATION_DETAIL_MAX_CHARS)"');
  });

  it('should keep 5,000 long properties, a 1 MB description and 10,000 parameters within maxChars, cut where a schema stands', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`p${i}`, { type: 'string', description: `Field ${i}: ${'lorem ipsum '.repeat(40)}`, enum: ['a'] }]),
    );
    const parameters = Array.from({ length: 10_000 }, (_, i) => ({ name: `q${i}`, in: 'query', schema: { $ref: '#/components/schemas/Big' } }));
    const spec = {
      openapi: '3.1.0',
      info: { title: 'Huge', version: '1' },
      paths: {
        '/huge': {
          post: {
            parameters,
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Big' } } } },
            responses: { 200: { description: 'ok' } },
          },
        },
      },
      components: { schemas: { Big: { type: 'object', description: 'word '.repeat(200_000), properties } } },
    };
    const detail = detailOf(spec, { method: 'POST', path: '/huge' });

    expect(detail.truncated).toBe(true);
    expect(schemaChars(detail)).toBeLessThanOrEqual(MAX_CHARS);
    expect(shapeProblems(detail)).toEqual([]);
    // The first parameter's schema, cut in its description; four more whole ones; the rest have no schema.
    expect(markerCount(detail)).toBe(5);
    expect(detail.parameters[0].schema).toEqual({ type: 'object', description: expect.stringMatching(/word…$/), $truncated: expect.any(String) });
    expect(detail.parameters[9999]).toEqual({ name: 'q9999', in: 'query', required: false });
    expect(detail.requestBody?.content[0]).toEqual({ mediaType: 'application/json' });
  });

  it('should keep OpenAPI 3.1 boolean schemas', () => {
    const spec = {
      openapi: '3.1.0',
      info: { title: 'Booleans', version: '1' },
      paths: {
        '/things': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { meta: true, tags: { type: 'array', items: true } }, additionalProperties: false },
                },
              },
            },
            responses: {
              200: { description: 'ok', content: { 'application/json': { schema: true } } },
              204: { description: 'none', content: { 'application/json': { schema: false } } },
            },
          },
        },
      },
    };
    const detail = detailOf(spec, { method: 'POST', path: '/things' });

    expect(detail.requestBody?.content[0].schema).toEqual({
      type: 'object',
      properties: { meta: true, tags: { type: 'array', items: true } },
      additionalProperties: false,
    });
    expect(detail.responses.map((response) => response.content[0].schema)).toEqual([{}, { not: {} }]);
    expect(shapeProblems(detail)).toEqual([]);
  });

  it('should cut a chain of schemas nested past the depth limit', () => {
    const schemas = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`S${i}`, { type: 'object', properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } }]),
    );
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Deep', version: '1' },
      paths: {
        '/deep': {
          post: {
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } },
            responses: { 204: { description: 'ok' } },
          },
        },
      },
      components: { schemas },
    };
    const detail = detailOf(spec, { method: 'POST', path: '/deep' }, 1_000_000);

    expect(detail.truncated).toBe(true);
    expect(JSON.stringify(detail.requestBody)).toContain(`nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
  });

  it('should end a long chain of $refs that point at $refs', () => {
    const schemas = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`S${i}`, { $ref: `#/components/schemas/S${i + 1}` }]));
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Chain', version: '1' },
      paths: {
        '/chain': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } } } } },
      },
      components: { schemas },
    };
    const detail = detailOf(spec, { method: 'GET', path: '/chain' });

    expect(detail.truncated).toBe(true);
    expect(detail.responses[0].content[0].schema).toEqual({ $truncated: `Cut here: the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep` });
  });
});

describe(apiOverview.name, () => {
  it('should give a Swagger 2.0 API its servers, security schemes in OpenAPI 3 terms, and operations without schemas', () => {
    const { document, flavor } = readSpecDocument(readFixture('petstore-swagger2.yaml'));
    const overview = apiOverview(document, flavor);

    expect(overview.description).toMatch(/^This is a sample server Petstore server\./);
    expect(overview.servers).toEqual([{ url: 'https://petstore.swagger.io/v2' }, { url: 'http://petstore.swagger.io/v2' }]);
    expect(overview.securitySchemes).toEqual([
      {
        name: 'petstore_auth',
        type: 'oauth2',
        flows: [
          {
            flow: 'implicit',
            authorizationUrl: 'https://petstore.swagger.io/oauth/authorize',
            scopes: [
              { name: 'write:pets', description: 'modify pets in your account' },
              { name: 'read:pets', description: 'read your pets' },
            ],
          },
        ],
      },
      { name: 'api_key', type: 'apiKey', in: 'header', parameterName: 'api_key' },
    ]);
    expect(overview.operations).toContainEqual({ method: 'GET', path: '/pet/{petId}', summary: 'Find pet by ID', operationId: 'getPetById', tags: ['pet'] });
  });

  it('should pass on what a scheme declares and nothing else it carries', () => {
    const document: SpecDocument = {
      openapi: '3.0.3',
      info: { title: 'Keys', version: '1' },
      servers: [{ url: 'https://{region}.example.com', variables: { region: { default: 'eu', enum: ['eu', 'us'] } } }],
      paths: {},
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', 'x-example-token': 'secret-token-value' },
          oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration', clientSecret: 's3cr3t' },
        },
      },
    };
    const overview = apiOverview(document, 'openapi-3.0');

    expect(overview.servers).toEqual([{ url: 'https://{region}.example.com', variables: { region: { default: 'eu', enum: ['eu', 'us'] } } }]);
    expect(overview.securitySchemes).toEqual([
      { name: 'bearer', type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      { name: 'oidc', type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration' },
    ]);
    expect(JSON.stringify(overview)).not.toMatch(/secret|s3cr3t/);
  });
});
