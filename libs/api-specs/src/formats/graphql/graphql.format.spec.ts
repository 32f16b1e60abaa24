import { readFileSync } from 'node:fs';
import type { JsonSchema } from '#contracts';
import { markerCount, schemaChars, shapeProblems } from '../../../../../test/support/schema-shape.js';
import { SpecError } from '../../spec-error.js';
import { SpecSource } from '../spec-source.js';
import { GraphqlFormat } from './graphql.format.js';

const format = new GraphqlFormat();
const read = (text: string) => format.read(new SpecSource(text));
// The package's `exports` name only its index (for `import`), so the SDL is read by its path.
const github = readFileSync(new URL('../../../../../node_modules/@octokit/graphql-schema/schema.graphql', import.meta.url), 'utf8');

const SMALL = `
"""The shop's API."""
schema { query: Root mutation: Changes subscription: Events }

"""
Lists products. Sorted by name.
"""
type Root {
  "One product."
  product(id: ID!): Product
  search(term: String!, first: Int = 10, kinds: [[Kind!]]): [Result!]!
}
extend type Root { viewer: User }

type Changes {
  createOrder(input: CreateOrderInput!): Order @deprecated(reason: "Use placeOrder")
}
type Events { orderShipped(orderId: ID!): Order }

# Comments are ignored.
type Product { id: ID! name: String related: [Product!] }
type User { login: String! friends: [User!]! orders: [Order!] }
type Order { id: ID! buyer: User! shipment: Shipment }
type Shipment { carrier: Carrier }
type Carrier { name: String }
union Result = Product | User
enum Kind { BOOK MUSIC }
scalar DateTime
input CreateOrderInput { productId: ID! quantity: Int = 1 when: DateTime gift: GiftInput }
input GiftInput { message: String next: GiftInput }
`;

