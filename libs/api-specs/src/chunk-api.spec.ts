import { type ApiFacts, chunkApi, type ChunkLimits, humanize } from './chunk-api.js';
import { fieldNames } from './formats/shared/field-names.js';
import { type LoadedSpec, loadSpec } from './formats/openapi/dereference.js';
import { openApiModel } from './formats/openapi/openapi-model.js';
import { operationsOf, readFixture, restbenchSpec } from '../../../test/fixtures/fixtures.js';

const facts = (name: string) => ({ name, version: '1', teamName: 'team-a' });
/** An OpenAPI spec through its format's model into chunks, as the indexing worker does. */
const chunkSpec = (spec: LoadedSpec, apiFacts: ApiFacts, limits?: ChunkLimits) => chunkApi(openApiModel(spec), apiFacts, limits);

describe(chunkApi.name, () => {
  it.each(['spotify', 'tmdb'] as const)('should make one L1 chunk and one L2 chunk per operation of the %s spec', async (name) => {
    const text = restbenchSpec(name);
    const chunks = chunkSpec(await loadSpec(text), facts(name)).chunks;

    const l2 = chunks.filter((chunk) => chunk.level === 'L2').map((chunk) => `${chunk.method} ${chunk.path}`);
    expect(l2.sort()).toEqual(operationsOf(text).sort());
    expect(chunks.filter((chunk) => chunk.key === 'api')).toHaveLength(1);
    expect(new Set(chunks.map((chunk) => chunk.key)).size).toBe(chunks.length);
  });

  it('should give every chunk its own key when a kind names the same verb and address twice (AsyncAPI 3.0 on one channel)', () => {
    const op = (operationId: string) => ({ method: 'SEND', path: '/', operationId, summary: `Send ${operationId}`, tags: [], inputs: [] });
    const model = {
      kind: 'asyncapi',
      format: 'AsyncAPI 3.0.0',
      servers: [],
      securitySchemes: [],
      tags: [],
      operations: [op('ping'), op('subscribe'), op('unsubscribe')],
      schemas: [],
    };
    const keys = chunkApi(model, facts('Kraken')).chunks.map((chunk) => chunk.key);
    expect(keys.filter((key) => key.startsWith('op:'))).toEqual(['op:SEND /', 'op:SEND /#2', 'op:SEND /#3']);
  });

  it("should give keyword search the words of a named operation's name that its text does not say, which the index reads as one word", () => {
    const op = (name: string, operationId: string, summary: string) => ({
      method: 'RPC',
      path: `secrets.v1.Secrets/${name}`,
      operationId,
      name,
      summary,
      tags: [],
      inputs: [],
    });
    const model = {
      kind: 'grpc',
      format: 'proto3',
      servers: [],
      securitySchemes: [],
      tags: [],
      operations: [
        op('AddSecretVersion', 'Secrets.AddSecretVersion', 'Stores new secret data.'),
        op('DestroySecretVersions', 'Secrets.DestroySecretVersions', 'Destroys the versions of a secret.'),
        op('create_issue', 'create_issue', 'Opens one.'),
      ],
      schemas: [],
    };
    const [add, destroy, tool] = chunkApi(model, facts('Secrets')).chunks.filter((chunk) => chunk.level === 'L2');
    expect(add.text).toContain('Operation: Secrets.AddSecretVersion (add version)');
    // Said already, as a word or its plural: the index would count it twice.
    expect(destroy.text.split('\n')).toContain('Operation: Secrets.DestroySecretVersions');
    // snake_case the index splits by itself, from the address.
    expect(tool.text.split('\n')).toContain('Operation: create_issue');
  });

  it('should describe an operation with its summary, parameters, body fields and a context prefix', async () => {
    const chunks = chunkSpec(await loadSpec(restbenchSpec('spotify')), facts('Spotify')).chunks;
    const addTracks = chunks.find((chunk) => chunk.key === 'op:POST /playlists/{playlist_id}/tracks')!;

    expect(addTracks.title).toBe('POST /playlists/{playlist_id}/tracks — Add Items to Playlist');
    expect(addTracks.text).toContain('playlist_id (path)');
    expect(addTracks.text).toMatch(/Request body: .*uris/);
    expect(addTracks.operationId).toBe('add-tracks-to-playlist');
    expect(addTracks.embedText.startsWith('[Spotify · POST /playlists/{playlist_id}/tracks]')).toBe(true);
    expect(addTracks.text).not.toContain('[Spotify');
  });

  it('should summarise an operation without a summary by the first sentence of its description', async () => {
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Refunds', version: '1' },
      paths: {
        '/v1/refunds/{refund}': {
          get: { description: 'Retrieves the details of an existing refund. Supply the unique refund ID.', responses: { 200: { description: 'OK' } } },
        },
        '/v1/refunds': { get: { description: 'Returns a list of all refunds', responses: { 200: { description: 'OK' } } } },
      },
    };
    const chunks = chunkSpec(await loadSpec(JSON.stringify(spec)), facts('Refunds')).chunks;

    const one = chunks.find((chunk) => chunk.key === 'op:GET /v1/refunds/{refund}')!;
    expect(one.summary).toBe('Retrieves the details of an existing refund.');
    expect(one.title).toBe('GET /v1/refunds/{refund} — Retrieves the details of an existing refund.');
    expect(one.text).toContain('Supply the unique refund ID.');
    expect(chunks.find((chunk) => chunk.key === 'op:GET /v1/refunds')!.summary).toBe('Returns a list of all refunds');
  });

  it('should chunk a Swagger 2.0 YAML spec, with body fields from definitions and L3 schema chunks', async () => {
    const spec = await loadSpec(readFixture('petstore-swagger2.yaml'));
    const chunks = chunkSpec(spec, facts('Swagger Petstore')).chunks;

    expect(spec.flavor).toBe('swagger-2.0');
    expect(chunks.filter((chunk) => chunk.level === 'L2')).toHaveLength(7);
    const l1 = chunks.find((chunk) => chunk.key === 'api')!;
    expect(l1.text).toContain('Servers: petstore.swagger.io/v2');
    expect(l1.text).toContain('petstore_auth (oauth2)');
    expect(l1.text).toContain('pet (Everything about your Pets)');
    expect(l1.text).not.toMatch(/\]\(http/);
    const addPet = chunks.find((chunk) => chunk.key === 'op:POST /pet')!;
    expect(addPet.text).toMatch(/Request body: id, category, name, photoUrls, tags, status/);
    const pet = chunks.find((chunk) => chunk.key === 'schema:Pet')!;
    expect(pet.level).toBe('L3');
    expect(pet.text).toContain('status: pet status in the store');
  });

  it('should chunk an OpenAPI 3.1 spec whose schemas are circular, with clean text from HTML', async () => {
    const chunks = chunkSpec(await loadSpec(readFixture('circular-openapi31.json')), facts('Org Chart API')).chunks;

    const op = chunks.find((chunk) => chunk.key === 'op:GET /employees/{id}')!;
    expect(op.text).toContain('id (path): Employee id');
    expect(op.text).toMatch(/fields id, email, manager, reports/);
    expect(chunks.find((chunk) => chunk.key === 'api')!.text).toContain('Browse an organisation chart: employees');
  });

  it('should refuse a spec with neither operations nor schemas: nothing to search for', async () => {
    const spec = await loadSpec({ openapi: '3.0.3', info: { title: 'Empty', version: '1' }, paths: {} });
    expect(() => chunkSpec(spec, facts('Empty'))).toThrow(/no operations and no schemas/);
  });

  it('should split a long API description over several L1 chunks', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} explains one more capability of the API.`).join(' ');
    const paths = { '/things': { get: { summary: 'List things', responses: { 200: { description: 'ok' } } } } };
    const spec = await loadSpec({ openapi: '3.0.3', info: { title: 'Long', version: '1', description: long }, paths });
    const l1 = chunkSpec(spec, facts('Long')).chunks.filter((chunk) => chunk.level === 'L1');

    expect(l1.length).toBeGreaterThan(1);
    expect(l1.map((chunk) => chunk.text).join(' ')).toContain('Sentence number 59');
  });
});

describe(`${chunkSpec.name} within its limits`, () => {
  const operations = (count: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`/things/${i}`, { get: { summary: `Read thing ${i}`, responses: { 200: { description: 'ok' } } } }]),
    );
  const schemas = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`Thing${i}`, { type: 'object', properties: { [`field${i}`]: { type: 'string' } } }]));
  const limits = { maxChunks: 50, maxSchemas: 20, maxEmbedChars: 300 };

  it('should keep the overview and the first operations, then schemas, up to the chunk limit, and say what it left out', async () => {
    const spec = await loadSpec({ openapi: '3.0.3', info: { title: 'Big', version: '1' }, paths: operations(60), components: { schemas: schemas(10) } });
    const { chunks, warnings } = chunkSpec(spec, facts('Big'), { ...limits, maxEmbedChars: 2000 });

    expect(chunks).toHaveLength(50);
    expect(chunks.filter((chunk) => chunk.level === 'L1').map((chunk) => chunk.key)).toEqual(['api', 'api#profile']);
    expect(chunks.filter((chunk) => chunk.level === 'L2').map((chunk) => chunk.path)).toEqual(Array.from({ length: 48 }, (_, i) => `/things/${i}`));
    expect(chunks.filter((chunk) => chunk.level === 'L3')).toHaveLength(0);
    expect(warnings).toEqual([
      'Indexed 48 of 60 operations and 0 of 10 schemas: an API may have 50 chunks (INDEX_MAX_CHUNKS); the rest cannot be found by search',
    ]);
  });

  it('should make schema chunks of the first schemas only, and say how many there are', async () => {
    const spec = await loadSpec({ openapi: '3.0.3', info: { title: 'Models', version: '1' }, paths: operations(2), components: { schemas: schemas(100) } });
    const { chunks, warnings } = chunkSpec(spec, facts('Models'), limits);

    expect(chunks.filter((chunk) => chunk.level === 'L3').map((chunk) => chunk.key)).toEqual(Array.from({ length: 20 }, (_, i) => `schema:Thing${i}`));
    expect(warnings).toEqual(['Indexed the first 20 of 100 schemas (INDEX_MAX_SCHEMAS); the rest cannot be found by search']);
  });

  it('should embed at most the first characters of a chunk, keep its whole text for keywords and bound a summary', async () => {
    const summary = `Send ${'a very long summary '.repeat(2000)}`;
    const spec = await loadSpec({
      openapi: '3.0.3',
      info: { title: 'Wordy', version: '1' },
      paths: { '/send': { post: { summary, responses: { 200: { description: 'ok' } } } } },
    });
    const { chunks, warnings } = chunkSpec(spec, facts('Wordy'), limits);
    const operation = chunks.find((chunk) => chunk.level === 'L2')!;

    expect(operation.embedText.length).toBeLessThanOrEqual(301);
    expect(operation.text.length).toBeLessThan(1000);
    expect(operation.summary!.length).toBeLessThanOrEqual(201);
    expect(warnings).toEqual(['1 chunk was embedded from its first 300 characters (EMBED_MAX_CHARS)']);
  });

  it('should warn of nothing for an API within its limits', async () => {
    expect(chunkSpec(await loadSpec(restbenchSpec('spotify')), facts('Spotify')).warnings).toEqual([]);
  });
});

describe(fieldNames.name, () => {
  it('should collect properties through allOf and array items', () => {
    const schema = { type: 'array', items: { allOf: [{ properties: { a: {} } }, { properties: { b: {} } }] } };
    expect(fieldNames(schema)).toEqual(['a', 'b']);
  });
});

describe(humanize.name, () => {
  it('should split camelCase, snake_case and kebab-case identifiers into words', () => {
    expect(humanize('listUserPlaylists')).toBe('list user playlists');
    expect(humanize('add-tracks_to.playlist')).toBe('add tracks to playlist');
  });
});
