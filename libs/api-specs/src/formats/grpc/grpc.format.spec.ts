import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonSchema } from '#contracts';
import { markerCount, schemaChars, shapeProblems } from '../../../../../test/support/schema-shape.js';
import { SpecError } from '../../spec-error.js';
import { SpecSource } from '../spec-source.js';
import { GrpcFormat } from './grpc.format.js';

const format = new GrpcFormat();
const read = (text: string) => format.read(new SpecSource(text));
const googleProto = (path: string) => readFileSync(new URL(`../../../../../node_modules/google-proto-files/google/${path}`, import.meta.url), 'utf8');
const ISSUER_SWITCH = 'cloud/paymentgateway/issuerswitch/v1';

const SMALL = `
syntax = "proto3";
package shop.v1;

// Orders and refunds.
service Orders {
  option (google.api.oauth_scopes) = "https://shop.example/auth/orders,https://shop.example/auth/read";

  // Refunds a payment. Money goes back to the card.
  rpc Refund(RefundRequest) returns (Refund);
  rpc WatchTree(stream Node) returns (stream Node) { option deprecated = true; }
}

message RefundRequest {
  string payment_id = 1; // The payment to refund.
  int64 amount_cents = 2;
  repeated Refund.Reason reasons = 3;
  map<string, Node> labels = 4;
  google.protobuf.Timestamp at = 5;
  other.pkg.Thing thing = 6;
}

/* A refund. */
message Refund {
  enum Reason {
    // Asked for.
    REQUESTED = 0;
    FRAUD = 1;
  }
  string id = 1;
  Reason reason = 2;
}

message Node { repeated Node children = 1; bytes data = 2; }
`;

