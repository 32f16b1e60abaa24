import request from 'supertest';
import { openapi } from './support/payments-specs.js';
import { startStack, type TestStack, waitForNewestRevision } from './support/stack.js';

const ORG = 'acme';
const OTHER_ORG = 'globex';

const shipments = openapi('Shipments', '1.0.0', {
  '/shipments': { get: { summary: 'List parcel shipments' }, post: { summary: 'Book a parcel shipment with a carrier' } },
  '/shipments/{id}/label': { get: { summary: 'Print the shipping label of a parcel' } },
});
const invoices = openapi('Invoices', '1', { '/invoices': { get: { summary: 'List the invoices sent to customers' } } });

/**
 * `PATCH /api-management/apis/:apiId` (#39): labels, team, description, name and the recommended
 * version's stage, changed without sending the spec again; no new spec revision; search sees the
 * change after a re-index that embeds only what changed.
 */
describe('PATCH /api-management/apis/:apiId', () => {
  let stack: TestStack;
  let publisher: string;
  let reader: string;
  let outsider: string;
  let shipmentsId: string;
  const apis = '/api-management/apis';
  const http = () => request(stack.gateway.getHttpServer());
  const as = (token: string) => ({
    get: (path: string) => http().get(path).set('authorization', `Bearer ${token}`),
    post: (path: string, body: object) => http().post(path).set('authorization', `Bearer ${token}`).send(body),
    patch: (path: string, body: object) => http().patch(path).set('authorization', `Bearer ${token}`).send(body),
  });
  const indexed = (apiId: string) => waitForNewestRevision(stack, reader, apiId);
  /** Texts the AI app has embedded so far (each chunk text it did not hold a vector for). */
  const embeddedTexts = async () => {
    const metrics = await request(stack.ai!.getHttpServer()).get('/metrics').expect(200);
    return Number(/^embedding_batch_size_sum\{service="ai"\} (\d+)/m.exec(metrics.text)?.[1] ?? Number.NaN);
  };
  const card = async (query: string, apiId: string) => {
    const found = await as(reader).post('/api-management/ai/search', { orgId: ORG, query, maxResults: 20 }).expect(200);
    return (found.body.results as { apiId: string }[]).find((result) => result.apiId === apiId);
  };
  const specRevision = async (apiId: string) =>
    (await as(reader).get(`${apis}/${apiId}/versions`).expect(200)).body.items.map((item: { version: string; revision: number }) => [
      item.version,
      item.revision,
    ]);

  beforeAll(async () => {
    stack = await startStack();
    publisher = await stack.token([ORG], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    outsider = await stack.token([OTHER_ORG], ['publisher']);
    const created = await as(publisher)
      .post(apis, {
        orgId: ORG,
        name: 'Shipments',
        version: '1.0.0',
        teamName: 'logistics',
        description: 'Parcels and carriers',
        labels: { tier: 'silver' },
        spec: shipments,
      })
      .expect(201);
    shipmentsId = created.body.apiId;
    await indexed(shipmentsId);
    await indexed((await as(publisher).post(apis, { orgId: ORG, name: 'Invoices', version: '1', spec: invoices }).expect(201)).body.apiId);
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should replace the labels without a new spec revision, and search should show them without embedding anything again', async () => {
    const before = await as(reader).get(`${apis}/${shipmentsId}`).expect(200);
    const embedded = await embeddedTexts();
    expect(embedded).toBeGreaterThan(0);
    const patched = await as(publisher)
      .patch(`${apis}/${shipmentsId}`, { labels: { tier: 'gold', 'cost-center': 'CC-7' } })
      .expect(200);
    expect(patched.body).toMatchObject({
      apiId: shipmentsId,
      name: 'Shipments',
      teamName: 'logistics',
      description: 'Parcels and carriers',
      labels: { 'cost-center': 'CC-7', tier: 'gold' },
      revision: before.body.revision + 1,
      indexing: { status: 'PENDING' },
    });
    expect(await specRevision(shipmentsId)).toEqual([['1.0.0', 1]]);
    await indexed(shipmentsId);
    expect(await card('book a parcel shipment', shipmentsId)).toMatchObject({ labels: { 'cost-center': 'CC-7', tier: 'gold' }, teamName: 'logistics' });
    // Labels are in no chunk's text: every vector was reused.
    expect(await embeddedTexts()).toBe(embedded);
  });

  it('should change the team and description, clear them with null, and make search reflect each', async () => {
    const embedded = await embeddedTexts();
    await as(publisher).patch(`${apis}/${shipmentsId}`, { teamName: '  fulfilment ', description: 'Book parcels with carriers and print labels' }).expect(200);
    await indexed(shipmentsId);
    // Only the API's own chunk holds the description: it alone is embedded again, not the operations'.
    expect(await embeddedTexts()).toBe(embedded + 1);
    expect(await card('book a parcel shipment', shipmentsId)).toMatchObject({
      teamName: 'fulfilment',
      description: 'Book parcels with carriers and print labels',
    });
    const byTeam = await as(reader)
      .post('/api-management/ai/search', { orgId: ORG, query: 'parcel', filters: { teamNames: ['fulfilment'] } })
      .expect(200);
    expect(byTeam.body.results.map((result: { apiId: string }) => result.apiId)).toEqual([shipmentsId]);

    const cleared = await as(publisher).patch(`${apis}/${shipmentsId}`, { teamName: null, description: null }).expect(200);
    expect(cleared.body.teamName).toBeUndefined();
    expect(cleared.body.description).toBeUndefined();
    expect(cleared.body.labels).toEqual({ 'cost-center': 'CC-7', tier: 'gold' });
    await indexed(shipmentsId);
    const shown = await card('book a parcel shipment', shipmentsId);
    expect(shown).toBeDefined();
    expect((shown as { teamName?: string }).teamName).toBeUndefined();
    expect(await specRevision(shipmentsId)).toEqual([['1.0.0', 1]]);
  });

  it('should make no revision and index nothing when nothing changes', async () => {
    const before = (await as(reader).get(`${apis}/${shipmentsId}`).expect(200)).body;
    // The same labels in another order, and the same name in its own case.
    const same = await as(publisher)
      .patch(`${apis}/${shipmentsId}`, { name: 'Shipments', labels: { tier: 'gold', 'cost-center': 'CC-7' } })
      .expect(200);
    expect(same.body.revision).toBe(before.revision);
    expect(same.body.indexing.status).toBe('COMPLETED');
  });

  it('should rename the API, refusing a name another API of the org has', async () => {
    const taken = await as(publisher).patch(`${apis}/${shipmentsId}`, { name: 'INVOICES' }).expect(409);
    expect(taken.body.detail).toContain('An API named "INVOICES" already exists in org "acme"');
    const renamed = await as(publisher).patch(`${apis}/${shipmentsId}`, { name: ' Parcel Shipments ' }).expect(200);
    expect(renamed.body.name).toBe('Parcel Shipments');
    await indexed(shipmentsId);
    expect(await card('book a parcel shipment', shipmentsId)).toMatchObject({ apiName: 'Parcel Shipments' });
  });

  it("should set the recommended version's stage by the versions route's rules", async () => {
    await as(publisher).patch(`${apis}/${shipmentsId}/versions/1.0.0`, { lifecycle: 'deprecated', sunsetDate: '2027-03-31' }).expect(200);
    // Retired in one step: the sunset date goes with deprecation.
    const retired = await as(publisher).patch(`${apis}/${shipmentsId}`, { lifecycle: 'retired' }).expect(200);
    expect(retired.body).toMatchObject({ lifecycle: 'retired', versions: [{ version: '1.0.0', lifecycle: 'retired' }] });
    expect(retired.body.sunsetDate).toBeUndefined();
    const back = await as(publisher).patch(`${apis}/${shipmentsId}`, { lifecycle: 'production' }).expect(200);
    expect(back.body).toMatchObject({ lifecycle: 'production', versions: [{ version: '1.0.0', lifecycle: 'production' }] });
    expect(await specRevision(shipmentsId)).toEqual([['1.0.0', 1]]);
  });

  it('should refuse a spec, unknown fields, bad values and an empty body with a 400', async () => {
    const withSpec = await as(publisher).patch(`${apis}/${shipmentsId}`, { spec: shipments }).expect(400);
    expect(withSpec.body.detail).toContain('property spec should not exist');
    for (const field of ['orgId', 'version', 'format', 'sunsetDate'])
      await as(publisher)
        .patch(`${apis}/${shipmentsId}`, { [field]: 'x' })
        .expect(400);
    const empty = await as(publisher).patch(`${apis}/${shipmentsId}`, {}).expect(400);
    expect(empty.body.detail).toBe('Nothing to change: give one of name, teamName, description, labels, lifecycle (a new spec is a PUT)');
    await as(publisher).patch(`${apis}/${shipmentsId}`, { name: '   ' }).expect(400);
    await as(publisher).patch(`${apis}/${shipmentsId}`, { name: null }).expect(400);
    await as(publisher)
      .patch(`${apis}/${shipmentsId}`, { labels: { Tier: 'gold' } })
      .expect(400);
    await as(publisher)
      .patch(`${apis}/${shipmentsId}`, { labels: ['tier:gold'] })
      .expect(400);
    await as(publisher).patch(`${apis}/${shipmentsId}`, { lifecycle: 'sunset' }).expect(400);
    await as(publisher)
      .patch(`${apis}/${shipmentsId}`, { teamName: 'x'.repeat(101) })
      .expect(400);
  });

  it("should be a publisher's, in the API's own org", async () => {
    await as(reader).patch(`${apis}/${shipmentsId}`, { teamName: 'readers' }).expect(403);
    await as(outsider).patch(`${apis}/${shipmentsId}`, { teamName: 'outsiders' }).expect(404);
    await as(publisher).patch(`${apis}/00000000-0000-4000-8000-000000000000`, { teamName: 'nobody' }).expect(404);
  });

  it('should clear every label with {} or null', async () => {
    expect((await as(publisher).patch(`${apis}/${shipmentsId}`, { labels: {} }).expect(200)).body.labels).toEqual({});
    await as(publisher)
      .patch(`${apis}/${shipmentsId}`, { labels: { tier: 'gold' } })
      .expect(200);
    expect((await as(publisher).patch(`${apis}/${shipmentsId}`, { labels: null }).expect(200)).body.labels).toEqual({});
  });
});
