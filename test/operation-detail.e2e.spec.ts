import request from 'supertest';
import { InternalHeader, PROBLEM_CONTENT_TYPE } from '#contracts';
import { readFixture } from './fixtures/fixtures.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const OTHER_ORG = 'globex';
const MAX_CHARS = 8000;

/** One operation whose response refers to a large schema 300 times: far past the limit once expanded. */
const hugeSpec = {
  openapi: '3.0.3',
  info: { title: 'Warehouse', version: '1' },
  paths: {
    '/inventory': {
      get: {
        operationId: 'getInventory',
        responses: {
          200: {
            description: 'Everything in stock',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`bin${i}`, { $ref: '#/components/schemas/Bin' }])),
                },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Bin: {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`slot${i}`, { type: 'string', description: `Slot ${i} of the bin` }])),
      },
    },
  },
};

/** Another org's API: nothing of it may reach a caller of ORG. */
const secretSpec = {
  openapi: '3.0.3',
  info: { title: 'Globex internal', version: '1', description: 'Globex doomsday device control' },
  paths: { '/doomsday/arm': { post: { operationId: 'armDevice', summary: 'Arm the doomsday device', responses: { 204: { description: 'Armed' } } } } },
};

describe('Operation details over HTTP (gateway → AI app)', () => {
  let stack: TestStack;
  let publisher: string;
  let reader: string;
  let outsider: string;
  const ids: Record<'petstore' | 'circular' | 'huge' | 'secret', string> = { petstore: '', circular: '', huge: '', secret: '' };
  const http = () => request(stack.gateway.getHttpServer());
  const get = (path: string, token = reader) => http().get(`/api-management/apis/${path}`).set('authorization', `Bearer ${token}`);

  const register = async (body: object, token: string) => {
    const created = await http().post('/api-management/apis').set('authorization', `Bearer ${token}`).send(body);
    expect(created.status).toBe(201);
    await expect(waitForStatus(stack, token, created.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
    return created.body.apiId as string;
  };

  beforeAll(async () => {
    stack = await startStack({ env: { OPERATION_DETAIL_MAX_CHARS: String(MAX_CHARS) } });
    publisher = await stack.token([ORG], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    outsider = await stack.token([OTHER_ORG], ['publisher']);
    ids.petstore = await register({ orgId: ORG, name: 'Petstore', version: '1.0.7', spec: readFixture('petstore-swagger2.yaml') }, publisher);
    ids.circular = await register({ orgId: ORG, name: 'Org Chart', version: '2.0.0', spec: readFixture('circular-openapi31.json') }, publisher);
    ids.huge = await register({ orgId: ORG, name: 'Warehouse', version: '1', spec: hugeSpec }, publisher);
    ids.secret = await register({ orgId: OTHER_ORG, name: 'Globex internal', version: '1', spec: secretSpec }, outsider);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("should give an API's description, servers, security schemes and operations without schemas", async () => {
    const response = await get(`${ids.petstore}/operations`);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      apiId: ids.petstore,
      revision: 1,
      servers: [{ url: 'https://petstore.swagger.io/v2' }, { url: 'http://petstore.swagger.io/v2' }],
    });
    expect(response.body.description).toMatch(/^This is a sample server Petstore server/);
    expect(response.body.securitySchemes).toContainEqual({ name: 'api_key', type: 'apiKey', in: 'header', parameterName: 'api_key' });
    expect(
      response.body.securitySchemes
        .find((scheme: { name: string }) => scheme.name === 'petstore_auth')
        .flows[0].scopes.map((scope: { name: string }) => scope.name),
    ).toEqual(['write:pets', 'read:pets']);
    expect(response.body.operations).toContainEqual({
      method: 'POST',
      path: '/store/order',
      summary: 'Place an order for a pet',
      operationId: 'placeOrder',
      tags: ['store'],
    });
    expect(JSON.stringify(response.body)).not.toContain('schema');
  });

  it('should give a Swagger 2.0 operation its parameters, body and responses, schemas dereferenced', async () => {
    const byId = await get(`${ids.petstore}/operations/detail?operationId=addPet`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ apiId: ids.petstore, revision: 1, method: 'POST', path: '/pet', operationId: 'addPet', parameters: [] });
    expect(byId.body.requestBody).toMatchObject({ required: true, content: [{ mediaType: 'application/json' }, { mediaType: 'application/xml' }] });
    expect(byId.body.requestBody.content[0].schema).toMatchObject({
      type: 'object',
      required: ['name', 'photoUrls'],
      properties: { tags: { type: 'array', items: { type: 'object' } } },
    });
    expect(byId.body.responses).toEqual([{ status: '405', description: 'Invalid input', content: [] }]);
    expect(byId.body.security).toEqual([[{ scheme: 'petstore_auth', scopes: ['write:pets', 'read:pets'] }]]);

    const byPath = await get(`${ids.petstore}/operations/detail?method=get&path=${encodeURIComponent('/pet/{petId}')}`);
    expect(byPath.status).toBe(200);
    expect(byPath.body.parameters).toEqual([
      { name: 'petId', in: 'path', required: true, description: 'ID of pet to return', schema: { type: 'integer', format: 'int64' } },
    ]);
    expect(byPath.body.responses[0]).toMatchObject({
      status: '200',
      content: [{ mediaType: 'application/json', schema: { description: 'A pet for sale in the pet store' } }],
    });
    expect(JSON.stringify(byPath.body)).not.toContain('$ref');
  });

  it('should cut a circular OpenAPI 3.1 schema with a marker and merge the path-level parameter', async () => {
    const response = await get(`${ids.circular}/operations/detail?operationId=getEmployee`);

    expect(response.status).toBe(200);
    expect(response.body.parameters).toEqual([{ name: 'id', in: 'path', required: true, description: 'Employee id', schema: { type: 'string' } }]);
    expect(response.body.responses[0].content[0].schema).toMatchObject({
      type: 'object',
      properties: {
        email: { type: 'string' },
        manager: { $circular: '#/components/schemas/Employee' },
        reports: { items: { $circular: '#/components/schemas/Employee' } },
      },
    });
  });

  it('should cut schemas past OPERATION_DETAIL_MAX_CHARS with a note saying so', async () => {
    const response = await get(`${ids.huge}/operations/detail?operationId=getInventory`);

    expect(response.status).toBe(200);
    expect(response.body.truncated).toBe(true);
    const schema = JSON.stringify(response.body.responses[0].content[0].schema);
    expect(schema).toContain(`Cut here: this operation's schemas pass ${MAX_CHARS} characters (OPERATION_DETAIL_MAX_CHARS)`);
    expect(schema.length).toBeLessThan(MAX_CHARS * 1.2);
  });

  it("should answer another org's API as not found, with nothing of it, at the gateway and at the AI app", async () => {
    for (const path of [`${ids.secret}/operations`, `${ids.secret}/operations/detail?operationId=armDevice`]) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toContain(PROBLEM_CONTENT_TYPE);
      expect(response.text).not.toMatch(/doomsday|Globex|armDevice/i);
    }
    // The AI app scopes by the caller's orgs itself, whatever reaches it.
    const direct = await request(stack.ai!.getHttpServer())
      .get(`/apis/${ids.secret}/operations/detail?operationId=armDevice`)
      .set(InternalHeader.ServiceToken, stack.aiConfig.serviceToken)
      .set(InternalHeader.CallerOrgs, ORG);
    expect(direct.status).toBe(404);
    expect(direct.text).not.toMatch(/doomsday|Globex|armDevice/i);
    await expect(get(`${ids.secret}/operations/detail?operationId=armDevice`, outsider)).resolves.toMatchObject({
      status: 200,
      body: { summary: 'Arm the doomsday device' },
    });
  });

  it('should answer an unknown operation with 404', async () => {
    const byId = await get(`${ids.petstore}/operations/detail?operationId=feedPet`);
    expect(byId.status).toBe(404);
    expect(byId.body.detail).toContain('operationId "feedPet"');
    const byPath = await get(`${ids.petstore}/operations/detail?method=PATCH&path=/pet`);
    expect(byPath.status).toBe(404);
    expect(byPath.body.detail).toContain('PATCH /pet');
  });

  it.each([
    ['', 'Name the operation: operationId, or method and path'],
    ['?method=GET', 'path is required with method'],
    ['?path=/pet', 'method is required with path'],
    ['?operationId=addPet&method=POST', 'Give either operationId, or method and path, not both'],
    ['?method=get%20it&path=/pet', 'method must be an operation verb of up to 16 letters'],
    ['?method=GET&path=', "path must be the operation's address"],
    ['?operationId=addPet&verbose=1', 'property verbose should not exist'],
  ])('should refuse the query "%s" with 400 and the reason', async (query, reason) => {
    const response = await get(`${ids.petstore}/operations/detail${query}`);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toContain(PROBLEM_CONTENT_TYPE);
    expect(response.body.detail).toContain(reason);
  });

  it("should document both routes and the detail query in the gateway's OpenAPI document", async () => {
    const docs = await http().get('/docs/openapi.json');
    const detail = docs.body.paths['/api-management/apis/{apiId}/operations/detail'].get;
    expect(detail.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(expect.arrayContaining(['apiId', 'operationId', 'method', 'path']));
    expect(Object.keys(detail.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
    expect(docs.body.paths['/api-management/apis/{apiId}/operations'].get.responses['200']).toBeDefined();
    expect(docs.body.components.schemas.ApiOperationDetailDoc.properties.security.items.type).toBe('array');
  });

  it('should answer from the newly indexed revision after an update', async () => {
    const spec = JSON.parse(readFixture('circular-openapi31.json'));
    spec.paths['/employees/{id}'].get.summary = 'Get one employee';
    const updated = await http()
      .put(`/api-management/apis/${ids.circular}`)
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Org Chart', version: '2.0.1', spec });
    expect(updated.status).toBe(200);
    await expect(waitForStatus(stack, reader, ids.circular)).resolves.toMatchObject({ status: 'COMPLETED' });

    const response = await get(`${ids.circular}/operations/detail?operationId=getEmployee`);
    expect(response.body).toMatchObject({ revision: 2, summary: 'Get one employee' });
  });
});
