import request from 'supertest';
import { DataSource } from 'typeorm';
import { IndexingProducer } from '../apps/gateway/src/indexing/indexing.producer.js';
import { readFixture, restbenchSpec } from './fixtures/fixtures.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const OTHER_ORG = 'globex';

describe('Platform over HTTP (gateway + AI app, PGlite, Redis)', () => {
  let stack: TestStack;
  let publisher: string;
  let reader: string;
  let outsider: string;
  let http: () => ReturnType<typeof request>;

  const register = (body: object, token = publisher) => http().post('/api-management/apis').set('authorization', `Bearer ${token}`).send(body);
  const search = (body: object, token = reader) => http().post('/api-management/ai/search').set('authorization', `Bearer ${token}`).send(body);

  beforeAll(async () => {
    // local: the searches here find APIs by meaning, with the model the platform ships.
    stack = await startStack({ env: { EMBEDDINGS_PROVIDER: 'local' } });
    http = () => request(stack.gateway.getHttpServer());
    publisher = await stack.token([ORG], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    outsider = await stack.token([OTHER_ORG], ['publisher']);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  describe('indexing and search', () => {
    let spotifyId: string;
    let petstoreId: string;

    it('should register the Spotify spec as PENDING, index it and find it by a natural-language query', async () => {
      const created = await register({ orgId: ORG, name: 'Spotify Web API', version: '1.0', teamName: 'music', spec: restbenchSpec('spotify') });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ orgId: ORG, name: 'Spotify Web API', revision: 1, indexing: { status: 'PENDING' } });
      spotifyId = created.body.apiId;

      const petstore = await register({ orgId: ORG, name: 'Petstore', version: '1.0.7', teamName: 'pets', spec: readFixture('petstore-swagger2.yaml') });
      expect(petstore.status).toBe(201);
      petstoreId = petstore.body.apiId;

      const status = await waitForStatus(stack, reader, spotifyId, ['COMPLETED', 'FAILED'], 120_000);
      expect(status).toMatchObject({ status: 'COMPLETED' });
      expect(status.chunkCount).toBeGreaterThan(JSON.parse(restbenchSpec('spotify')).paths ? 80 : 0);
      expect(Date.parse(status.indexedAt!)).not.toBeNaN();
      await expect(waitForStatus(stack, reader, petstoreId)).resolves.toMatchObject({ status: 'COMPLETED' });

      const response = await search({ orgId: ORG, query: 'add some songs to one of my playlists' });
      expect(response.status).toBe(200);
      const [first] = response.body.results;
      expect(first).toMatchObject({ apiId: spotifyId, apiName: 'Spotify Web API', version: '1.0', teamName: 'music' });
      // Registered without a description: the card shows the start of the spec's own.
      expect(first.description).toMatch(/^You can use Spotify's Web API to discover music and podcasts, .{100,}…$/);
      expect(first.endpoints).toContainEqual(expect.objectContaining({ method: 'POST', path: '/playlists/{playlist_id}/tracks' }));
      expect(first.relevanceScore).toBeGreaterThan(0);
      expect(first.relevanceScore).toBeLessThanOrEqual(1);
      expect(first.matchedChunks.length).toBeGreaterThan(0);
      expect(response.body.totalFound).toBeGreaterThanOrEqual(1);
      expect(typeof response.body.queryEmbeddingMs).toBe('number');
      expect(typeof response.body.searchMs).toBe('number');
    }, 240_000);

    it('should return each API once and respect maxResults and maxEndpoints', async () => {
      const response = await search({ orgId: ORG, query: 'pets and playlists', maxResults: 1, maxEndpoints: 2 });
      expect(response.status).toBe(200);
      expect(response.body.results).toHaveLength(1);
      expect(response.body.results[0].endpoints.length).toBeLessThanOrEqual(2);

      const all = await search({ orgId: ORG, query: 'pets and playlists', maxResults: 50 });
      const ids = all.body.results.map((result: { apiId: string }) => result.apiId);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('should find the Swagger 2.0 Petstore by what it does', async () => {
      const response = await search({ orgId: ORG, query: 'place an order to buy a pet' });
      expect(response.body.results[0].apiId).toBe(petstoreId);
      expect(response.body.results[0].endpoints[0]).toMatchObject({ method: 'POST', path: '/store/order' });
    });

    it('should search a request the same with or without the words that open it', async () => {
      const need = await search({ orgId: ORG, query: 'place an order to buy a pet' });
      const framed = await search({ orgId: ORG, query: 'Is there an API to place an order to buy a pet' });
      expect(framed.body.results.length).toBeGreaterThan(0);
      expect(framed.body.results).toEqual(need.body.results);
    });

    it("should correct a typo against the words of the org's specs in keyword search", async () => {
      const response = await search({ orgId: ORG, query: 'playlsits', mode: 'keyword' });
      expect(response.status).toBe(200);
      expect(response.body.results[0]?.apiId).toBe(spotifyId);
      // Two swapped letters leave few trigrams in common: corrected because it is two edits away.
      const swapped = await search({ orgId: ORG, query: 'sytsem', mode: 'keyword' });
      expect(swapped.body.results[0]?.apiId).toBe(petstoreId);
      const none = await search({ orgId: ORG, query: 'zzzzqqqq', mode: 'keyword' });
      expect(none.body.results).toEqual([]);
      // A word spelt right is no typo, however near a word of the specs ("pets").
      const english = await search({ orgId: ORG, query: 'pots', mode: 'keyword' });
      expect(english.body.results).toEqual([]);
    });

    it('should find an operation by the words of its path alone', async () => {
      const spec = {
        openapi: '3.0.3',
        info: { title: 'Fleet', version: '1' },
        paths: { '/widgets/{id}/recalibrate': { post: { responses: { '204': { description: 'Done' } } } } },
      };
      const created = await register({ orgId: ORG, name: 'Fleet', version: '1', spec });
      await expect(waitForStatus(stack, reader, created.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
      const response = await search({ orgId: ORG, query: 'recalibrate', mode: 'keyword' });
      expect(response.body.results[0]).toMatchObject({ apiId: created.body.apiId, endpoints: [{ method: 'POST', path: '/widgets/{id}/recalibrate' }] });
    });

    it('should move the search operation up among the endpoints when the query names something', async () => {
      const searchPosition = async (query: string, mode = 'hybrid') => {
        const response = await search({ orgId: ORG, query, mode, maxEndpoints: 50 });
        const spotify = response.body.results.find((result: { apiId: string }) => result.apiId === spotifyId);
        return spotify.endpoints.findIndex((endpoint: { method: string; path: string }) => endpoint.method === 'GET' && endpoint.path === '/search');
      };
      const named = await searchPosition('Follow Taylor Swift');
      expect(named).toBeGreaterThanOrEqual(0);
      expect(named).toBeLessThan(5);
      // The same words, no longer a name.
      expect(await searchPosition('follow taylor swift')).toBeGreaterThan(named);
      // A name the specs know is no data to look up (keyword search: query vectors differ by case).
      expect(await searchPosition('Follow artists on Spotify', 'keyword')).toBe(await searchPosition('follow artists on spotify', 'keyword'));
      expect(await searchPosition('Follow artists on Taylor', 'keyword')).toBeLessThan(await searchPosition('follow artists on taylor', 'keyword'));
    });

    it('should follow an operation with the one that finds the identifier it needs', async () => {
      const response = await search({ orgId: ORG, query: 'Rename my first playlist to "My First"', maxEndpoints: 10 });
      const spotify = response.body.results.find((result: { apiId: string }) => result.apiId === spotifyId);
      const endpoints = spotify.endpoints.map((endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`);
      const provider = endpoints.indexOf('GET /me/playlists');
      expect(provider).toBeGreaterThan(0);
      expect(provider).toBeLessThan(5);
      expect(endpoints.slice(0, provider).some((endpoint: string) => endpoint.includes('{playlist_id}'))).toBe(true);
    });

    it("should score APIs low when none of the query's words is in any spec", async () => {
      const response = await search({ orgId: ORG, query: 'zzzzqqqq xxyyvv' });
      expect(response.body.results.length).toBeGreaterThan(0);
      for (const result of response.body.results) expect(result).toMatchObject({ match: 'weak', evidence: { termCoverage: 0 } });
    });

    it('should call a card a strong match only when it answers the need, with the same meaning in every search', async () => {
      const songs = await search({ orgId: ORG, query: 'add some songs to one of my playlists' });
      expect(songs.body.results[0]).toMatchObject({ apiId: spotifyId, match: 'strong' });
      expect(songs.body.results[0].relevanceScore).toBeGreaterThanOrEqual(0.5);
      expect(songs.body.results[0].evidence).toEqual({ relative: 1, similarity: expect.any(Number), termCoverage: expect.any(Number) });

      // Nothing in this org tracks code: the nearest cards are still shown, none of them strong.
      const issues = await search({ orgId: ORG, query: 'open an issue on a github repository' });
      expect(issues.body.results.length).toBeGreaterThan(0);
      expect(issues.body.results[0].evidence.relative).toBe(1);
      for (const result of issues.body.results) expect(result.match).not.toBe('strong');
    });

    it('should list every API matching the filters when the query is empty', async () => {
      const response = await search({ orgId: ORG, query: '', filters: { teamNames: ['music'] } });
      expect(response.status).toBe(200);
      expect(response.body.results.map((result: { apiId: string }) => result.apiId)).toEqual([spotifyId]);
      const byMethod = await search({ orgId: ORG, query: '', filters: { methods: ['delete'] }, maxEndpoints: 50 });
      for (const result of byMethod.body.results) {
        expect(result.endpoints.every((endpoint: { method: string }) => endpoint.method === 'DELETE')).toBe(true);
      }
    });

    it('should re-index an API when it is updated', async () => {
      const spec = readFixture('petstore-swagger2.yaml').replace(
        'paths:\n',
        `paths:\n  /pet/{petId}/vaccinations:\n    post:\n      summary: "Record a vaccination given to a pet by a veterinarian"\n      operationId: "recordVaccination"\n      responses:\n        "201":\n          description: "Vaccination recorded"\n`,
      );
      const updated = await http()
        .put(`/api-management/apis/${petstoreId}`)
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: ORG, name: 'Petstore', version: '1.0.8', teamName: 'pets', spec });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ revision: 2, version: '1.0.8', indexing: { status: 'PENDING' } });

      await waitForStatus(stack, reader, petstoreId, ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED']);
      const status = await waitForStatus(stack, reader, petstoreId);
      expect(status.status).toBe('COMPLETED');
      const response = await search({ orgId: ORG, query: 'vet vaccination record for my dog' });
      expect(response.body.results[0]).toMatchObject({ apiId: petstoreId, version: '1.0.8' });
      expect(response.body.results[0].endpoints[0]).toMatchObject({ method: 'POST', path: '/pet/{petId}/vaccinations' });
    });

    it('should take a deleted API out of search results', async () => {
      const deleted = await http().delete(`/api-management/apis/${petstoreId}`).set('authorization', `Bearer ${publisher}`);
      expect(deleted.status).toBe(204);
      const gone = await http().get(`/api-management/apis/${petstoreId}`).set('authorization', `Bearer ${reader}`);
      expect(gone.status).toBe(404);

      const deadline = Date.now() + 30_000;
      let ids: string[] = [petstoreId];
      while (ids.includes(petstoreId) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const response = await search({ orgId: ORG, query: 'place an order to buy a pet', maxResults: 50 });
        ids = response.body.results.map((result: { apiId: string }) => result.apiId);
      }
      expect(ids).not.toContain(petstoreId);
      expect(ids).toContain(spotifyId);
      // Its words leave the org's lexicon with it (they weight and correct keyword search).
      const lexicon = await stack
        .ai!.get(DataSource)
        .query(`SELECT word FROM platform_ai.lexicon WHERE org_id = $1 AND word = ANY($2)`, [ORG, ['vaccin', 'veterinarian', 'petstor']]);
      expect(lexicon).toEqual([]);
    });

    it('should never show an API deleted while it was being indexed', async () => {
      const skippedJobs = async () => {
        const metrics = await request(stack.ai!.getHttpServer()).get('/metrics');
        return Number(/indexing_jobs_total\{kind="index-api",outcome="skipped",service="ai"\} (\d+)/.exec(metrics.text)?.[1] ?? 0);
      };
      const skippedBefore = await skippedJobs();
      const created = await register({ orgId: ORG, name: 'TMDB', version: '3', teamName: 'movies', spec: restbenchSpec('tmdb') });
      const apiId = created.body.apiId;
      await expect(waitForStatus(stack, reader, apiId, ['IN_PROGRESS', 'COMPLETED', 'FAILED'])).resolves.toMatchObject({ status: 'IN_PROGRESS' });
      expect((await http().delete(`/api-management/apis/${apiId}`).set('authorization', `Bearer ${publisher}`)).status).toBe(204);

      // The indexing job finishes after the deletion: it must not make the API live, even for a moment.
      const deadline = Date.now() + 30_000;
      const seen: string[][] = [];
      while ((await skippedJobs()) === skippedBefore && Date.now() < deadline) {
        const response = await search({ orgId: ORG, query: 'movie credits of a person', mode: 'keyword', maxResults: 50 });
        seen.push(response.body.results.map((result: { apiId: string }) => result.apiId));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await skippedJobs()).toBe(skippedBefore + 1);
      expect(seen.flat()).not.toContain(apiId);
      const chunks = await stack.ai!.get(DataSource).query(`SELECT count(*)::int AS n FROM platform_ai.api_chunks WHERE api_id = $1`, [apiId]);
      expect(chunks).toEqual([{ n: 0 }]);
    });

    it('should list and read APIs with their indexing status', async () => {
      const list = await http().get(`/api-management/apis?orgId=${ORG}`).set('authorization', `Bearer ${reader}`);
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(list.body.items.length);
      expect(list.body.items).toContainEqual(expect.objectContaining({ apiId: spotifyId, indexing: expect.objectContaining({ status: 'COMPLETED' }) }));
      const one = await http().get(`/api-management/apis/${spotifyId}`).set('authorization', `Bearer ${reader}`);
      expect(one.body).toMatchObject({ apiId: spotifyId, teamName: 'music', indexing: { status: 'COMPLETED' } });
      expect(one.body).not.toHaveProperty('spec');
      // By team, in any case (as search's teamNames filter).
      const byTeam = await http().get(`/api-management/apis?orgId=${ORG}&teamName=%20MUSIC`).set('authorization', `Bearer ${reader}`);
      expect(byTeam.body.items.map((item: { apiId: string }) => item.apiId)).toEqual([spotifyId]);
    });

    it('should never show one org the APIs of another', async () => {
      const own = await search({ orgId: OTHER_ORG, query: 'add songs to a playlist' }, outsider);
      expect(own.status).toBe(200);
      expect(own.body.results).toEqual([]);

      const foreign = await search({ orgId: ORG, query: 'add songs to a playlist' }, outsider);
      expect(foreign.status).toBe(403);
      const read = await http().get(`/api-management/apis/${spotifyId}`).set('authorization', `Bearer ${outsider}`);
      expect(read.status).toBe(404);
      const status = await http().get(`/api-management/ai/indexing-status/${spotifyId}`).set('authorization', `Bearer ${outsider}`);
      expect(status.status).toBe(404);
      const remove = await http().delete(`/api-management/apis/${spotifyId}`).set('authorization', `Bearer ${outsider}`);
      expect(remove.status).toBe(404);
      const list = await http().get('/api-management/apis').set('authorization', `Bearer ${outsider}`);
      expect(list.body).toEqual({ items: [], total: 0 });
      const listForeign = await http().get(`/api-management/apis?orgId=${ORG}`).set('authorization', `Bearer ${outsider}`);
      expect(listForeign.status).toBe(403);
    });
  });

  describe('bad input', () => {
    it.each([
      ['text that is neither JSON nor YAML', 'a: [unclosed', /neither valid JSON nor valid YAML/],
      ['a JSON document of no known format', { hello: 'world' }, /format was not recognised: expected an OpenAPI document/],
      ['an unsupported OpenAPI version', { openapi: '4.0.0', info: { title: 'x', version: '1' }, paths: {} }, /Unsupported OpenAPI version/],
    ])('should refuse %s with 422 and the reason', async (_, spec, reason) => {
      const response = await register({ orgId: ORG, name: 'Bad', version: '1', spec });
      expect(response.status).toBe(422);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.body).toMatchObject({ status: 422, title: 'Unprocessable Content' });
      expect(response.body.detail).toMatch(reason);
      expect(response.body.instance).toBe(response.headers['x-request-id']);
    });

    it('should mark a spec that cannot be resolved FAILED with the parser reason', async () => {
      const spec = {
        openapi: '3.0.3',
        info: { title: 'Broken refs', version: '1' },
        paths: { '/x': { get: { responses: { 200: { $ref: '#/components/responses/Missing' } } } } },
      };
      const created = await register({ orgId: ORG, name: 'Broken refs', version: '1', spec });
      expect(created.status).toBe(201);
      const status = await waitForStatus(stack, reader, created.body.apiId);
      expect(status.status).toBe('FAILED');
      expect(status.error).toMatch(/Missing \$ref pointer|could not be resolved/);
    });

    it('should refuse a second API with the same name and version in an org with 409', async () => {
      const body = { orgId: ORG, name: 'Twin', version: '1', spec: { openapi: '3.0.3', info: { title: 'Twin', version: '1' }, paths: {} } };
      expect((await register(body)).status).toBe(201);
      const twin = await register(body);
      expect(twin.status).toBe(409);
      expect(twin.body.detail).toContain('already exists');
      expect((await register({ ...body, orgId: OTHER_ORG }, outsider)).status).toBe(201);
    });

    it('should refuse to move an API to another org on update', async () => {
      const spec = { openapi: '3.0.3', info: { title: 'Mover', version: '1' }, paths: {} };
      const created = await register({ orgId: ORG, name: 'Mover', version: '1', spec });
      const both = await stack.token([ORG, OTHER_ORG], ['publisher']);
      const moved = await http()
        .put(`/api-management/apis/${created.body.apiId}`)
        .set('authorization', `Bearer ${both}`)
        .send({ orgId: OTHER_ORG, name: 'Mover', version: '1', spec });
      expect(moved.status).toBe(409);
      expect(moved.body.detail).toMatch(/cannot move between orgs/);
      const toForeignOrg = await http()
        .put(`/api-management/apis/${created.body.apiId}`)
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: OTHER_ORG, name: 'Mover', version: '1', spec });
      expect(toForeignOrg.status).toBe(403);
      expect(toForeignOrg.body.detail).toMatch(/not a member of org "globex"/);
    });

    it('should answer 400 with every validation message', async () => {
      const response = await register({ orgId: ORG, version: 7, extra: true });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/name/),
          expect.stringMatching(/version/),
          expect.stringMatching(/spec is required/),
          expect.stringMatching(/extra should not exist/),
        ]),
      );
    });

    it('should validate search requests', async () => {
      const response = await search({ orgId: ORG, query: 'x', maxResults: 500, filters: { methods: ['get it'] } });
      expect(response.status).toBe(400);
      expect(response.body.detail).toMatch(/maxResults must not be greater than 50/);
      expect(response.body.detail).toMatch(/methods must be operation verbs/);
      expect((await search({ query: 'x' })).body).toMatchObject({ status: 400, errors: ['orgId is required'] });
      expect((await search({ orgId: [ORG], query: 'x' })).body).toMatchObject({ status: 400, errors: ['orgId must be a non-empty string'] });
      // A value of the wrong kind is reported as that alone.
      const wrongKind = await search({ orgId: ORG, query: 'x', maxResults: '5', filters: { tags: 'billing' } });
      expect(wrongKind.body.errors).toEqual(['maxResults must be an integer number', 'filters.tags must be an array']);
    });

    it('should refuse a body that is not JSON, or not a JSON object, saying what to send', async () => {
      for (const type of ['application/yaml', 'text/plain']) {
        const response = await http()
          .post('/api-management/apis')
          .set('authorization', `Bearer ${publisher}`)
          .set('content-type', type)
          .send('openapi: 3.0.3\n');
        expect(response.status).toBe(415);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.body.detail).toBe(
          `The request body must be JSON (Content-Type: application/json), not "${type}"; a YAML spec goes in the "spec" field as a string`,
        );
      }
      for (const body of ['"str"', 'null', '{"orgId": ']) {
        const response = await http()
          .post('/api-management/apis')
          .set('authorization', `Bearer ${publisher}`)
          .set('content-type', 'application/json')
          .send(body);
        expect(response.status).toBe(400);
        expect(response.body.detail).toMatch(body.startsWith('{') ? /^The request body is not valid JSON: / : /^The request body must be a JSON object$/);
      }
      const json = await http()
        .post('/api-management/ai/search')
        .set('authorization', `Bearer ${reader}`)
        .set('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ orgId: ORG, query: 'x' }));
      expect(json.status).toBe(200);
    });

    it('should refuse NUL characters in searches and listings with a 400, not fail the query', async () => {
      for (const body of [{ query: '\u0000tide' }, { query: 'tide', filters: { tags: ['a\u0000b'] } }, { query: '', filters: { teamNames: ['a\u0000b'] } }]) {
        const response = await search({ orgId: ORG, ...body });
        expect(response.status).toBe(400);
        expect(response.body.detail).toMatch(/must not contain NUL characters/);
      }
      const listing = await http().get(`/api-management/apis?orgId=${ORG}&teamName=a%00b`).set('authorization', `Bearer ${reader}`);
      expect(listing.status).toBe(400);
      expect(listing.body.detail).toMatch(/teamName must not contain NUL characters/);
    });

    it('should answer 404 for an API id that does not exist or is not a UUID', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const response = await http().get(`/api-management/apis/${id}`).set('authorization', `Bearer ${reader}`);
        expect(response.status).toBe(404);
      }
    });
  });

  describe('authentication and roles', () => {
    it('should answer 401 without a token, with a bad signature, expired, or with malformed claims', async () => {
      const unauthenticated = await http().get('/api-management/apis');
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers['www-authenticate']).toBe('Bearer');
      expect(unauthenticated.body.detail).toMatch(/Missing bearer token/);

      const forged = `${reader.slice(0, -4)}AAAA`;
      expect((await http().get('/api-management/apis').set('authorization', `Bearer ${forged}`)).body.detail).toMatch(/signature/);

      const expired = await stack.token([ORG], ['reader'], { ttlSeconds: -120 });
      expect((await http().get('/api-management/apis').set('authorization', `Bearer ${expired}`)).body.detail).toMatch(/expired/);

      const badRoles = await stack.token([ORG], ['superuser']);
      const response = await http().get('/api-management/apis').set('authorization', `Bearer ${badRoles}`);
      expect(response.status).toBe(401);
      expect(response.body.detail).toMatch(/roles/);
    });

    it('should let readers read but not write, and check the org of every write', async () => {
      const spec = { openapi: '3.0.3', info: { title: 'R', version: '1' }, paths: {} };
      const asReader = await register({ orgId: ORG, name: 'R', version: '1', spec }, reader);
      expect(asReader.status).toBe(403);
      expect(asReader.body.detail).toMatch(/publisher/);
      expect((await register({ orgId: OTHER_ORG, name: 'R', version: '1', spec })).status).toBe(403);
      const admin = await stack.token([ORG], ['admin']);
      expect((await register({ orgId: ORG, name: 'R', version: '1', spec }, admin)).status).toBe(201);
    });

    it('should keep the AI app closed to callers without the service token', async () => {
      const response = await request(stack.ai!.getHttpServer()).post('/search').send({ orgId: ORG, query: 'x' });
      expect(response.status).toBe(401);
      expect((await request(stack.ai!.getHttpServer()).get('/healthz')).status).toBe(200);
    });

    it('should expose Prometheus metrics from both apps without a token', async () => {
      const gateway = await http().get('/metrics');
      expect(gateway.status).toBe(200);
      expect(gateway.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(gateway.text).toMatch(/http_request_duration_seconds_bucket\{.*route="\/api-management\/ai\/search".*\}/);
      expect(gateway.text).toMatch(/indexing_queue_jobs\{state="waiting",service="gateway"\} \d+/);
      const ai = await request(stack.ai!.getHttpServer()).get('/metrics');
      expect(ai.status).toBe(200);
      expect(ai.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(ai.text).toMatch(/indexing_jobs_total\{kind="index-api",outcome="completed",service="ai"\} [1-9]/);
      expect(ai.text).toMatch(/embedding_batch_size_count\{service="ai"\} [1-9]/);
      expect(ai.text).toContain('process_cpu_seconds_total');
    });

    it('should serve health checks without a token', async () => {
      expect((await http().get('/healthz')).status).toBe(200);
      const ready = await http().get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toEqual({ database: 'ok', redis: 'ok', ai: 'ok' });
    });
  });

  // Last: the AI app goes away for good.
  describe('with the AI app down', () => {
    beforeAll(async () => {
      await stack.stopAi();
    });

    it('should answer 503 for search and still accept registrations', async () => {
      const searchResponse = await search({ orgId: ORG, query: 'x' }, publisher);
      expect(searchResponse.status).toBe(503);
      expect(searchResponse.body.detail).toMatch(/unavailable/);

      const spec = { openapi: '3.0.3', info: { title: 'Queued', version: '1' }, paths: {} };
      const created = await register({ orgId: ORG, name: 'Queued', version: '1', spec });
      expect(created.status).toBe(201);
      expect(created.body.indexing).toEqual({ status: 'PENDING' });
      const ready = await http().get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.detail).toMatch(/^Not ready: ai \(/);
    });
  });
});

describe('Gateway with Redis down', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // Its own stack: no Redis (and so no AI app) from the start.
    stack = await startStack({ withoutRedis: true });
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should still accept a registration at once and keep it for delivery later', async () => {
    const token = await stack.token([ORG], ['publisher']);
    const spec = { openapi: '3.0.3', info: { title: 'Kept', version: '1' }, paths: {} };
    const started = Date.now();
    const created = await request(stack.gateway.getHttpServer())
      .post('/api-management/apis')
      .set('authorization', `Bearer ${token}`)
      .send({ orgId: ORG, name: 'Kept', version: '1', spec });
    expect(created.status).toBe(201);
    // Sooner than the 5 s the gateway gives the queue to take a job: it did not wait for Redis.
    expect(Date.now() - started).toBeLessThan(5000);

    // The registry row is the outbox: a delivery fails while Redis is down, and the row still waits for the queue.
    // (Both calls wait out a Redis time-out: side by side.)
    const [delivered, ready] = await Promise.all([
      stack.gateway.get(IndexingProducer).deliver(created.body.apiId),
      request(stack.gateway.getHttpServer()).get('/readyz'),
    ]);
    expect(delivered).toBe(false);
    const [row] = await stack.gateway.get(DataSource).query(`SELECT revision, queued_revision FROM platform_backend.apis WHERE id = $1`, [created.body.apiId]);
    expect(row).toEqual({ revision: 1, queued_revision: 0 });
    expect(ready.status).toBe(503);
    expect(ready.body.detail).toMatch(/redis/);
  });
});
