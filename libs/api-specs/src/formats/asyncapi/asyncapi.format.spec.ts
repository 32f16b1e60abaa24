import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SCHEMA_MARKERS } from '#contracts';
import { markerCount, schemaChars, shapeProblems } from '../../../../../test/support/schema-shape.js';
import { SpecError } from '../../spec-error.js';
import { SPEC_LIMITS } from '../../spec-limits.js';
import type { ReadSpec } from '../spec-format.js';
import { SpecSource } from '../spec-source.js';
import { AsyncApiFormat } from './asyncapi.format.js';
import type { AsyncApiDocument } from './read-asyncapi.js';
import { validateAsyncApi } from './validate-asyncapi.js';

const format = new AsyncApiFormat();
const MAX_CHARS = 20_000;

function fixture(name: string): string {
  return readFileSync(new URL(`../../../../../demo/asyncapi/${name}`, import.meta.url), 'utf8');
}

function read(input: string | Record<string, unknown>): ReadSpec<AsyncApiDocument> {
  return format.read(new SpecSource(input));
}

function readError(input: string | Record<string, unknown>): Error {
  try {
    read(input);
  } catch (error) {
    return error as Error;
  }
  throw new Error('read() accepted it');
}

async function modelError(input: string | Record<string, unknown>): Promise<Error> {
  try {
    await format.model(read(input));
  } catch (error) {
    return error as Error;
  }
  throw new Error('model() accepted it');
}

const INFO = { title: 'Hostile', version: '1.0.0' };

