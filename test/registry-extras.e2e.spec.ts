import request from 'supertest';
import { readFixture } from './fixtures/fixtures.js';
import { startStack, type TestStack, until, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const OTHER_ORG = 'globex';

/** A small OpenAPI document whose operations carry these tags (one operation per tag, plus one with all of them). */
function taggedSpec(title: string, tags: string[]) {
  const paths: Record<string, object> = Object.fromEntries(
    tags.map((tag, index) => [`/things${index}`, { get: { tags: [tag], summary: `List things ${index}`, responses: { 200: { description: 'ok' } } } }]),
  );
  paths['/all'] = { post: { tags, summary: 'Do everything', responses: { 200: { description: 'ok' } } } };
  return { openapi: '3.0.3', info: { title, version: '1.0.0' }, paths };
}

describe('Registered specs and search facets over HTTP', () => {
  let stack: TestStack;
  let publisher: string;
  let reader: string;
  let outsider: string;
  let http: () => ReturnType<typeof request>;

  const register = async (body: object, token = publisher) => {
    const created = await http().post('/api-management/apis').set('authorization', `Bearer ${token}`).send(body);
    expect(created.status).toBe(201);
    await expect(waitForStatus(stack, token, created.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
    return created.body.apiId as string;
  };
  const getSpec = (apiId: string, token = reader, query = '') =>
    http()
      .get(`/api-management/apis/${apiId}/spec${query}`)
      .set('authorization', `Bearer ${token}`)
      .buffer(true)
      .parse((response, done) => {
        // The body as text, whatever its type (supertest would parse JSON and drop YAML).
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => done(null, text));
      });
  const getFacets = (orgId: string | undefined, token = reader) =>
    http()
      .get(`/api-management/ai/facets${orgId === undefined ? '' : `?orgId=${encodeURIComponent(orgId)}`}`)
      .set('authorization', `Bearer ${token}`);

  beforeAll(async () => {
    stack = await startStack();
    http = () => request(stack.gateway.getHttpServer());
    publisher = await stack.token([ORG], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    outsider = await stack.token([OTHER_ORG], ['publisher']);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  describe('GET /api-management/apis/:apiId/spec', () => {
    const weather = {
      openapi: '3.0.3',
      info: { title: 'Weather', version: '2.0.0' },
      paths: { '/forecast': { get: { summary: 'Forecast', responses: { 200: { description: 'ok' } } } } },
    };
    const petstoreYaml = readFixture('petstore-swagger2.yaml');
    let jsonId: string;
    let yamlId: string;

    beforeAll(async () => {
      jsonId = await register({ orgId: ORG, name: 'Weather Service', version: '2.0.0', spec: weather });
      yamlId = await register({ orgId: ORG, name: 'Pet "Store" / EU', version: '1.0.7 beta', spec: petstoreYaml });
    }, 120_000);

    it('should serve a spec registered as JSON as application/json, unchanged', async () => {
      const response = await getSpec(jsonId);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(JSON.parse(response.body)).toEqual(weather);
    });

    it('should serve a spec registered as YAML as application/yaml, as it was sent', async () => {
      const response = await getSpec(yamlId);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/yaml/);
      expect(response.body).toBe(petstoreYaml);
    });

    it('should offer a download named after the API, in characters safe for a header and a file system', async () => {
      const json = await getSpec(jsonId, reader, '?download=true');
      expect(json.status).toBe(200);
      expect(json.headers['content-disposition']).toBe('attachment; filename="Weather-Service-2.0.0.json"');
      const yaml = await getSpec(yamlId, reader, '?download=true');
      expect(yaml.headers['content-disposition']).toBe('attachment; filename="Pet-Store-EU-1.0.7-beta.yaml"');
      expect(yaml.body).toBe(petstoreYaml);
      expect((await getSpec(jsonId, reader, '?download=false')).headers['content-disposition']).toBeUndefined();
    });

    it("should answer 404 for another org's API and for an unknown one, 400 for a bad download flag, 401 without a token", async () => {
      const foreign = await getSpec(jsonId, outsider);
      expect(foreign.status).toBe(404);
      expect(foreign.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(foreign.body).detail).toContain(jsonId);
      expect((await getSpec('00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await getSpec('not-a-uuid')).status).toBe(404);
      expect((await getSpec(jsonId, reader, '?download=yes')).status).toBe(400);
      expect((await http().get(`/api-management/apis/${jsonId}/spec`)).status).toBe(401);
    });

    it('should serve the newest revision after an update', async () => {
      const updated = { ...weather, info: { ...weather.info, version: '2.1.0' } };
      const put = await http()
        .put(`/api-management/apis/${jsonId}`)
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: ORG, name: 'Weather Service', version: '2.1.0', spec: updated });
      expect(put.status).toBe(200);
      const response = await getSpec(jsonId, reader, '?download=true');
      expect(JSON.parse(response.body)).toEqual(updated);
      expect(response.headers['content-disposition']).toBe('attachment; filename="Weather-Service-2.1.0.json"');
    });
  });

  describe('GET /api-management/ai/facets', () => {
    let shippingId: string;

    beforeAll(async () => {
      // Teams and tags in mixed case: "payments"/"refunds" are the spellings most APIs use.
      await register({ orgId: ORG, name: 'Cards', version: '1', teamName: 'payments', spec: taggedSpec('Cards', ['refunds', 'Cards']) });
      await register({ orgId: ORG, name: 'Wallet', version: '1', teamName: 'payments', spec: taggedSpec('Wallet', ['refunds', 'wallets']) });
      // One API with both spellings on its operations counts once.
      await register({ orgId: ORG, name: 'Refunds', version: '1', teamName: 'Payments', spec: taggedSpec('Refunds', ['Refunds', 'refunds']) });
      shippingId = await register({ orgId: ORG, name: 'Shipping', version: '1', teamName: 'Shipping', spec: taggedSpec('Shipping', ['parcels']) });
      // Another org's APIs count for that org only.
      await register(
        { orgId: OTHER_ORG, name: 'Globex pay', version: '1', teamName: 'payments', spec: taggedSpec('Globex pay', ['refunds', 'secret-tag']) },
        outsider,
      );
    }, 180_000);

    it("should count the org's APIs per team and per tag, case-insensitively, most used first", async () => {
      const response = await getFacets(ORG);
      expect(response.status).toBe(200);
      expect(response.body.teams).toEqual([
        { name: 'payments', apiCount: 3 },
        { name: 'Shipping', apiCount: 1 },
      ]);
      expect(response.body.tags).toEqual([
        { name: 'refunds', apiCount: 3 },
        { name: 'Cards', apiCount: 1 },
        { name: 'parcels', apiCount: 1 },
        // The Petstore registered above.
        { name: 'pet', apiCount: 1 },
        { name: 'store', apiCount: 1 },
        { name: 'user', apiCount: 1 },
        { name: 'wallets', apiCount: 1 },
      ]);
      const other = await getFacets(OTHER_ORG, outsider);
      expect(other.body).toEqual({
        teams: [{ name: 'payments', apiCount: 1 }],
        tags: [
          { name: 'refunds', apiCount: 1 },
          { name: 'secret-tag', apiCount: 1 },
        ],
        kinds: [{ name: 'openapi', apiCount: 1 }],
      });
    });

    it('should refuse an org the caller is not in (403) and a missing orgId (400)', async () => {
      const foreign = await getFacets(OTHER_ORG);
      expect(foreign.status).toBe(403);
      expect(foreign.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect((await getFacets(undefined)).status).toBe(400);
      expect((await http().get(`/api-management/ai/facets?orgId=${ORG}`)).status).toBe(401);
    });

    it("should leave out a deleted API's team and tags", async () => {
      const deleted = await http().delete(`/api-management/apis/${shippingId}`).set('authorization', `Bearer ${publisher}`);
      expect(deleted.status).toBe(204);
      const facets = await until(
        async () => (await getFacets(ORG)).body as { teams: { name: string }[]; tags: { name: string }[] },
        (body) => !body.tags.some((tag) => tag.name === 'parcels') && !body.teams.some((team) => team.name === 'Shipping'),
      );
      expect(facets.teams.map((team) => team.name)).toEqual(['payments']);
      expect(facets.tags.map((tag) => tag.name)).toEqual(['refunds', 'Cards', 'pet', 'store', 'user', 'wallets']);
    });
  });
});
