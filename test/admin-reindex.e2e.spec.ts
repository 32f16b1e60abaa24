import request from 'supertest';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const OTHER_ORG = 'globex';
const API_COUNT = 20;
const TOPICS = [
  'invoices',
  'shipments',
  'weather forecasts',
  'flight bookings',
  'hotel rooms',
  'payroll runs',
  'support tickets',
  'video streams',
  'parking spaces',
  'library loans',
  'vaccination records',
  'wine cellars',
  'bike rentals',
  'concert tickets',
  'tax returns',
  'recipes',
  'job postings',
  'solar panels',
  'pet adoptions',
  'exam results',
];

/** A small spec with three operations about one topic. */
function specAbout(topic: string, index: number) {
  const resource = `/things${index}`;
  return {
    openapi: '3.0.3',
    info: { title: `${topic} API`, version: '1.0.0', description: `Manage ${topic}.` },
    paths: {
      [resource]: {
        get: { summary: `List ${topic}`, responses: { 200: { description: 'ok' } } },
        post: { summary: `Create one of the ${topic}`, responses: { 201: { description: 'created' } } },
      },
      [`${resource}/{id}`]: {
        delete: {
          summary: `Delete one of the ${topic}`,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 204: { description: 'deleted' } },
        },
      },
    },
  };
}

interface Card {
  apiId: string;
  endpoints: { method: string; path: string }[];
}

describe('Admin re-index', () => {
  let stack: TestStack;
  let http: () => ReturnType<typeof request>;
  let admin: string;
  let outsiderAdmin: string;
  const apiIds: string[] = [];
  let brokenId: string;

  const browse = async (): Promise<{ totalFound: number; results: Card[] }> => {
    const response = await http()
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${admin}`)
      .send({ orgId: ORG, query: '', maxResults: 50, maxEndpoints: 10 });
    expect(response.status).toBe(200);
    return response.body;
  };
  const progressOf = (reindexId: string, token = admin) => http().get(`/api-management/ai/admin/reindex/${reindexId}`).set('authorization', `Bearer ${token}`);

  beforeAll(async () => {
    // hash: the searches list whole cards by an empty query; no ranking is tested.
    stack = await startStack();
    http = () => request(stack.gateway.getHttpServer());
    admin = await stack.token([ORG], ['admin']);
    outsiderAdmin = await stack.token([OTHER_ORG], ['admin']);
    for (const [index, topic] of TOPICS.slice(0, API_COUNT).entries()) {
      const created = await http()
        .post('/api-management/apis')
        .set('authorization', `Bearer ${admin}`)
        .send({ orgId: ORG, name: `${topic} API`, version: '1', spec: specAbout(topic, index) });
      expect(created.status).toBe(201);
      apiIds.push(created.body.apiId);
    }
    const broken = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${admin}`)
      .send({
        orgId: ORG,
        name: 'Broken refs',
        version: '1',
        spec: {
          openapi: '3.0.3',
          info: { title: 'Broken', version: '1' },
          paths: { '/x': { get: { responses: { 200: { $ref: '#/components/responses/Missing' } } } } },
        },
      });
    brokenId = broken.body.apiId;
    for (const apiId of [...apiIds, brokenId]) await waitForStatus(stack, admin, apiId, ['COMPLETED', 'FAILED'], 120_000);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should re-index every API of an org, report progress to completion, and keep whole cards in search meanwhile', async () => {
    const before = await browse();
    expect(before.totalFound).toBe(API_COUNT);
    const indexedAt = new Map<string, string>();
    for (const apiId of apiIds) {
      indexedAt.set(apiId, (await waitForStatus(stack, admin, apiId)).indexedAt!);
    }

    const started = await http().post('/api-management/ai/admin/reindex').set('authorization', `Bearer ${admin}`).send({ orgId: ORG });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ reindexId: expect.any(String), queued: API_COUNT + 1 });
    const { reindexId } = started.body;

    const seen: { queued: number; done: number; failed: number }[] = [];
    let searches = 0;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
      // Every search during the run sees all 20 APIs, each with all three endpoints.
      const cards = await browse();
      searches += 1;
      expect(cards.totalFound).toBe(API_COUNT);
      for (const card of cards.results) expect(card.endpoints).toHaveLength(3);

      const progress = await progressOf(reindexId);
      expect(progress.status).toBe(200);
      expect(progress.body.total).toBe(API_COUNT + 1);
      expect(progress.body.queued + progress.body.done + progress.body.failed).toBe(API_COUNT + 1);
      seen.push({ queued: progress.body.queued, done: progress.body.done, failed: progress.body.failed });
      if (progress.body.status === 'COMPLETED') break;
    }

    const final = (await progressOf(reindexId)).body;
    expect(final).toMatchObject({ status: 'COMPLETED', orgIds: [ORG], total: API_COUNT + 1, queued: 0, done: API_COUNT, failed: 1 });
    expect(Date.parse(final.finishedAt)).not.toBeNaN();
    expect(final.failures).toEqual([{ apiId: brokenId, error: expect.stringMatching(/Missing \$ref pointer|could not be resolved/) }]);
    // Progress only moves forward.
    for (let i = 1; i < seen.length; i += 1) expect(seen[i].queued).toBeLessThanOrEqual(seen[i - 1].queued);
    expect(searches).toBeGreaterThan(0);

    // Every API went through the pipeline again.
    for (const apiId of apiIds) {
      const status = await waitForStatus(stack, admin, apiId);
      expect(status.status).toBe('COMPLETED');
      expect(Date.parse(status.indexedAt!)).toBeGreaterThan(Date.parse(indexedAt.get(apiId)!));
    }
    const after = await browse();
    expect(after.results.map((card) => card.apiId).sort()).toEqual([...apiIds].sort());
  }, 180_000);

  it('should re-index only the APIs named, and refuse APIs and runs of other orgs', async () => {
    const started = await http()
      .post('/api-management/ai/admin/reindex')
      .set('authorization', `Bearer ${admin}`)
      .send({ apiIds: apiIds.slice(0, 2) });
    expect(started.status).toBe(202);
    expect(started.body.queued).toBe(2);

    const foreign = await http()
      .post('/api-management/ai/admin/reindex')
      .set('authorization', `Bearer ${outsiderAdmin}`)
      .send({ apiIds: [apiIds[0]] });
    expect(foreign.status).toBe(404);
    expect((await progressOf(started.body.reindexId, outsiderAdmin)).status).toBe(404);
    const notMember = await http().post('/api-management/ai/admin/reindex').set('authorization', `Bearer ${outsiderAdmin}`).send({ orgId: ORG });
    expect(notMember.status).toBe(403);
    expect((await progressOf('not-a-run')).status).toBe(404);

    const invalid = await http()
      .post('/api-management/ai/admin/reindex')
      .set('authorization', `Bearer ${admin}`)
      .send({ apiIds: ['x'], extra: 1 });
    expect(invalid.status).toBe(400);
  });
});
