import request from 'supertest';
import { ANSWER_MAX_CHARS, FACET_LIMIT, SEARCH_LIMITS } from '#contracts';
import { answerBombs } from '../benchmarks/answer-bombs.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'bounds';
const DETAIL_MAX_CHARS = 20_000;
/** What any one answer may take to come back, on a machine that is busy with other work too. */
const ANSWER_MAX_MS = 15_000;
/** A JSON-RPC answer: the tool's text and its structured content, each bounded, and the envelope. */
const MCP_ANSWER_MAX_BYTES = Math.round((ANSWER_MAX_CHARS.mcpText + ANSWER_MAX_CHARS.mcpData) * 1.1);

interface Measured {
  what: string;
  bytes: number;
  ms: number;
  status: number;
}

/**
 * Every REST route and MCP tool over documents built to make their answers huge (#29): each
 * answer stays within its bound (ANSWER_MAX_CHARS) and time, whatever the document, and the
 * stack keeps answering its health probe meanwhile.
 */
describe('Answer bounds on hostile documents', () => {
  let stack: TestStack;
  let reader: string;
  const apis: { name: string; apiId: string; query: string }[] = [];
  const measured: Measured[] = [];
  const http = () => request(stack.gateway.getHttpServer());

  /** One call, measured: its status, size and time. */
  const measure = async (what: string, call: () => request.Test): Promise<request.Response> => {
    const started = performance.now();
    const response = await call();
    measured.push({ what, bytes: Buffer.byteLength(response.text ?? ''), ms: performance.now() - started, status: response.status });
    return response;
  };
  const get = (path: string) => http().get(path).set('authorization', `Bearer ${reader}`);
  const post = (path: string, body: object) => http().post(path).set('authorization', `Bearer ${reader}`).send(body);
  const mcp = (id: number, method: string, params: object) =>
    http()
      .post('/mcp')
      .set('authorization', `Bearer ${reader}`)
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id, method, params });

  beforeAll(async () => {
    stack = await startStack({ env: { OPERATION_DETAIL_MAX_CHARS: String(DETAIL_MAX_CHARS) } });
    const publisher = await stack.token([ORG], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    for (const bomb of answerBombs()) {
      const response = await http()
        .post('/api-management/apis')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: ORG, name: bomb.name, version: '1', spec: bomb.spec });
      expect({ name: bomb.name, status: response.status, detail: response.body.detail }).toEqual({ name: bomb.name, status: 201, detail: undefined });
      apis.push({ name: bomb.name, apiId: response.body.apiId, query: bomb.query });
    }
    for (const { apiId } of apis) await waitForStatus(stack, publisher, apiId, ['COMPLETED'], 180_000);
  }, 400_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should bound every answer of every route and tool, and keep /healthz quick meanwhile', async () => {
    const health: number[] = [];
    let walking = true;
    const probe = (async () => {
      while (walking) {
        const started = performance.now();
        await http().get('/healthz');
        health.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    try {
      let id = 1;
      await measure('GET /apis', () => get(`/api-management/apis?orgId=${ORG}&pageSize=100`));
      await measure('GET /ai/facets', () => get(`/api-management/ai/facets?orgId=${ORG}`));
      await measure('MCP list_apis', () => mcp(id++, 'tools/call', { name: 'list_apis', arguments: {} }));
      for (const { name, apiId, query } of apis) {
        await measure(`GET /apis/:id (${name})`, () => get(`/api-management/apis/${apiId}`));
        await measure(`GET status (${name})`, () => get(`/api-management/ai/indexing-status/${apiId}`));
        const endpoints = await measure(`GET /endpoints (${name})`, () => get(`/api-management/apis/${apiId}/endpoints`));
        await measure(`GET /operations (${name})`, () => get(`/api-management/apis/${apiId}/operations`));
        await measure(`GET /operations?operations=false (${name})`, () => get(`/api-management/apis/${apiId}/operations?operations=false`));
        // A path cut in the list (the 100,000-character one) cannot name its operation: the others can.
        const named = (endpoints.body.items as { method: string; path: string }[]).filter(({ path }) => !path.endsWith('…')).slice(0, 3);
        for (const { method, path } of named) {
          await measure(`GET /operations/detail (${name})`, () =>
            get(`/api-management/apis/${apiId}/operations/detail?${new URLSearchParams({ method, path })}`),
          );
          await measure(`MCP get_operation (${name})`, () => mcp(id++, 'tools/call', { name: 'get_operation', arguments: { apiId, method, path } }));
        }
        const max = { maxResults: SEARCH_LIMITS.maxResults.max, maxEndpoints: SEARCH_LIMITS.maxEndpoints.max };
        await measure(`POST /ai/search (${name})`, () => post('/api-management/ai/search', { orgId: ORG, query, ...max }));
        await measure(`MCP search_apis (${name})`, () => mcp(id++, 'tools/call', { name: 'search_apis', arguments: { query, ...max } }));
        await measure(`MCP get_api (${name})`, () => mcp(id++, 'tools/call', { name: 'get_api', arguments: { apiId } }));
        await measure(`MCP resource (${name})`, () => mcp(id++, 'resources/read', { uri: `api-spec://${apiId}` }));
      }
      await measure('POST /ai/search (browse)', () =>
        post('/api-management/ai/search', { orgId: ORG, query: '', maxEndpoints: SEARCH_LIMITS.maxEndpoints.max }),
      );
    } finally {
      walking = false;
      await probe;
    }

    const bound = (what: string): number => {
      if (what.startsWith('MCP')) return MCP_ANSWER_MAX_BYTES;
      if (what.startsWith('GET /operations/detail')) return DETAIL_MAX_CHARS + ANSWER_MAX_CHARS.detailBeyondSchemas + 5_000;
      if (what.startsWith('GET /operations?operations=false')) return ANSWER_MAX_CHARS.overview * 1.05;
      if (what.startsWith('GET /operations')) return (ANSWER_MAX_CHARS.overview + ANSWER_MAX_CHARS.operations) * 1.05;
      if (what.startsWith('GET /endpoints')) return ANSWER_MAX_CHARS.endpoints * 1.05;
      if (what.startsWith('POST /ai/search')) return ANSWER_MAX_CHARS.search * 1.05;
      if (what === 'GET /ai/facets') return FACET_LIMIT * 3 * (SEARCH_LIMITS.tagMaxChars + 50);
      return 100_000; // records, lists and statuses
    };
    const over = measured.filter(({ what, bytes, ms, status }) => status !== 200 || bytes > bound(what) || ms > ANSWER_MAX_MS);
    expect(over).toEqual([]);
    expect(measured.length).toBeGreaterThanOrEqual(60);
    // The health probe answers while the largest answers are made: most at once, none stalled.
    health.sort((a, b) => a - b);
    expect(health.length).toBeGreaterThan(5);
    expect(health[Math.floor(health.length / 2)]).toBeLessThan(100);
    expect(health.at(-1)).toBeLessThan(2_000);
    if (process.env.ANSWER_BOUNDS_REPORT) {
      console.log(measured.map(({ what, bytes, ms }) => `${what}\t${bytes}\t${Math.round(ms)}`).join('\n'));
      console.log(`healthz p50 ${health[Math.floor(health.length / 2)].toFixed(1)} ms, max ${health.at(-1)!.toFixed(1)} ms over ${health.length} probes`);
    }
  });

  it('should give get_operation a readable answer for every operation of the hostile documents (no tool failure)', async () => {
    for (const { name, apiId } of apis) {
      const endpoints = await get(`/api-management/apis/${apiId}/endpoints`);
      const { method, path } = endpoints.body.items[0] as { method: string; path: string };
      const answer = await mcp(1, 'tools/call', { name: 'get_operation', arguments: { apiId, method, path: path.slice(0, 2000) } });
      const result = answer.body.result as { isError?: boolean; content: { text: string }[]; structuredContent: { cuts?: string[] } };
      expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
      expect(result.content[0].text.length).toBeLessThanOrEqual(ANSWER_MAX_CHARS.mcpText);
    }
  });

  it('should leave tags longer than a filter may name out of the facets and the index', async () => {
    const facets = await get(`/api-management/ai/facets?orgId=${ORG}`);
    expect(facets.status).toBe(200);
    for (const tag of facets.body.tags as { name: string }[]) expect(tag.name.length).toBeLessThanOrEqual(SEARCH_LIMITS.tagMaxChars);
  });
});