describe(AsyncApiFormat.name, () => {
  it('should be the default export, a plain class naming its module', async () => {
    const module = await import('./asyncapi.format.js');
    expect(module.default).toBe(AsyncApiFormat);
    expect(format).toMatchObject({ kind: 'asyncapi', label: 'AsyncAPI 2.x and 3.0', signature: 'an "asyncapi" field' });
    expect(format.moduleUrl).toMatch(/asyncapi\.format\.[jt]s$/);
  });

  it('should recognise AsyncAPI documents only', () => {
    expect(format.detect(new SpecSource(fixture('account-service-2.6.yml')))).toBe(true);
    expect(format.detect(new SpecSource({ asyncapi: '3.0.0' }))).toBe(true);
    expect(format.detect(new SpecSource({ openapi: '3.0.3', info: {}, paths: {} }))).toBe(false);
    expect(format.detect(new SpecSource('type Query { hello: String }'))).toBe(false);
  });

  describe('real documents (from the @asyncapi/cli package examples)', () => {
    it('should read the Streetlights MQTT API (2.6.0): four operations, four schemas and three messages', async () => {
      const spec = read(fixture('streetlights-mqtt-2.6.yml'));
      expect(spec.format).toBe('AsyncAPI 2.6.0');
      const model = await format.model(spec);

      expect(model).toMatchObject({
        kind: 'asyncapi',
        format: 'AsyncAPI 2.6.0',
        title: 'Streetlights MQTT API',
        version: '1.0.0',
        servers: ['mqtt://test.mosquitto.org:1883'],
      });
      expect(model.description).toMatch(/^The Smartylighting Streetlights API allows you to remotely manage the city lights\./);
      expect(model.securitySchemes).toEqual([
        { name: 'apiKey', type: 'apiKey' },
        { name: 'supportedOauthFlows', type: 'oauth2' },
        { name: 'openIdConnectWellKnown', type: 'openIdConnect' },
      ]);
      expect(model.operations.map((op) => `${op.method} ${op.operationId}`)).toEqual([
        'PUBLISH receiveLightMeasurement',
        'SUBSCRIBE turnOn',
        'SUBSCRIBE turnOff',
        'SUBSCRIBE dimLight',
      ]);
      expect(model.operations[3]).toEqual({
        method: 'SUBSCRIBE',
        path: 'smartylighting/streetlights/1/0/action/{streetlightId}/dim',
        operationId: 'dimLight',
        name: 'dimLight',
        // The operation has none: its message's summary.
        summary: 'Command a particular streetlight to dim the lights.',
        tags: [],
        inputs: [
          { name: 'streetlightId', in: 'path', description: 'The ID of the streetlight.' },
          // From the message's trait.
          { name: 'my-app-header', in: 'header' },
        ],
        body: { label: 'Message', fields: ['percentage', 'sentAt'] },
      });
      expect(model.operations[0].description).toBe('The topic on which measured values may be produced and consumed.');
      expect(model.schemas.map((schema) => schema.name)).toEqual([
        'lightMeasuredPayload',
        'turnOnOffPayload',
        'dimLightPayload',
        'sentAt',
        'lightMeasured',
        'turnOnOff',
        'dimLight',
      ]);
      expect(model.schemas[0]).toEqual({
        name: 'lightMeasuredPayload',
        fields: [
          { name: 'lumens', description: 'Light intensity measured in lumens.' },
          { name: 'sentAt', description: 'Date and time when the message was sent.' },
        ],
      });
      expect(model.schemas[4]).toMatchObject({
        name: 'lightMeasured',
        description: 'Inform about environmental lighting conditions of a particular streetlight.',
      });
    });

    it('should read the same API in AsyncAPI 3.0: SEND and RECEIVE on channel addresses', async () => {
      const model = await format.model(read(fixture('streetlights-mqtt-3.0.yml')));

      expect(model.format).toBe('AsyncAPI 3.0.0');
      expect(model.servers).toEqual(['mqtt://test.mosquitto.org:1883']);
      expect(model.operations.map((op) => `${op.method} ${op.operationId} ${op.path}`)).toEqual([
        'RECEIVE receiveLightMeasurement smartylighting/streetlights/1/0/event/{streetlightId}/lighting/measured',
        'SEND turnOn smartylighting/streetlights/1/0/action/{streetlightId}/turn/on',
        'SEND turnOff smartylighting/streetlights/1/0/action/{streetlightId}/turn/off',
        'SEND dimLight smartylighting/streetlights/1/0/action/{streetlightId}/dim',
      ]);
      expect(model.operations[0]).toMatchObject({
        summary: 'Inform about environmental lighting conditions of a particular streetlight.',
        inputs: [
          { name: 'streetlightId', in: 'path' },
          { name: 'my-app-header', in: 'header' },
        ],
        body: { label: 'Message', fields: ['lumens', 'sentAt'] },
      });
      expect(model.schemas).toHaveLength(7);
      // The inline scheme of the server's security is listed by its type.
      expect(model.securitySchemes.map((scheme) => scheme.name)).toEqual(['apiKey', 'supportedOauthFlows', 'openIdConnectWellKnown', 'oauth2']);
    });

    it.each([
      ['account-service-2.6.yml', 'AsyncAPI 2.6.0', 'SUBSCRIBE', undefined],
      ['account-service-3.0.yml', 'AsyncAPI 3.0.0', 'RECEIVE', 'onUserSignUp'],
    ])('should read the Account Service %s: a user signed up, with the fields of its message', async (file, version, method, operationId) => {
      const model = await format.model(read(fixture(file)));

      expect(model).toMatchObject({
        format: version,
        title: 'Account Service',
        description: 'This service is in charge of processing user signups',
        servers: [],
      });
      expect(model.operations).toEqual([
        {
          method,
          path: 'user/signedup',
          ...(operationId ? { operationId, name: operationId } : {}),
          summary: method === 'SUBSCRIBE' ? 'Get notified when user signed up' : 'Send a user signed up message',
          tags: [],
          inputs: [],
          body: { label: 'Message', fields: ['displayName', 'email'] },
        },
      ]);
      expect(model.schemas).toEqual([
        {
          name: 'UserSignedUp',
          fields: [
            { name: 'displayName', description: 'Name of the user' },
            { name: 'email', description: 'Email of the user' },
          ],
        },
      ]);
    });

    it('should read the Slack RTM API (2.6.0), its subscribe one of 46 messages', async () => {
      const model = await format.model(read(fixture('slack-rtm-2.6.yml')));

      expect(model.operations.map((op) => `${op.method} ${op.path}`)).toEqual(['PUBLISH /', 'SUBSCRIBE /']);
      expect(model.operations[0]).toMatchObject({ summary: 'A message was sent to a channel.', body: { fields: ['id', 'type', 'channel', 'text'] } });
      // Fields of all its messages (`oneOf`), each once.
      expect(model.operations[1].body?.fields).toEqual(expect.arrayContaining(['type', 'channel', 'user', 'text', 'presence', 'dnd_status']));
      expect(model.schemas).toHaveLength(49);
      expect(model.servers).toEqual(['https://slack.com/api/rtm.connect']);
      expect(model.securitySchemes).toEqual([{ name: 'token', type: 'httpApiKey' }]);
    });

    it('should read the Kraken WebSocket API (3.0.0), its replies as outputs', async () => {
      const model = await format.model(read(fixture('kraken-websocket-3.0.yml')));

      expect(model.operations.map((op) => `${op.method} ${op.operationId}`)).toEqual([
        'RECEIVE receivePing',
        'SEND heartbeat',
        'SEND systemStatus',
        'RECEIVE subscribe',
        'RECEIVE unsubscribe',
      ]);
      expect(model.operations[0]).toMatchObject({
        path: '/',
        body: { label: 'Message', fields: ['event', 'reqid'] },
        outputs: { label: 'Reply', lines: ['pong fields event, reqid'] },
      });
      // A reply lists its messages, or is any message of its channel.
      expect(model.operations[3].outputs?.lines).toEqual([
        expect.stringMatching(/^subscriptionStatus fields errorMessage, event, reqid/),
        'dummyCurrencyInfo fields event, reqid, data',
      ]);
      expect(model.operations[4].outputs?.lines).toEqual([expect.stringMatching(/^subscriptionStatus fields/)]);
      // 20 schemas and 8 messages, the messages named like a schema told apart.
      expect(model.schemas).toHaveLength(28);
      expect(model.schemas.map((schema) => schema.name)).toContain('ping message');
    });
  });

  describe('overview', () => {
    it('should give servers with their protocol and variables, schemes without secrets, and the operation list', () => {
      const overview = format.overview(read(fixture('streetlights-mqtt-2.6.yml')));

      expect(overview).toMatchObject({ kind: 'asyncapi', format: 'AsyncAPI 2.6.0' });
      expect(overview.servers).toEqual([
        {
          url: 'mqtt://test.mosquitto.org:{port}',
          description: 'production: Test broker',
          variables: { port: { default: '1883', enum: ['1883', '8883'], description: 'Secure connection (TLS) is available through port 8883.' } },
        },
      ]);
      expect(overview.securitySchemes[0]).toEqual({
        name: 'apiKey',
        type: 'apiKey',
        in: 'user',
        description: 'Provide your API key as the user and leave the password empty.',
      });
      expect(overview.securitySchemes[1].flows?.map((flow) => flow.flow)).toEqual(['implicit', 'password', 'clientCredentials', 'authorizationCode']);
      expect(overview.securitySchemes[1].flows?.[0]).toEqual({
        flow: 'implicit',
        authorizationUrl: 'https://authserver.example/auth',
        scopes: [
          { name: 'streetlights:on', description: 'Ability to switch lights on' },
          { name: 'streetlights:off', description: 'Ability to switch lights off' },
          { name: 'streetlights:dim', description: 'Ability to dim the lights' },
        ],
      });
      expect(overview.securitySchemes[2]).toEqual({
        name: 'openIdConnectWellKnown',
        type: 'openIdConnect',
        openIdConnectUrl: 'https://authserver.example/.well-known',
      });
      expect(overview.security).toEqual([
        [{ scheme: 'apiKey', scopes: [] }],
        [{ scheme: 'supportedOauthFlows', scopes: ['streetlights:on', 'streetlights:off', 'streetlights:dim'] }],
        [{ scheme: 'openIdConnectWellKnown', scopes: [] }],
      ]);
      expect(overview.operations[0]).toEqual({
        method: 'PUBLISH',
        path: 'smartylighting/streetlights/1/0/event/{streetlightId}/lighting/measured',
        summary: 'Inform about environmental lighting conditions of a particular streetlight.',
        operationId: 'receiveLightMeasurement',
        tags: [],
      });
    });

    it('should read 3.0 servers (host and pathname) and security (schemes, by $ref or inline, with their scopes)', () => {
      const overview = format.overview(read(fixture('streetlights-mqtt-3.0.yml')));

      expect(overview.servers.map((server) => server.url)).toEqual(['mqtt://test.mosquitto.org:{port}']);
      expect(overview.security).toEqual([
        [{ scheme: 'apiKey', scopes: [] }],
        [{ scheme: 'oauth2', scopes: ['streetlights:on', 'streetlights:off', 'streetlights:dim'] }],
        [{ scheme: 'openIdConnectWellKnown', scopes: [] }],
      ]);
      const oauth2 = overview.securitySchemes.find((scheme) => scheme.name === 'oauth2');
      expect(oauth2?.flows?.[0].scopes.map((scope) => scope.name)).toEqual(['streetlights:on', 'streetlights:off', 'streetlights:dim']);
      expect(overview.operations.map((op) => op.method)).toEqual(['RECEIVE', 'SEND', 'SEND', 'SEND']);
    });
  });

  describe('operation detail', () => {
    it('should give channel parameters, headers and the message payload, its $refs expanded', () => {
      const detail = format.operation(read(fixture('streetlights-mqtt-2.6.yml')), { operationId: 'dimLight' }, MAX_CHARS);

      expect(detail).toMatchObject({
        method: 'SUBSCRIBE',
        path: 'smartylighting/streetlights/1/0/action/{streetlightId}/dim',
        operationId: 'dimLight',
        responses: [],
      });
      expect(detail?.parameters).toEqual([
        { name: 'streetlightId', in: 'path', required: true, description: 'The ID of the streetlight.', schema: { type: 'string' } },
        { name: 'my-app-header', in: 'header', required: false, schema: { type: 'integer', minimum: 0, maximum: 100 } },
      ]);
      expect(detail?.requestBody).toEqual({
        required: true,
        description: 'dimLight: Command a particular streetlight to dim the lights.',
        content: [
          {
            mediaType: 'application/json',
            schema: {
              type: 'object',
              properties: {
                percentage: { type: 'integer', description: 'Percentage to which the light should be dimmed to.', minimum: 0, maximum: 100 },
                sentAt: { type: 'string', format: 'date-time', description: 'Date and time when the message was sent.' },
              },
            },
          },
        ],
      });
      expect(detail?.security).toHaveLength(3);
      expect(detail?.truncated).toBeUndefined();
    });

    it('should find an operation by method (any case) and channel, and one per message of a oneOf', () => {
      const account = format.operation(read(fixture('account-service-2.6.yml')), { method: 'subscribe', path: 'user/signedup' }, MAX_CHARS);
      expect(account).toMatchObject({ method: 'SUBSCRIBE', path: 'user/signedup', security: [], responses: [] });
      expect(account?.requestBody?.content[0].schema).toMatchObject({ properties: { email: { type: 'string', format: 'email' } } });

      const slack = format.operation(read(fixture('slack-rtm-2.6.yml')), { method: 'SUBSCRIBE', path: '/' }, 200_000);
      expect(slack?.requestBody?.content).toHaveLength(46);
      expect(slack?.requestBody?.description).toMatch(/^One of the messages hello, connectionError, accountsChanged/);
      expect(format.operation(read(fixture('slack-rtm-2.6.yml')), { method: 'GET', path: '/' }, MAX_CHARS)).toBeUndefined();
      expect(format.operation(read(fixture('slack-rtm-2.6.yml')), { operationId: 'nope' }, MAX_CHARS)).toBeUndefined();
    });

    it('should give a 3.0 reply as the response, and 3.0 parameters a string schema', () => {
      const ping = format.operation(read(fixture('kraken-websocket-3.0.yml')), { operationId: 'receivePing' }, MAX_CHARS);
      expect(ping?.responses).toEqual([
        { status: 'reply', description: 'On /', content: [{ mediaType: 'application/json', schema: expect.objectContaining({ type: 'object' }) }] },
      ]);
      expect(JSON.stringify(ping)).not.toContain('$ref');

      const turnOn = format.operation(read(fixture('streetlights-mqtt-3.0.yml')), { operationId: 'turnOn' }, MAX_CHARS);
      expect(turnOn?.parameters[0]).toEqual({
        name: 'streetlightId',
        in: 'path',
        required: true,
        description: 'The ID of the streetlight.',
        schema: { type: 'string' },
      });
      expect(turnOn?.security).toEqual([
        [{ scheme: 'apiKey', scopes: [] }],
        [{ scheme: 'oauth2', scopes: ['streetlights:on', 'streetlights:off', 'streetlights:dim'] }],
        [{ scheme: 'openIdConnectWellKnown', scopes: [] }],
      ]);
    });

    const tree = {
      asyncapi: '2.6.0',
      info: { title: 'Tree', version: '1' },
      channels: {
        'tree/changed': {
          subscribe: { operationId: 'treeChanged', message: { contentType: 'application/vnd.tree+json', payload: { $ref: '#/components/schemas/Node' } } },
        },
      },
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: { name: { type: 'string', description: 'x'.repeat(400) }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
          },
        },
      },
    };

    it('should mark a schema that contains itself with $circular', async () => {
      const spec = read(tree);
      await expect(format.model(spec)).resolves.toMatchObject({ operations: [{ body: { fields: ['name', 'children'] } }] });
      const detail = format.operation(spec, { operationId: 'treeChanged' }, MAX_CHARS);

      expect(detail?.requestBody?.content).toEqual([
        {
          mediaType: 'application/vnd.tree+json',
          schema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'x'.repeat(400) },
              children: { type: 'array', items: { [SCHEMA_MARKERS.circular]: '#/components/schemas/Node' } },
            },
          },
        },
      ]);
      expect(detail?.truncated).toBeUndefined();
    });

    it('should cut schemas past maxChars with $truncated', () => {
      const detail = format.operation(read(tree), { operationId: 'treeChanged' }, 500);

      expect(detail?.truncated).toBe(true);
      expect(JSON.stringify(detail?.requestBody)).toContain(SCHEMA_MARKERS.truncated);
      expect(JSON.stringify(detail).length).toBeLessThan(2_000);
    });
  });

  describe('bad documents', () => {
    it.each([
      [{ asyncapi: '1.2.0', info: INFO, topics: {} }, /^Unsupported AsyncAPI version "1\.2\.0" \(supported: 2\.0\.x to 2\.6\.x, 3\.0\.x\)$/],
      [{ asyncapi: '3.1.0', info: INFO }, /^Unsupported AsyncAPI version "3\.1\.0"/],
      ['asyncapi: 2.6\ninfo: {title: x, version: "1"}\nchannels: {}', /^Unsupported AsyncAPI version "2\.6" .*asyncapi: "2\.6\.0"/],
      [{ asyncapi: '2.6.0', channels: {} }, /no "info" object/],
      [{ asyncapi: '2.6.0', info: { title: 'x' }, channels: {} }, /info\.version must be a string/],
      [{ asyncapi: '2.6.0', info: INFO }, /"channels" must be an object \(required in AsyncAPI 2\.x\)/],
      [{ asyncapi: '3.0.0', info: INFO, operations: ['send'] }, /"operations" must be an object/],
      [{ asyncapi: '3.0.0', info: INFO, channels: 'user/signedup' }, /"channels" must be an object/],
      ['[1, 2]', /must be a JSON or YAML object/],
      ['{"asyncapi": "2.6.0",', /^The spec is not valid JSON/],
    ])('should refuse %j when read', (input, message) => {
      const error = readError(input as string | Record<string, unknown>);
      expect(error).toBeInstanceOf(SpecError);
      expect(error.message).toMatch(message);
    });

    it.each([
      [
        { asyncapi: '2.6.0', info: INFO, channels: { 'user/signedup': { subscribe: { foo: 1, message: { payload: { type: 'object' } } } } } },
        'The AsyncAPI document is not valid: channels.user/signedup.subscribe.foo: Property "foo" is not expected to be here',
      ],
      [
        { asyncapi: '2.6.0', info: INFO, channels: { 'user/signedup': { publish: { message: { $ref: '#/components/messages/Missing' } } } } },
        "The AsyncAPI document is not valid: channels.user/signedup.publish.message.$ref: '#/components/messages/Missing' does not exist",
      ],
      [
        { asyncapi: '3.0.0', info: INFO, channels: { a: { address: 'a' } }, operations: { op: { action: 'publish', channel: { $ref: '#/channels/a' } } } },
        'The AsyncAPI document is not valid: operations.op.action: "action" property must be equal to one of the allowed values: "send", "receive". Did you mean "receive"?',
      ],
    ])('should name what @asyncapi/parser finds wrong, with its path, when modelled (%#)', async (input, message) => {
      const error = await modelError(input);
      expect(error).toBeInstanceOf(SpecError);
      expect(error.message).toBe(message);
    });

    it('should name the first three problems and count the rest', async () => {
      const channels = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((name) => [name, { subscribe: { [`bad${name}`]: 1 } }]));
      const error = await modelError({ asyncapi: '2.6.0', info: INFO, channels });
      expect(error.message).toMatch(
        /^The AsyncAPI document is not valid: channels\.a\.subscribe\.bada: .*; channels\.b\.subscribe\.badb: .*; channels\.c\.subscribe\.badc: .*; and \d+ more$/,
      );
    });

    it('should validate a document that claims the parser has already parsed it', async () => {
      const error = await modelError({
        asyncapi: '2.6.0',
        'x-parser-spec-parsed': true,
        'x-parser-api-version': 3,
        info: INFO,
        channels: { a: { subscribe: { foo: 1 } } },
      });
      expect(error.message).toMatch(/^The AsyncAPI document is not valid: channels\.a\.subscribe\.foo/);
    });
  });

  describe('hostile documents', () => {
    let canary: Server;
    let seen: string[];
    let base: string;

    beforeAll(async () => {
      seen = [];
      canary = createServer((request, response) => {
        seen.push(request.url ?? '');
        response.end('type: object\nproperties: { leaked: { type: string } }\n');
      });
      await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise((resolve) => canary.close(resolve));
    });

    afterEach(() => {
      // Taken out, so that one leak fails the test that caused it, not every later one.
      expect(seen.splice(0)).toEqual([]);
    });

    const withPayloadRef = (ref: string) => ({
      asyncapi: '2.6.0',
      info: INFO,
      channels: { 'user/signedup': { subscribe: { message: { payload: { $ref: ref } } } } },
    });

    it.each(['canary', 'file:///etc/passwd', 'http://169.254.169.254/latest/meta-data', './other.yaml#/Payload'])(
      'should refuse an external $ref to %s when read',
      (ref) => {
        const target = ref === 'canary' ? `${base}/x.yaml` : ref;
        const error = readError(withPayloadRef(target));
        expect(error).toBeInstanceOf(SpecError);
        expect(error.message).toBe(`External $ref "${target}" is not allowed: bundle the spec into one document`);
      },
    );

    it.each(['canary', 'file:///etc/passwd', 'http://169.254.169.254/latest/meta-data', 'other.yaml#/Payload', 'ftp://127.0.0.1/x'])(
      'should have @asyncapi/parser read nothing for an external $ref to %s (the second line), and refuse it',
      async (ref) => {
        const target = ref === 'canary' ? `${base}/x.yaml` : ref;
        const started = performance.now();
        const error = await validateAsyncApi(withPayloadRef(target)).then(
          () => new Error('accepted'),
          (reason: Error) => reason,
        );
        expect(error).toBeInstanceOf(SpecError);
        expect(error.message).toMatch(/^External \$ref ".*" is not allowed: bundle the spec into one document$/);
        // No connection attempt to wait for (169.254.169.254 would time out).
        expect(performance.now() - started).toBeLessThan(5_000);
      },
    );

    it('should refuse when read (at registration) an external $ref inside a vendor extension, which @asyncapi/parser would resolve', () => {
      const document = {
        ...withPayloadRef('#/components/schemas/Payload'),
        components: { schemas: { Payload: { type: 'object' } } },
        'x-extra': { $ref: `${base}/extension.yaml` },
      };
      expect(readError(document)).toEqual(new SpecError(`External $ref "${base}/extension.yaml" is not allowed: bundle the spec into one document`));
    });

    it('should refuse absurd nesting, NUL characters and YAML alias bombs when read', () => {
      let deep: Record<string, unknown> = { type: 'string' };
      for (let level = 0; level < 300; level++) deep = { type: 'object', properties: { next: deep } };
      expect(readError({ ...withPayloadRef('#/components/schemas/Deep'), components: { schemas: { Deep: deep } } }).message).toBe(
        `The spec is nested more than ${SPEC_LIMITS.maxDepth} levels deep`,
      );
      expect(readError({ asyncapi: '2.6.0', info: { title: 'a\u0000b', version: '1' }, channels: {} }).message).toBe('The spec contains NUL characters');
      const bomb = ['asyncapi: 2.6.0', 'info: {title: x, version: "1"}', 'a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
      for (let level = 0; level < 6; level++) bomb.push(`${'bcdefg'[level]}: &${'bcdefg'[level]} [${Array(10).fill(`*${'abcdef'[level]}`).join(',')}]`);
      bomb.push('channels: {}');
      expect(readError(bomb.join('\n')).message).toMatch(/^The spec expands to more than 1,000,000 values/);
    });

    it('should keep 5,000 long headers and a payload with a 1 MB description within maxChars, cut where a schema stands', () => {
      const properties = Object.fromEntries(
        Array.from({ length: 5000 }, (_, i) => [`p${i}`, { type: 'string', description: `Field ${i}: ${'lorem ipsum '.repeat(40)}` }]),
      );
      const payload = { type: 'object', description: 'word '.repeat(200_000), properties };
      const spec = read({
        asyncapi: '2.6.0',
        info: INFO,
        channels: { c: { subscribe: { operationId: 'x', message: { headers: { type: 'object', properties }, payload } } } },
      });
      const detail = format.operation(spec, { operationId: 'x' }, MAX_CHARS)!;

      expect(detail.truncated).toBe(true);
      expect(schemaChars(detail)).toBeLessThanOrEqual(MAX_CHARS);
      expect(shapeProblems(detail)).toEqual([]);
      // Each header is a whole schema: four the budget ran out before are marked, the rest left out.
      expect(markerCount(detail)).toBeLessThanOrEqual(6);
    });

    it('should refuse more operations than SPEC_LIMITS.maxOperations, and model a large document within the limit', async () => {
      const channels = (count: number) =>
        Object.fromEntries(
          Array.from({ length: count }, (_, i) => [
            `users/${i}/signedup`,
            { subscribe: { operationId: `op${i}`, message: { payload: { type: 'object', properties: { id: { type: 'string' } } } } } },
          ]),
        );
      expect(readError({ asyncapi: '2.6.0', info: INFO, channels: channels(SPEC_LIMITS.maxOperations + 1) }).message).toBe(
        `The spec has ${SPEC_LIMITS.maxOperations + 1} operations; the limit is ${SPEC_LIMITS.maxOperations}: split it into several APIs`,
      );
      const model = await format.model(read(JSON.stringify({ asyncapi: '2.6.0', info: INFO, channels: channels(1000) })));
      expect(model.operations).toHaveLength(1000);
    });
  });
});
