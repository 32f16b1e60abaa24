import { readFileSync } from 'node:fs';
import { LINT_LIMITS, LINT_SEVERITIES, type LintFinding, type LintReport } from '#contracts';
import { defaultSpecFormats } from '../spec-formats.module.js';
import { isRefusal, type SpecRefusal } from '../spec-tasks.js';
import { lintOf } from './lint-spec.js';

const formats = defaultSpecFormats();
const demoFile = (name: string) => readFileSync(new URL(`../../../../demo/${name}`, import.meta.url), 'utf8');

const PETSTORE = `
openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
  description: Pets for sale.
  contact: { name: Pet desk, email: pets@example.com }
servers: [{ url: https://pets.example.com/v1 }]
tags: [{ name: pets, description: Pets }]
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets
      description: Every pet for sale, newest first.
      tags: [pets]
      responses:
        '200':
          description: The pets
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
  /pets/{petId}:
    get:
      operationId: showPetById
      summary: One pet
      tags: [pets]
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: The pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
              example: { id: seven, name: Rex }
components:
  schemas:
    Pet:
      type: object
      properties:
        id: { type: integer }
        name: { type: string }
`;

const SWAGGER = {
  swagger: '2.0',
  info: { title: 'Legacy pets', version: '1', description: 'Old API', contact: { name: 'Desk' } },
  host: 'pets.example.com',
  paths: {
    '/pets': {
      post: {
        operationId: 'addPet',
        description: 'Adds a pet.',
        tags: ['pets'],
        parameters: [{ name: 'body', in: 'body', schema: { type: 'object' } }],
        responses: { 201: { description: 'Added' } },
      },
    },
  },
};