describe(GrpcFormat.name, () => {
  describe('detect', () => {
    it('should recognise .proto text', () => {
      for (const text of [
        SMALL,
        'syntax = "proto2";',
        'package a.b;\nmessage A {}',
        'message A { int32 a = 1; }',
        googleProto(`${ISSUER_SWITCH}/transactions.proto`),
      ]) {
        expect(format.detect(new SpecSource(text))).toBe(true);
      }
    });

    it('should leave SDL, JSON and YAML to others', () => {
      for (const input of ['type Query { a: String }', '{"syntax": "proto3"}', 'openapi: 3.0.0\ndescription: |\n  message A {\n  }']) {
        expect(format.detect(new SpecSource(input))).toBe(false);
      }
    });
  });

  describe("Google's Issuer Switch transactions API", () => {
    const spec = read(googleProto(`${ISSUER_SWITCH}/transactions.proto`));
    const model = format.model(spec);
    const path = 'google.cloud.paymentgateway.issuerswitch.v1.IssuerSwitchTransactions/ListFinancialTransactions';

    it('should model its rpcs, messages and enums', () => {
      expect(spec.format).toBe('proto3');
      expect(model.operations).toHaveLength(8);
      expect(model.schemas).toHaveLength(37);
      expect(model.servers).toEqual(['https://issuerswitch.googleapis.com']);
      expect(model.securitySchemes).toEqual([{ name: 'oauth2', type: 'oauth2' }]);
      expect(model.tags).toEqual([{ name: 'IssuerSwitchTransactions', description: expect.stringContaining('Lists and exports transactions') }]);
      expect(model.operations.find((operation) => operation.path === path)).toMatchObject({
        method: 'RPC',
        operationId: 'IssuerSwitchTransactions.ListFinancialTransactions',
        summary: 'List financial transactions that satisfy specified filter criteria.',
        tags: ['IssuerSwitchTransactions'],
        inputs: [],
        body: { label: 'Request', fields: ['parent', 'page_size', 'page_token', 'filter'] },
        outputs: { label: 'Returns', lines: ['ListFinancialTransactionsResponse fields financial_transactions, next_page_token'] },
      });
    });

    it('should detail an rpc with JSON Schemas and leave imported types unresolved', () => {
      const detail = format.operation(spec, { method: 'rpc', path }, 20_000)!;
      expect(detail).toMatchObject({
        method: 'RPC',
        path,
        parameters: [],
        security: [[{ scheme: 'oauth2', scopes: ['https://www.googleapis.com/auth/cloud-platform'] }]],
      });
      expect(detail.requestBody).toEqual({
        required: true,
        content: [{ mediaType: 'application/grpc', schema: expect.objectContaining({ type: 'object', title: 'ListFinancialTransactionsRequest' }) }],
      });
      const response = detail.responses[0].content[0].schema as { properties: Record<string, { items: { properties: Record<string, JsonSchema> } }> };
      expect(detail.responses[0].status).toBe('OK');
      const transaction = response.properties.financial_transactions.items.properties;
      expect(transaction.payment_rules).toBeDefined();
      expect(JSON.stringify(response)).toContain('"title":"google.protobuf.Timestamp"');
      expect(format.overview(spec)).toMatchObject({ kind: 'grpc', format: 'proto3', servers: [{ url: 'https://issuerswitch.googleapis.com' }], security: [] });
    });

    it('should read into plain data that crosses threads', () => {
      const cloned = structuredClone(spec);
      expect(format.operation(cloned, { operationId: 'IssuerSwitchTransactions.ExportFinancialTransactions' }, 20_000)).toEqual(
        format.operation(spec, { operationId: 'IssuerSwitchTransactions.ExportFinancialTransactions' }, 20_000),
      );
      expect(format.fileType()).toEqual({ extension: 'proto', mediaType: 'text/plain' });
    });
  });

  describe('more real files', () => {
    it('should read the Issuer Switch disputes API, whose operations are long-running (imported)', () => {
      const spec = read(googleProto(`${ISSUER_SWITCH}/resolutions.proto`));
      const model = format.model(spec);
      expect(model.operations.map((operation) => operation.operationId)).toEqual([
        'IssuerSwitchResolutions.CreateComplaint',
        'IssuerSwitchResolutions.ResolveComplaint',
        'IssuerSwitchResolutions.CreateDispute',
        'IssuerSwitchResolutions.ResolveDispute',
      ]);
      expect(model.schemas).toHaveLength(27);
      expect(model.operations[2].outputs).toEqual({ label: 'Returns', lines: ['google.longrunning.Operation'] });
    });

    it('should read Pub/Sub with a bidirectional stream', () => {
      const spec = read(googleProto('pubsub/v1/pubsub.proto'));
      const model = format.model(spec);
      expect(model.operations).toHaveLength(25);
      expect(model.tags.map((tag) => tag.name)).toEqual(['Publisher', 'Subscriber']);
      const streaming = model.operations.find((operation) => operation.path === 'google.pubsub.v1.Subscriber/StreamingPull')!;
      expect(streaming.body?.label).toBe('Request (client streaming)');
      expect(streaming.outputs?.lines[0]).toMatch(/^stream of StreamingPullResponse fields /);
    });

    it('should read a file of messages only', () => {
      const model = format.model(read(googleProto('protobuf/struct.proto')));
      expect(model.operations).toEqual([]);
      expect(model.schemas.map((schema) => schema.name)).toEqual(['Struct', 'Value', 'NullValue', 'ListValue']);
    });
  });

  describe('a small file', () => {
    const spec = read(SMALL);

    it('should model operations and schemas', () => {
      const model = format.model(spec);
      expect(model.operations[0]).toEqual({
        method: 'RPC',
        path: 'shop.v1.Orders/Refund',
        summary: 'Refunds a payment.',
        operationId: 'Orders.Refund',
        name: 'Refund',
        tags: ['Orders'],
        description: 'Refunds a payment. Money goes back to the card.',
        inputs: [],
        body: { label: 'Request', fields: ['payment_id', 'amount_cents', 'reasons', 'labels', 'at', 'thing'] },
        outputs: { label: 'Returns', lines: ['Refund fields id, reason'] },
      });
      expect(model.operations[1]).toMatchObject({
        deprecated: true,
        body: { label: 'Request (client streaming)' },
        outputs: { lines: ['stream of Node fields children, data'] },
      });
      expect(model.schemas).toEqual([
        {
          name: 'RefundRequest',
          fields: [
            { name: 'payment_id', description: 'The payment to refund.' },
            { name: 'amount_cents' },
            { name: 'reasons' },
            { name: 'labels' },
            { name: 'at' },
            { name: 'thing' },
          ],
        },
        { name: 'Refund', description: 'A refund.', fields: [{ name: 'id' }, { name: 'reason' }] },
        { name: 'Refund.Reason', fields: [{ name: 'REQUESTED', description: 'Asked for.' }, { name: 'FRAUD' }] },
        { name: 'Node', fields: [{ name: 'children' }, { name: 'data' }] },
      ]);
      expect(model).toMatchObject({ description: 'Orders and refunds.', servers: [], securitySchemes: [{ name: 'oauth2', type: 'oauth2' }] });
    });

    it('should render messages as JSON Schema, cutting recursion with $circular', () => {
      const detail = format.operation(spec, { operationId: 'Orders.Refund' }, 20_000)!;
      expect(detail.requestBody!.content[0].schema).toEqual({
        type: 'object',
        title: 'RefundRequest',
        properties: {
          payment_id: { type: 'string', description: 'The payment to refund.' },
          amount_cents: { type: 'integer', format: 'int64' },
          reasons: { type: 'array', items: { type: 'string', title: 'Refund.Reason', enum: ['REQUESTED', 'FRAUD'] } },
          labels: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              title: 'Node',
              properties: { children: { type: 'array', items: { $circular: 'Node' } }, data: { type: 'string', format: 'byte' } },
            },
          },
          at: { type: 'string', format: 'date-time', title: 'google.protobuf.Timestamp', description: 'Defined in an imported file, which is not read' },
          thing: { title: 'other.pkg.Thing', description: 'Defined in an imported file, which is not read' },
        },
      });
      expect(detail.security).toEqual([[{ scheme: 'oauth2', scopes: ['https://shop.example/auth/orders', 'https://shop.example/auth/read'] }]]);
      const stream = format.operation(spec, { method: 'RPC', path: 'shop.v1.Orders/WatchTree' }, 20_000)!;
      expect(stream).toMatchObject({
        deprecated: true,
        requestBody: { description: 'A stream of requests (client streaming)' },
        responses: [{ description: 'A stream of responses (server streaming)' }],
      });
    });

    it('should cut the schemas at maxChars', () => {
      const spec = read(googleProto(`${ISSUER_SWITCH}/transactions.proto`));
      const detail = format.operation(spec, { operationId: 'IssuerSwitchTransactions.ListFinancialTransactions' }, 1000)!;
      expect(detail.truncated).toBe(true);
      expect(JSON.stringify(detail.responses)).toContain('$truncated');
    });

    it('should find nothing for an unknown selector', () => {
      expect(format.operation(spec, { operationId: 'Refund' }, 20_000)).toBeUndefined();
      expect(format.operation(spec, { method: 'GET', path: 'shop.v1.Orders/Refund' }, 20_000)).toBeUndefined();
    });
  });

  describe('bad files', () => {
    it('should say where a syntax error is', () => {
      expect(() => read('syntax = "proto3";\nmessage A {\n  int32 x = 1;\n  $\n}')).toThrow(
        new SpecError("The .proto file is not valid: illegal token '$' (line 4)"),
      );
    });

    it('should refuse a file without services or messages', () => {
      expect(() => read('syntax = "proto3";\npackage a.b;')).toThrow(new SpecError('The .proto file declares no services and no messages'));
    });

    it('should refuse JSON objects', () => {
      expect(() => format.read(new SpecSource({ syntax: 'proto3' }))).toThrow(SpecError);
    });
  });

  describe('hostile files', () => {
    let server: Server;
    let requests = 0;

    beforeAll(async () => {
      server = createServer((_, response) => {
        requests++;
        response.end('syntax = "proto3"; message Secret { string s = 1; }');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });

    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('should never read an import: files and URLs stay names', async () => {
      const { port } = server.address() as AddressInfo;
      const spec = read(`syntax = "proto3";
import "/etc/passwd";
import "http://169.254.169.254/latest/meta-data";
import public "http://127.0.0.1:${port}/x.proto";
service S { rpc Get(Secret) returns (Secret); }`);
      const detail = format.operation(spec, { operationId: 'S.Get' }, 20_000)!;
      format.model(spec);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(requests).toBe(0);
      expect(detail.requestBody!.content[0].schema).toEqual({ title: 'Secret', description: 'Defined in an imported file, which is not read' });
    });

    it('should refuse 10,000 nested messages without overflowing the stack', () => {
      const text = `syntax = "proto3";\n${'message M { '.repeat(10_000)}${'}'.repeat(10_000)}`;
      expect(() => read(text)).toThrow(new SpecError('The .proto file nests its definitions too deeply (protoc allows 32 levels)'));
    });

    it('should cut a chain of 10,000 messages at the schema depth limit', () => {
      const chain = Array.from({ length: 10_000 }, (_, i) => `message M${i} { M${i + 1} next = 1; }`).join('\n');
      const spec = read(`syntax = "proto3";\nservice S { rpc Get(M0) returns (M0); }\n${chain}\nmessage M10000 {}`);
      const detail = format.operation(spec, { operationId: 'S.Get' }, 1_000_000)!;
      expect(detail.truncated).toBe(true);
      expect(JSON.stringify(detail.requestBody)).toContain('nested more than 100 levels deep');
    });

    it('should refuse too many definitions', () => {
      const messages = Array.from({ length: 20_001 }, (_, i) => `message M${i} {}`).join('\n');
      expect(() => read(`syntax = "proto3";\n${messages}`)).toThrow(new SpecError('The .proto file has more than 20000 messages, enums and services'));
    });

    it('should keep a message of 5,000 commented fields within maxChars, cut where a schema stands', () => {
      const fields = Array.from(
        { length: 5000 },
        (_, i) => `  // Field ${i}: ${'lorem ipsum '.repeat(40)}\n  ${['string', 'repeated Big', 'map<string, Big>'][i % 3]} f${i} = ${i + 1};`,
      );
      const spec = read(`syntax = "proto3";\nservice S { rpc Get(Big) returns (Big); }\nmessage Big {\n${fields.join('\n')}\n}`);
      const detail = format.operation(spec, { operationId: 'S.Get' }, 20_000)!;

      expect(detail.truncated).toBe(true);
      expect(schemaChars(detail)).toBeLessThanOrEqual(20_000);
      expect(shapeProblems(detail)).toEqual([]);
      // The request's message and the field it was cut in; the response, which the budget ran out before, is one marker.
      expect(markerCount(detail)).toBe(3);
      expect(detail.responses[0].content[0].schema).toEqual({ $truncated: expect.any(String) });
    });

    it('should refuse more rpcs than SPEC_LIMITS allow', () => {
      const rpcs = Array.from({ length: 5001 }, (_, i) => `rpc R${i}(M) returns (M);`).join('\n');
      expect(() => read(`syntax = "proto3";\nmessage M {}\nservice S {\n${rpcs}\n}`)).toThrow(/has 5001 rpcs; the limit is 5000/);
    });
  });
});
