import type { ApiOperationDetailResponse, ApiOperationsResponse, SearchResponse } from '#contracts';
import { defaultSpecFormats } from '#api-specs';
import { operationText, rateText, searchText } from './agent-text.js';
import { GENERIC_PART_NAMES, type OperationView } from './agent-tools.service.js';

const overview = (kind: string): ApiOperationsResponse => ({
  apiId: 'a1',
  revision: 1,
  kind,
  format: 'Some format 1.0',
  servers: [],
  securitySchemes: [],
  security: [],
  operations: [],
});

const detail: ApiOperationDetailResponse = {
  apiId: 'a1',
  revision: 1,
  method: 'CALL',
  path: 'things/thing',
  tags: [],
  parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
  requestBody: { required: true, content: [{ mediaType: 'application/json', schema: { type: 'object', properties: { text: { type: 'string' } } } }] },
  responses: [{ status: '200', description: 'Done', content: [{ mediaType: 'application/json', schema: { type: 'integer' } }] }],
  security: [],
};

const view = (kind: string, parts: OperationView['parts']): OperationView => ({
  api: { apiId: 'a1', name: 'Things', version: '1' },
  overview: overview(kind),
  detail,
  example: '',
  parts,
});

describe('operationText', () => {
  it("should head each part of an operation as its kind's format plugin names it", () => {
    for (const format of defaultSpecFormats().all) {
      const lines = operationText(view(format.kind, format.parts)).split('\n');
      expect(lines).toContain(`${format.parts.inputs}:`);
      expect(lines).toContain(`${format.parts.body} (application/json, required): {text: string}`);
      expect(lines).toContain(`${format.parts.responses}:`);
      expect(lines[0]).toContain(`[${format.kind}]`);
    }
  });

  it('should take the names it is given, for a kind of its own', () => {
    const text = operationText(view('soap', { inputs: 'Fields', body: 'Envelope', responses: 'Answers' }));
    expect(text).toContain('Fields:\n- id (path, required): string');
    expect(text).toContain('Envelope (application/json, required): {text: string}');
    expect(text).toContain('Answers:\n- 200 Done: integer');
  });

  it("should call a kind no format reads by what most APIs call an operation's parts", () => {
    const text = operationText(view('soap', GENERIC_PART_NAMES));
    expect(text).toContain('Parameters:\n- id (path, required): string');
    expect(text).toContain('Request body (application/json, required)');
    expect(text).toContain('Responses:\n- 200 Done: integer');
  });
});

describe('searchText', () => {
  it('should end with the searchId to rate the answer by', () => {
    const answer = {
      searchId: '0190a1b2-0000-7000-8000-000000000001',
      orgId: 'acme',
      totalFound: 1,
      queryEmbeddingMs: 1,
      searchMs: 1,
      results: [{ apiId: 'a1', apiName: 'Things', version: '1', kind: 'openapi', relevanceScore: 0.7, endpoints: [], labels: {} }],
    } as unknown as SearchResponse & { orgId: string };
    expect(searchText(answer, 'find things').split('\n').at(-1)).toBe(
      'Once you have used one, tell rate_result (searchId 0190a1b2-0000-7000-8000-000000000001) whether it answered the need.',
    );
  });
});

describe('rateText', () => {
  const vote = { searchId: 's1', apiId: 'a1', signal: 'vote' as const };

  it('should say what was recorded, for the need as it was searched', () => {
    expect(rateText({ ...vote, helpful: true, query: 'refund a card payment' })).toBe('Recorded: API a1 answered "refund a card payment".');
    expect(rateText({ ...vote, operation: { method: 'POST', path: '/refunds' }, helpful: false, query: 'refund a card payment' })).toBe(
      'Recorded: POST /refunds of API a1 did not answer "refund a card payment".',
    );
  });

  it('should name the search when its need is no longer remembered', () => {
    expect(rateText({ ...vote, helpful: false })).toBe('Recorded: API a1 did not answer the need of search s1.');
  });
});