describe(lintOf.name, () => {
  it('should find the operation without a description in a petstore, with its operation', async () => {
    const report = lintReport(await lintOf(formats, { text: PETSTORE }));
    expect(report.findings).toContainEqual({
      code: 'operation-description',
      severity: 'warning',
      message: 'Operation "description" must be present and non-empty string.',
      path: 'paths./pets/{petId}.get',
      operation: 'GET /pets/{petId}',
    });
    expect(report.findings).toContainEqual(
      expect.objectContaining({ code: 'oas3-valid-media-example', path: 'paths./pets/{petId}.get.responses.200.content.application/json.example.id' }),
    );
    expect(report.findings.filter((finding) => finding.operation === 'GET /pets')).toEqual([]);
    expect(report.summary).toEqual(countBySeverity(report.findings));
  });

  it('should lint a Swagger 2.0 document with the OAS 2 rules', async () => {
    const report = lintReport(await lintOf(formats, { text: JSON.stringify(SWAGGER) }));
    expect(codes(report)).toEqual(expect.arrayContaining(['oas2-api-schemes', 'operation-tag-defined']));
    expect(report.findings).toContainEqual(
      expect.objectContaining({ code: 'operation-tag-defined', path: 'paths./pets.post.tags.0', operation: 'POST /pets' }),
    );
  });

  it.each([
    ['2.6', 'asyncapi/account-service-2.6.yml', 'asyncapi-operation-description', 'channels.user/signedup.subscribe', 'SUBSCRIBE user/signedup'],
    ['3.0', 'asyncapi/account-service-3.0.yml', 'asyncapi-3-operation-description', 'operations.onUserSignUp', 'RECEIVE user/signedup'],
  ])('should lint an AsyncAPI %s document with the AsyncAPI rules', async (_version, file, code, path, operation) => {
    const report = lintReport(await lintOf(formats, { text: demoFile(file) }));
    expect(report.findings).toContainEqual(expect.objectContaining({ code, severity: 'warning', path, operation }));
  });

  it('should find GraphQL types no operation reaches, and undescribed operations', async () => {
    const sdl = `
      """Pets for sale."""
      type Query {
        pet(id: ID!): Pet
        search("""Words to look for""" text: String): [Result]
      }
      """A pet"""
      type Pet implements Node { id: ID!, """Its name""" name: String }
      """Something with an id"""
      interface Node { """The id""" id: ID! }
      """Reached only as an implementation of Node, which a union member implements"""
      type Tag implements Node { """The id""" id: ID! }
      """What a search finds"""
      union Result = Pet
      """Nothing refers to this"""
      type Orphan { """A field""" value: String }
      enum Unused { A B }
    `;
    const report = lintReport(await lintOf(formats, { text: sdl, format: 'graphql' }));
    const unused = report.findings.filter((finding) => finding.code === 'graphql-unused-type');
    expect(unused.map((finding) => finding.path)).toEqual(['enum Unused', 'type Orphan']);
    expect(unused[0].severity).toBe('info');
    expect(report.findings).toContainEqual({
      code: 'graphql-operation-description',
      severity: 'warning',
      message: 'The query pet has no description',
      path: 'type Query.pet',
      operation: 'QUERY pet',
    });
    expect(report.findings).toContainEqual(
      expect.objectContaining({ code: 'graphql-argument-description', path: 'type Query.pet(id)', operation: 'QUERY pet' }),
    );
    expect(report.findings).toContainEqual(expect.objectContaining({ code: 'graphql-field-description', severity: 'hint', path: 'type Pet.id' }));
    expect(report.findings).toContainEqual(expect.objectContaining({ code: 'graphql-type-description', path: 'enum Unused' }));
    expect(report.findings.filter((finding) => finding.path.startsWith('type Tag'))).toEqual([]);
  });

  it('should find proto messages no rpc uses (not those nested in one), and rpcs without a comment', async () => {
    const proto = `
      syntax = "proto3";
      package shop.v1;
      // The cart.
      service Cart {
        // Adds an item.
        rpc Add (AddRequest) returns (Item);
        rpc Clear (ClearRequest) returns (Item);
      }
      // Adds.
      message AddRequest { Item item = 1; }
      // Clears.
      message ClearRequest { string cart_id = 1; }
      // An item.
      message Item {
        // Its id.
        string id = 1;
        // What kind.
        Kind kind = 2;
        // Kinds.
        enum Kind { KIND_UNSPECIFIED = 0; }
      }
      // Nothing uses it, nor what it holds.
      message Unused {
        // A note.
        Inner note = 1;
        // Inside.
        message Inner { string text = 1; }
      }
    `;
    const report = lintReport(await lintOf(formats, { text: proto, format: 'grpc' }));
    expect(report.findings.filter((finding) => finding.code.startsWith('proto-unused'))).toEqual([
      { code: 'proto-unused-message', severity: 'info', message: 'The message Unused is defined but no rpc uses it', path: 'message Unused' },
    ]);
    expect(report.findings).toContainEqual({
      code: 'proto-rpc-description',
      severity: 'warning',
      message: 'The rpc Cart.Clear has no comment',
      path: 'service Cart.Clear',
      operation: 'RPC shop.v1.Cart/Clear',
    });
    expect(report.findings).toContainEqual(expect.objectContaining({ code: 'proto-field-description', severity: 'hint', path: 'message AddRequest.item' }));
  });

  it('should find MCP tools and arguments without a description', async () => {
    const tools = {
      tools: [
        {
          name: 'get_weather',
          description: 'The weather in a city.',
          inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'The city' }, units: { type: 'string' } } },
          annotations: { readOnlyHint: true },
        },
        {
          name: 'delete_city',
          inputSchema: { type: 'object', properties: { city: { $ref: '#/$defs/City' } }, $defs: { City: { type: 'string', description: 'A city' } } },
        },
      ],
    };
    const report = lintReport(await lintOf(formats, { text: JSON.stringify(tools) }));
    expect(report.findings).toEqual([
      {
        code: 'mcp-tool-description',
        severity: 'warning',
        message: 'The tool delete_city has no description',
        path: 'tool delete_city',
        operation: 'TOOL delete_city',
      },
      {
        code: 'mcp-argument-description',
        severity: 'info',
        message: 'The argument units of get_weather has no description',
        path: 'tool get_weather.units',
        operation: 'TOOL get_weather',
      },
      expect.objectContaining({ code: 'mcp-tool-annotations', severity: 'hint', path: 'tool delete_city', operation: 'TOOL delete_city' }),
    ]);
  });

  it('should refuse a spec its format cannot read', async () => {
    await expect(lintOf(formats, { text: 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\n' })).resolves.toEqual({ refused: 'The spec has no "paths" object' });
  });

  it('should count every finding but list the worst first, at most LINT_LIMITS.maxFindings of them', async () => {
    const operations = 3000;
    const paths = Object.fromEntries(
      Array.from({ length: operations }, (_, index) => [
        `/items${index}/{id}`,
        {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'x' }],
            // Two examples each, the response's of the wrong type.
            responses: {
              200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' }, example: { id: `${index}` } } } },
            },
          },
        },
      ]),
    );
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Big', version: '1' },
      paths,
      components: { schemas: { Item: { type: 'object', properties: { id: { type: 'integer' } } } } },
    };
    const started = Date.now();
    const report = lintReport(await lintOf(formats, { text: JSON.stringify(spec) }));
    // Well inside SPEC_TIMEOUT_MS's default (60 s), on a busy two-core machine.
    expect(Date.now() - started).toBeLessThan(30_000);
    // Each operation lacks a description, an operationId and tags.
    expect(report.summary.warning).toBeGreaterThanOrEqual(3 * operations);
    expect(report.findings).toHaveLength(LINT_LIMITS.maxFindings);
    expect(report.truncated).toBe(true);
    // So many examples are not checked (the one info finding says so).
    expect(report.summary).toMatchObject({ error: 0, info: 1 });
    const ranks = report.findings.map((finding) => LINT_SEVERITIES.indexOf(finding.severity));
    expect(ranks).toEqual(ranks.toSorted((a, b) => a - b));
  });
});

function lintReport(result: LintReport | SpecRefusal): LintReport {
  if (isRefusal(result)) throw new Error(`Refused: ${result.refused}`);
  return result;
}

function codes(report: LintReport): string[] {
  return [...new Set(report.findings.map((finding) => finding.code))];
}

function countBySeverity(findings: LintFinding[]): Record<string, number> {
  return Object.fromEntries(LINT_SEVERITIES.map((severity) => [severity, findings.filter((finding) => finding.severity === severity).length]));
}