describe(GraphqlFormat.name, () => {
  describe('detect', () => {
    it('should recognise SDL, with or without descriptions and comments', () => {
      for (const text of [
        'type Query { a: String }',
        '"""Docs"""\ntype Query {\n  a: String\n}',
        '# hi\nschema { query: Q }',
        'extend type Query { a: Int }',
        github,
      ]) {
        expect(format.detect(new SpecSource(text))).toBe(true);
      }
    });

    it('should leave JSON, YAML, .proto and GraphQL queries to others', () => {
      for (const input of [
        'openapi: 3.0.0\ninfo: {}',
        'type: object',
        '{"type": "Query"}',
        'syntax = "proto3";\nmessage A {}',
        'query { viewer { login } }',
        'enum',
      ]) {
        expect(format.detect(new SpecSource(input))).toBe(false);
      }
      expect(format.detect(new SpecSource({ type: 'Query' }))).toBe(false);
    });
  });

  describe("GitHub's schema", () => {
    const started = Date.now();
    const spec = read(github);
    const model = format.model(spec);
    const elapsed = Date.now() - started;

    it('should be read and modelled quickly', () => {
      expect(spec.format).toBe('GraphQL SDL');
      expect(elapsed).toBeLessThan(10_000);
    });

    it('should have every root field as an operation and every other named type as a schema', () => {
      const count = (method: string) => model.operations.filter((operation) => operation.method === method).length;
      expect(count('QUERY')).toBe(31);
      expect(count('MUTATION')).toBe(247);
      expect(count('SUBSCRIPTION')).toBe(0);
      expect(model.schemas).toHaveLength(1621);
      expect(model.schemas.map((schema) => schema.name)).not.toContain('Query');
      expect(model.schemas.map((schema) => schema.name)).not.toContain('String');
      expect(model.servers).toEqual([]);
      expect(format.overview(spec).operations).toHaveLength(278);
    });

    it('should model closePullRequest with its input object and payload', () => {
      const operation = model.operations.find((candidate) => candidate.path === 'closePullRequest');
      expect(operation).toMatchObject({
        method: 'MUTATION',
        operationId: 'closePullRequest',
        summary: 'Close a pull request.',
        inputs: [{ name: 'input', in: 'argument' }],
        body: { label: 'Input', fields: expect.arrayContaining(['pullRequestId', 'clientMutationId']) },
        outputs: { label: 'Returns', lines: [expect.stringMatching(/^ClosePullRequestPayload fields clientMutationId, pullRequest/)] },
      });
    });

    it('should detail closePullRequest with JSON Schemas', () => {
      const detail = format.operation(spec, { method: 'mutation', path: 'closePullRequest' }, 20_000)!;
      expect(detail.summary).toBe('Close a pull request.');
      expect(detail.parameters).toEqual([
        expect.objectContaining({
          name: 'input',
          in: 'argument',
          required: true,
          schema: expect.objectContaining({ type: 'object', title: 'ClosePullRequestInput' }),
        }),
      ]);
      const input = detail.parameters[0].schema as { properties: Record<string, JsonSchema>; required: string[] };
      expect(input.properties.pullRequestId).toMatchObject({ type: 'string' });
      expect(input.required).toContain('pullRequestId');
      expect(detail.requestBody).toBeUndefined();
      expect(detail.responses).toEqual([
        {
          status: 'data',
          description: expect.any(String),
          content: [{ mediaType: 'application/graphql-response+json', schema: expect.objectContaining({ title: 'ClosePullRequestPayload' }) }],
        },
      ]);
      expect(detail.security).toEqual([]);
    });

    it('should read into plain data that crosses threads', () => {
      const cloned = structuredClone(spec);
      expect(format.operation(cloned, { operationId: 'closePullRequest' }, 20_000)).toEqual(
        format.operation(spec, { operationId: 'closePullRequest' }, 20_000),
      );
      expect(format.fileType()).toEqual({ extension: 'graphql', mediaType: 'text/plain' });
    });

    it('should cut the schemas at maxChars', () => {
      const detail = format.operation(spec, { operationId: 'repository' }, 1000)!;
      expect(detail.truncated).toBe(true);
      expect(JSON.stringify(detail.responses)).toContain('$truncated');
      expect(JSON.stringify(detail.responses).length).toBeLessThan(3000);
    });
  });

  describe('a small schema', () => {
    const spec = read(SMALL);

    it('should follow the schema definition, extensions and all three root types', () => {
      expect(format.model(spec).operations.map(({ method, path }) => `${method} ${path}`)).toEqual([
        'QUERY product',
        'QUERY search',
        'QUERY viewer',
        'MUTATION createOrder',
        'SUBSCRIPTION orderShipped',
      ]);
    });

    it('should model operations and schemas', () => {
      const model = format.model(spec);
      expect(model).toMatchObject({ kind: 'graphql', format: 'GraphQL SDL', description: "The shop's API.", servers: [], securitySchemes: [], tags: [] });
      expect(model.operations[0]).toEqual({
        method: 'QUERY',
        path: 'product',
        operationId: 'product',
        name: 'product',
        summary: 'One product.',
        tags: [],
        inputs: [{ name: 'id', in: 'argument' }],
        outputs: { label: 'Returns', lines: ['Product fields id, name, related'] },
      });
      expect(model.operations[1].outputs).toEqual({ label: 'Returns', lines: ['Result one of Product, User'] });
      expect(model.operations[3]).toMatchObject({ deprecated: true, body: { label: 'Input', fields: ['productId', 'quantity', 'when', 'gift'] } });
      expect(model.schemas.map((schema) => schema.name)).toEqual([
        'Product',
        'User',
        'Order',
        'Shipment',
        'Carrier',
        'Result',
        'Kind',
        'DateTime',
        'CreateOrderInput',
        'GiftInput',
      ]);
      expect(model.schemas.find((schema) => schema.name === 'Kind')!.fields).toEqual([{ name: 'BOOK' }, { name: 'MUSIC' }]);
      expect(model.schemas.find((schema) => schema.name === 'Result')!.fields).toEqual([{ name: 'Product' }, { name: 'User' }]);
    });

    it('should give an overview without servers or security', () => {
      expect(format.overview(spec)).toEqual({
        kind: 'graphql',
        format: 'GraphQL SDL',
        description: "The shop's API.",
        servers: [],
        securitySchemes: [],
        security: [],
        operations: expect.arrayContaining([{ method: 'MUTATION', path: 'createOrder', operationId: 'createOrder', tags: [], deprecated: true }]),
      });
    });

    it('should render arguments as JSON Schema', () => {
      const detail = format.operation(spec, { operationId: 'search' }, 20_000)!;
      expect(detail.summary).toBe('search(term: String!, first: Int, kinds: [[Kind!]]): [Result!]!');
      expect(detail.parameters).toEqual([
        { name: 'term', in: 'argument', required: true, schema: { type: 'string' } },
        { name: 'first', in: 'argument', required: false, schema: { type: 'integer', default: 10 } },
        {
          name: 'kinds',
          in: 'argument',
          required: false,
          schema: { type: 'array', items: { type: 'array', items: { type: 'string', title: 'Kind', enum: ['BOOK', 'MUSIC'] } } },
        },
      ]);
      expect(detail.responses[0].content[0].schema).toMatchObject({
        type: 'array',
        items: { title: 'Result', oneOf: [{ title: 'Product' }, { title: 'User' }] },
      });
    });

    it('should cut recursive input and output types with $circular', () => {
      const detail = format.operation(spec, { operationId: 'createOrder' }, 20_000)!;
      expect(detail.deprecated).toBe(true);
      expect(detail.parameters[0].schema).toEqual({
        type: 'object',
        title: 'CreateOrderInput',
        properties: {
          productId: { type: 'string' },
          quantity: { type: 'integer', default: 1 },
          when: { title: 'DateTime' },
          gift: { type: 'object', title: 'GiftInput', properties: { message: { type: 'string' }, next: { $circular: 'GiftInput' } } },
        },
        required: ['productId'],
      });
      const viewer = format.operation(spec, { operationId: 'viewer' }, 20_000)!;
      expect(viewer.responses[0].content[0].schema).toEqual({
        type: 'object',
        title: 'User',
        properties: {
          login: { type: 'string' },
          friends: { type: 'array', items: { $circular: 'User' } },
          orders: {
            type: 'array',
            items: {
              type: 'object',
              title: 'Order',
              properties: {
                id: { type: 'string' },
                buyer: { $circular: 'User' },
                // Past OUTPUT_LEVELS an object type is only named.
                shipment: { type: 'object', title: 'Shipment' },
              },
              required: ['id', 'buyer'],
            },
          },
        },
        required: ['login', 'friends'],
      });
      const product = format.operation(spec, { operationId: 'product' }, 20_000)!;
      expect(product.responses[0].content[0].schema).toMatchObject({ properties: { related: { items: { $circular: 'Product' } } } });
    });

    it('should name object types past the expanded levels', () => {
      const orders = format.operation(spec, { method: 'SUBSCRIPTION', path: 'orderShipped' }, 20_000)!;
      const schema = orders.responses[0].content[0].schema as { properties: Record<string, JsonSchema> };
      expect(schema.properties.shipment).toEqual({ type: 'object', title: 'Shipment', properties: { carrier: { type: 'object', title: 'Carrier' } } });
    });

    it('should find nothing for an unknown selector', () => {
      expect(format.operation(spec, { operationId: 'nope' }, 20_000)).toBeUndefined();
      expect(format.operation(spec, { method: 'QUERY', path: 'createOrder' }, 20_000)).toBeUndefined();
    });
  });

  describe('bad documents', () => {
    it('should say where a syntax error is', () => {
      expect(() => read('type Query {\n  a(\n}')).toThrow(
        new SpecError('The GraphQL schema is not valid: Syntax Error: Expected Name, found "}" (line 3, column 1)'),
      );
      expect(() => read('type Query { a: String')).toThrow(/^The GraphQL schema is not valid: Syntax Error: .* \(line 1, column 23\)$/);
    });

    it('should refuse a schema without operations', () => {
      expect(() => read('type Foo { a: Int }')).toThrow(
        new SpecError('The GraphQL schema has no operations: it declares no fields on a Query, Mutation or Subscription type'),
      );
      expect(() => read('scalar Date')).toThrow(SpecError);
    });

    it('should name an unknown type', () => {
      expect(() => read('type Query { a: Foo }')).toThrow(new SpecError('The GraphQL schema is not valid: Unknown type: "Foo"'));
    });

    it('should refuse JSON objects', () => {
      expect(() => format.read(new SpecSource({ type: 'Query' }))).toThrow(SpecError);
    });
  });

  describe('hostile documents', () => {
    it('should refuse lists nested 10,000 deep without overflowing the stack', () => {
      const text = `type Query { a(x: ${'['.repeat(10_000)}Int${']'.repeat(10_000)}): Int }`;
      expect(() => read(text)).toThrow(new SpecError('The GraphQL schema is nested more than 64 levels deep (line 1, column 81)'));
    });

    it('should cut a chain of 10,000 input types at the schema depth limit', () => {
      const inputs = Array.from({ length: 10_000 }, (_, i) => `input A${i} { a: A${i + 1} }`).join('\n');
      const spec = read(`type Query { a(x: A0): Int }\n${inputs}\ninput A10000 { b: Int }`);
      const detail = format.operation(spec, { operationId: 'a' }, 1_000_000)!;
      expect(detail.truncated).toBe(true);
      expect(JSON.stringify(detail.parameters)).toContain('nested more than 100 levels deep');
    });

    it('should refuse too many definitions', () => {
      const scalars = Array.from({ length: 20_001 }, (_, i) => `scalar S${i}`).join('\n');
      expect(() => read(`type Query { a: Int }\n${scalars}`)).toThrow(new SpecError('The GraphQL schema has 20002 definitions; the limit is 20000'));
    });

    it('should keep a union of 15,000 types within maxChars, cut where a schema stands', () => {
      const members = Array.from({ length: 15_000 }, (_, i) => `T${i}`);
      const spec = read(
        `type Query { u(x: In): U }\nunion U = ${members.join(' | ')}\n${members.map((name) => `type ${name} { a: Int }`).join('\n')}\ninput In { b: Int }`,
      );
      const detail = format.operation(spec, { operationId: 'u' }, 20_000)!;

      expect(detail.truncated).toBe(true);
      expect(schemaChars(detail)).toBeLessThanOrEqual(20_000);
      expect(shapeProblems(detail)).toEqual([]);
      // One per schema object on the path to the cut (the union, a member, perhaps its field): nothing after it is visited.
      expect(markerCount(detail)).toBeLessThanOrEqual(3);
      expect(detail.responses[0].content[0].schema).toMatchObject({ title: 'U', oneOf: expect.any(Array), $truncated: expect.any(String) });
    });

    it('should cut long descriptions short, as strings', () => {
      const fields = Array.from({ length: 5000 }, (_, i) => `"${'word '.repeat(100)}" f${i}: String`).join('\n');
      const spec = read(`type Query { a(x: In): Int }\n"""${'word '.repeat(200_000)}"""\ninput In {\n${fields}\n}`);
      const detail = format.operation(spec, { operationId: 'a' }, 20_000)!;

      expect(detail.truncated).toBe(true);
      expect(schemaChars(detail)).toBeLessThanOrEqual(20_000);
      expect(shapeProblems(detail)).toEqual([]);
      expect(detail.parameters[0].schema).toEqual({
        type: 'object',
        title: 'In',
        description: expect.stringMatching(/word…$/),
        $truncated: expect.any(String),
      });
    });

    it('should refuse more operations than SPEC_LIMITS allow', () => {
      const fields = Array.from({ length: 5001 }, (_, i) => `f${i}: Int`).join('\n');
      expect(() => read(`type Query {\n${fields}\n}`)).toThrow(/has 5001 operations; the limit is 5000/);
    });
  });
});
