import { readFileSync } from 'node:fs';
import { defaultSpecFormats } from '../spec-formats.module.js';
import { SpecError } from '../spec-error.js';

const formats = defaultSpecFormats();
const packageFile = (path: string) => readFileSync(new URL(`../../../../node_modules/${path}`, import.meta.url), 'utf8');
const demoFile = (name: string) => readFileSync(new URL(`../../../../demo/${name}`, import.meta.url), 'utf8');

const openapi = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: { '/pets': { get: { summary: 'List pets', responses: { 200: { description: 'ok' } } } } },
};

describe('SpecFormats', () => {
  it('should list the five formats in detection order', () => {
    expect(formats.kinds).toEqual(['openapi', 'asyncapi', 'grpc', 'graphql', 'mcp']);
  });

  it.each([
    ['an OpenAPI object', openapi, 'openapi'],
    ['OpenAPI YAML text', 'openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths: {}\n', 'openapi'],
    ['AsyncAPI 2.6 YAML', demoFile('asyncapi/account-service-2.6.yml'), 'asyncapi'],
    ['AsyncAPI 3.0 YAML', demoFile('asyncapi/account-service-3.0.yml'), 'asyncapi'],
    ["GitHub's GraphQL schema", packageFile('@octokit/graphql-schema/schema.graphql'), 'graphql'],
    ['a one-line SDL', 'type Query { pet(id: ID!): String }', 'graphql'],
    ["Google's Pub/Sub proto", packageFile('google-proto-files/google/pubsub/v1/pubsub.proto'), 'grpc'],
    ['a proto without syntax', 'package shop;\nservice Cart { rpc Add (Item) returns (Item); }\nmessage Item { optional string id = 1; }', 'grpc'],
  ])('should recognise %s', (_name, spec, kind) => {
    expect(formats.read(spec).format.kind).toBe(kind);
  });

  it('should read a spec as the format it is registered as, and say what that format finds wrong', () => {
    expect(formats.read('type Query { a: String }', 'graphql').spec.format).toBe('GraphQL SDL');
    expect(() => formats.read('type Query { a: String }', 'openapi')).toThrow(/Not an OpenAPI document|must be a JSON or YAML object/);
    expect(() => formats.read(openapi, 'wsdl')).toThrow('Unknown format "wsdl": known formats are openapi, asyncapi, grpc, graphql, mcp');
  });

  it('should tell a document or text that a format marks, valid or not, from one of no format', () => {
    const marked = (document: unknown) => formats.marked(document);
    expect([openapi, { swagger: '2.0' }, { asyncapi: '3.0.0' }, { tools: [] }].map(marked)).toEqual([true, true, true, true]);
    expect([{ name: 'left-pad' }, { result: { tools: [] } }, ['openapi'], 'openapi: 3.0.3'].map(marked)).toEqual([false, false, false, false]);
    const texts = ['openapi: [3.0\n', '{\n  "swagger": "2.0",', "'asyncapi': 3", '{"tools": [{"name": "a"'];
    expect(texts.map((text) => formats.markedText(text))).toEqual([true, true, true, true]);
    expect(['{"name": "left-pad"}', 'description: our openapi: notes'].map((text) => formats.markedText(text))).toEqual([false, false]);
  });

  it.each([
    [
      'an object of no format',
      { name: 'left-pad', version: '1.3.0' },
      /format was not recognised: expected an OpenAPI document \(an "openapi" or "swagger" field\), an "asyncapi" field, .*, a GraphQL schema .* or an MCP tools\/list result/,
    ],
    ['a sentence', 'hello world, this is not a spec', /format was not recognised/],
    ['broken JSON', '{"openapi": "3.0.3", "info": {', /not valid JSON/],
    ['broken YAML', 'openapi: [3.0\n  info: {', /neither valid JSON nor valid YAML/],
    ['empty text', '  \n', /The spec is empty/],
  ])('should refuse %s, saying why', (_name, spec, reason) => {
    expect(() => formats.read(spec)).toThrow(SpecError);
    expect(() => formats.read(spec)).toThrow(reason);
  });
});
