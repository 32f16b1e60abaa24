import request from 'supertest';
import { type Operation, openapi, payment } from './support/payments-specs.js';
import { startStack, type TestStack, until, waitForNewestRevision } from './support/stack.js';

const ORG = 'acme';
/** An org that refuses breaking changes to production without a new major version (BREAKING_CHANGES_REFUSED_ORGS). */
const STRICT = 'strict';

const paymentsV1 = openapi('Payments', '1.0.0', {
  '/payments': {
    get: { summary: 'List payments', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }] },
    post: { summary: 'Take a card payment', requestBody: { content: { 'application/json': { schema: payment } } } },
  },
  '/payments/{id}': {
    get: { summary: 'Read a payment', responses: { '200': { description: 'The payment', content: { 'application/json': { schema: payment } } } } },
  },
});
// 1.0.0 revised: reading one payment is gone (breaking, in production, same major).
const paymentsV1r2 = openapi('Payments', '1.0.1', {
  '/payments': (paymentsV1 as { paths: Record<string, Record<string, Operation>> }).paths['/payments'],
});
const paymentsV2 = openapi('Payments', '2.0.0', {
  '/payments': {
    get: { summary: 'List payments', parameters: [{ name: 'limit', in: 'query', required: true, schema: { type: 'integer' } }] },
    post: { summary: 'Take a card payment', requestBody: { content: { 'application/json': { schema: payment } } } },
  },
  '/refunds': {
    post: {
      summary: 'Refund a card payment',
      requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { paymentId: { type: 'string' } } } } } },
    },
  },
});
const ledger = (name: string) =>
  openapi(name, '1', {
    '/ledger/entries': {
      get: { summary: 'List the general ledger entries of an accounting period' },
      post: { summary: 'Post a journal entry to the general ledger' },
    },
  });

/**
 * Versions and lifecycle (issue #30): versions side by side on every route, the recommended one
 * in search and agents, change reports between versions and revisions, lint, retired never shown
 * and deprecated ranked below an equally good API.
 */
describe('API versions and lifecycle', () => {
  let stack: TestStack;
  let publisher: string;
  let reader: string;
  let paymentsId: string;
  const http = () => request(stack.gateway.getHttpServer());
  const as = (token: string) => ({
    get: (path: string) => http().get(path).set('authorization', `Bearer ${token}`),
    post: (path: string, body: object) => http().post(path).set('authorization', `Bearer ${token}`).send(body),
    put: (path: string, body: object) => http().put(path).set('authorization', `Bearer ${token}`).send(body),
    patch: (path: string, body: object) => http().patch(path).set('authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => http().delete(path).set('authorization', `Bearer ${token}`),
  });
  const apis = '/api-management/apis';
  const search = (query: string, filters: object = {}) =>
    as(reader).post('/api-management/ai/search', { orgId: ORG, query, filters, maxResults: 20 }).expect(200);
  const mcp = (name: string, args: object) =>
    http()
      .post('/mcp')
      .set('authorization', `Bearer ${reader}`)
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
      .expect(200);
  const indexed = (apiId: string) => waitForNewestRevision(stack, reader, apiId);

  beforeAll(async () => {
    stack = await startStack({ env: { BREAKING_CHANGES_REFUSED_ORGS: STRICT } });
    publisher = await stack.token([ORG, STRICT], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    const created = await as(publisher).post(apis, { orgId: ORG, name: 'Payments', version: '1.0.0', teamName: 'checkout', spec: paymentsV1 }).expect(201);
    paymentsId = created.body.apiId;
    await indexed(paymentsId);
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should make the first version production and list it on the record', async () => {
    const record = await as(reader).get(`${apis}/${paymentsId}`).expect(200);
    expect(record.body).toMatchObject({ version: '1.0.0', lifecycle: 'production', versions: [{ version: '1.0.0', lifecycle: 'production' }] });
  });

  it('should refuse a second API of the same name with a 409 that points to the versions route', async () => {
    const again = await as(publisher).post(apis, { orgId: ORG, name: 'payments', version: '2.0.0', spec: paymentsV2 }).expect(409);
    expect(again.body.detail).toContain(`POST /api-management/apis/${paymentsId}/versions`);
  });

  it('should add a version beside the first, compare it with production, and refuse it twice', async () => {
    const added = await as(publisher).post(`${apis}/${paymentsId}/versions`, { version: '2.0.0', spec: paymentsV2, lifecycle: 'preview' }).expect(201);
    expect(added.body).toMatchObject({ apiId: paymentsId, version: '2.0.0', lifecycle: 'preview', revision: 1, recommended: false, kind: 'openapi' });
    // A new major version: its breaking changes are counted, with no warning.
    expect(added.body.changes.breaking).toBeGreaterThan(0);
    expect(added.body.warnings).toBeUndefined();
    await as(publisher).post(`${apis}/${paymentsId}/versions`, { version: '2.0.0', spec: paymentsV2 }).expect(409);
    await as(reader).post(`${apis}/${paymentsId}/versions`, { version: '3.0.0', spec: paymentsV2 }).expect(403);
    await as(publisher).post(`${apis}/${paymentsId}/versions`, { version: '3.0.0', spec: paymentsV2, lifecycle: 'sunset' }).expect(400);
  });

  it('should list versions newest first with the recommended one indexed', async () => {
    // The new version is on the card's list of versions: the API is indexed again.
    await indexed(paymentsId);
    const list = await as(reader).get(`${apis}/${paymentsId}/versions`).expect(200);
    expect(
      list.body.items.map((item: { version: string; lifecycle: string; recommended: boolean }) => [item.version, item.lifecycle, item.recommended]),
    ).toEqual([
      ['2.0.0', 'preview', false],
      ['1.0.0', 'production', true],
    ]);
    expect(list.body.items[1].indexing).toMatchObject({ status: 'COMPLETED' });
    expect(list.body.items[0].indexing).toBeUndefined();
  });

  it('should serve each version on the endpoints, spec and operations routes, the recommended one by default', async () => {
    const paths = (items: { method: string; path: string }[]) => items.map((item) => `${item.method} ${item.path}`);
    expect(paths((await as(reader).get(`${apis}/${paymentsId}/endpoints`).expect(200)).body.items)).not.toContain('POST /refunds');
    expect(paths((await as(reader).get(`${apis}/${paymentsId}/endpoints?version=2.0.0`).expect(200)).body.items)).toContain('POST /refunds');
    await as(reader).get(`${apis}/${paymentsId}/endpoints?version=9.9.9`).expect(404);
    const spec = await as(reader).get(`${apis}/${paymentsId}/spec?version=2.0.0`).expect(200);
    expect(spec.body.info.version).toBe('2.0.0');
    const overview = await as(reader).get(`${apis}/${paymentsId}/operations?version=2.0.0`).expect(200);
    expect(overview.body).toMatchObject({ apiId: paymentsId, version: '2.0.0', revision: 1 });
    expect(paths(overview.body.operations)).toContain('POST /refunds');
    const detail = await as(reader).get(`${apis}/${paymentsId}/operations/detail?version=2.0.0&method=post&path=/refunds`).expect(200);
    expect(detail.body).toMatchObject({ version: '2.0.0', method: 'POST', path: '/refunds' });
    await as(reader).get(`${apis}/${paymentsId}/operations/detail?version=2.0.0&method=post`).expect(400);
    // The recommended version's come from the index, as before.
    const indexedDetail = await as(reader).get(`${apis}/${paymentsId}/operations/detail?version=1.0.0&method=GET&path=/payments/{id}`).expect(200);
    expect(indexedDetail.body.version).toBeUndefined();
  });

  it('should report what changed between two versions, breaking first', async () => {
    const report = await as(reader).get(`${apis}/${paymentsId}/changes?from=1.0.0&to=2.0.0`).expect(200);
    expect(report.body).toMatchObject({ apiId: paymentsId, from: { version: '1.0.0', revision: 1 }, to: { version: '2.0.0', revision: 1 } });
    const codes = report.body.changes.map(
      (change: { severity: string; code: string; operation?: string }) => `${change.severity} ${change.code} ${change.operation}`,
    );
    expect(codes).toEqual(
      expect.arrayContaining([
        'breaking operation-removed GET /payments/{id}',
        'breaking input-made-required GET /payments',
        'non-breaking operation-added POST /refunds',
      ]),
    );
    expect(report.body.changes[0].severity).toBe('breaking');
    expect(report.body.breaking).toBe(codes.filter((code: string) => code.startsWith('breaking ')).length);
    await as(reader).get(`${apis}/${paymentsId}/changes?to=2.0.0`).expect(400);
    await as(reader).get(`${apis}/${paymentsId}/changes?from=1.0.0@7`).expect(404);
  });

  it('should warn when a revision breaks a production version without a new major version, and compare consecutive revisions', async () => {
    const revised = await as(publisher).put(`${apis}/${paymentsId}/versions/1.0.0`, { spec: paymentsV1r2 }).expect(200);
    expect(revised.body).toMatchObject({ version: '1.0.0', revision: 2, recommended: true });
    expect(revised.body.warnings).toEqual([
      expect.stringContaining('1 breaking change to version "1.0.0", in production, without a new major version: GET /payments/{id}'),
    ]);
    const report = await as(reader).get(`${apis}/${paymentsId}/changes?from=1.0.0@1&to=1.0.0@2`).expect(200);
    expect(report.body.changes).toEqual([expect.objectContaining({ severity: 'breaking', code: 'operation-removed', operation: 'GET /payments/{id}' })]);
    await indexed(paymentsId);
  });

  it('should refuse breaking changes to production without a new major version in an org that says so', async () => {
    const strictId = (await as(publisher).post(apis, { orgId: STRICT, name: 'Payments', version: '1.0.0', spec: paymentsV1 }).expect(201)).body.apiId;
    const refused = await as(publisher).put(`${apis}/${strictId}/versions/1.0.0`, { spec: paymentsV1r2 }).expect(409);
    expect(refused.body.detail).toMatch(
      /1 breaking change to version "1\.0\.0".*GET \/payments\/\{id\}.*This org refuses changes to a version in production that break it or are not proven safe: register it as a new major version/,
    );
    await as(publisher).post(`${apis}/${strictId}/versions`, { version: '1.1.0', spec: paymentsV2 }).expect(409);
    const major = await as(publisher).post(`${apis}/${strictId}/versions`, { version: '2.0.0', spec: paymentsV2 }).expect(201);
    expect(major.body.warnings).toBeUndefined();
    // The refusals changed nothing.
    const versions = await as(publisher).get(`${apis}/${strictId}/versions`).expect(200);
    expect(versions.body.items.map((item: { version: string; revision: number }) => `${item.version} r${item.revision}`)).toEqual(['2.0.0 r1', '1.0.0 r1']);
  });

  it('should say a report is not complete, and treat it as not proven safe, when a change could not be compared', async () => {
    // A union the comparison cannot pair: one of its variants changed.
    const union = (variant: object) =>
      openapi('Shapes', '1.0.0', {
        '/shapes': {
          post: {
            summary: 'Add a shape',
            requestBody: { content: { 'application/json': { schema: { oneOf: [{ type: 'object', properties: { radius: { type: 'number' } } }, variant] } } } },
          },
        },
      });
    const square = union({ type: 'object', properties: { side: { type: 'number' } } });
    const squareAsText = union({ type: 'object', properties: { side: { type: 'string' } } });
    const created = await as(publisher).post(apis, { orgId: ORG, name: 'Shapes', version: '1.0.0', spec: square }).expect(201);
    const revised = await as(publisher).put(`${apis}/${created.body.apiId}/versions/1.0.0`, { spec: squareAsText }).expect(200);
    expect(revised.body.changes).toEqual({ breaking: 0, nonBreaking: 0, info: 0, complete: false });
    expect(revised.body.warnings).toEqual([
      expect.stringMatching(
        /^The comparison with version "1\.0\.0", in production, is not complete, so it does not prove that nothing breaks: .*POST \/shapes request body: a union/,
      ),
    ]);
    const report = await as(reader).get(`${apis}/${created.body.apiId}/changes?from=1.0.0@1&to=1.0.0@2`).expect(200);
    expect(report.body).toMatchObject({ breaking: 0, complete: false, notCompared: [{ operation: 'POST /shapes', location: 'request body' }] });
    expect(report.body.incompleteReason).toBe('POST /shapes request body: a union (oneOf, anyOf) or a `not` changed: its variants are not compared');
    const text = (await mcp('compare_versions', { apiId: created.body.apiId, from: '1.0.0@1', to: '1.0.0@2' })).body.result.content[0].text as string;
    expect(text).toMatch(/^Warning: this report is NOT complete/);
    expect(text).not.toMatch(/No changes to operations/);

    const strict = await as(publisher).post(apis, { orgId: STRICT, name: 'Shapes', version: '1.0.0', spec: square }).expect(201);
    const refused = await as(publisher).put(`${apis}/${strict.body.apiId}/versions/1.0.0`, { spec: squareAsText }).expect(409);
    expect(refused.body.detail).toMatch(/is not complete.*not proven safe: register it as a new major version/);
    await as(publisher).post(`${apis}/${strict.body.apiId}/versions`, { version: '2.0.0', spec: squareAsText }).expect(201);
  });

  it('should lint each version, with findings per operation', async () => {
    // Linted in the background once registered: nobody asked for 2.0.0's findings.
    const linted = await until(
      async () => (await as(reader).get(`${apis}/${paymentsId}/versions`)).body.items as { version: string; lint?: Record<string, number> }[],
      (items) => items.find((item) => item.version === '2.0.0')?.lint !== undefined,
      60_000,
    );
    expect(Object.keys(linted.find((item) => item.version === '2.0.0')!.lint!).sort()).toEqual(['error', 'hint', 'info', 'warning']);
    const lint = await until(
      async () => (await as(reader).get(`${apis}/${paymentsId}/versions/1.0.0/lint`)).body,
      (body: { summary?: object; findings?: { operation?: string }[] }) => body.summary !== undefined,
      60_000,
    );
    expect(lint).toMatchObject({ apiId: paymentsId, version: '1.0.0', revision: 2 });
    expect(lint.findings?.length).toBeGreaterThan(0);
    expect(lint.findings?.some((finding) => finding.operation === 'GET /payments')).toBe(true);
    const older = await as(reader).get(`${apis}/${paymentsId}/versions/1.0.0/lint?revision=1`).expect(200);
    expect(older.body.revision).toBe(1);
    await as(reader).get(`${apis}/${paymentsId}/versions/1.0.0/lint?revision=99`).expect(404);
    const versions = await as(reader).get(`${apis}/${paymentsId}/versions`).expect(200);
    expect(versions.body.items.find((item: { version: string }) => item.version === '1.0.0').lint).toEqual(lint.summary);
  });

  it('should move search and agents to 2.0.0 once it is in production and 1.0.0 deprecated', async () => {
    await as(publisher).patch(`${apis}/${paymentsId}/versions/1.0.0`, { sunsetDate: '2027-06-30' }).expect(400);
    await as(publisher).patch(`${apis}/${paymentsId}/versions/2.0.0`, { lifecycle: 'production' }).expect(200);
    const deprecated = await as(publisher).patch(`${apis}/${paymentsId}/versions/1.0.0`, { lifecycle: 'deprecated', sunsetDate: '2027-06-30' }).expect(200);
    expect(deprecated.body).toMatchObject({ lifecycle: 'deprecated', sunsetDate: '2027-06-30', moveTo: '2.0.0', recommended: false });
    await indexed(paymentsId);

    const found = await search('refund a card payment');
    const card = found.body.results.find((result: { apiId: string }) => result.apiId === paymentsId);
    expect(card).toMatchObject({
      version: '2.0.0',
      lifecycle: 'production',
      versions: [
        { version: '2.0.0', lifecycle: 'production' },
        { version: '1.0.0', lifecycle: 'deprecated', sunsetDate: '2027-06-30' },
      ],
    });
    expect(card.endpoints.map((endpoint: { path: string }) => endpoint.path)).toContain('/refunds');

    const api = await mcp('get_api', { apiId: paymentsId });
    expect(api.body.result.content[0].text).toContain('Versions: 2.0.0 (production, recommended); 1.0.0 (deprecated, sunset 2027-06-30; move to 2.0.0)');
    const compared = await mcp('compare_versions', { apiId: paymentsId, from: '1.0.0' });
    expect(compared.body.result.isError).toBeUndefined();
    expect(compared.body.result.structuredContent).toMatchObject({ from: { version: '1.0.0' }, to: { version: '2.0.0' } });
    expect(compared.body.result.content[0].text).toMatch(/\[non-breaking\] POST \/refunds/);
  });

  it('should retire a deprecated version with a sunset date in one step, clearing the date (#39)', async () => {
    const retired = await as(publisher).patch(`${apis}/${paymentsId}/versions/1.0.0`, { lifecycle: 'retired' }).expect(200);
    expect(retired.body).toMatchObject({ version: '1.0.0', lifecycle: 'retired', recommended: false });
    expect(retired.body.sunsetDate).toBeUndefined();
    // A date for a version that is not deprecated is still refused, saying why.
    const dated = await as(publisher).patch(`${apis}/${paymentsId}/versions/1.0.0`, { lifecycle: 'retired', sunsetDate: '2027-06-30' }).expect(400);
    expect(dated.body.detail).toContain('a retired version has none');
    const record = await as(reader).get(`${apis}/${paymentsId}`).expect(200);
    expect(record.body).toMatchObject({
      version: '2.0.0',
      versions: [
        { version: '2.0.0', lifecycle: 'production' },
        { version: '1.0.0', lifecycle: 'retired' },
      ],
    });
    expect(record.body.versions[1].sunsetDate).toBeUndefined();
  });

  it('should keep a retired API out of search and search_apis, and in the catalogue', async () => {
    const retired = (await as(publisher).post(apis, { orgId: ORG, name: 'Old Payments', version: '0.9', spec: paymentsV2, lifecycle: 'retired' }).expect(201))
      .body;
    expect(retired.lifecycle).toBe('retired');
    await indexed(retired.apiId);
    const ids = (await search('refund a card payment')).body.results.map((result: { apiId: string }) => result.apiId);
    expect(ids).toContain(paymentsId);
    expect(ids).not.toContain(retired.apiId);
    expect((await search('refund a card payment', { lifecycle: ['retired'] })).body.results).toEqual([]);
    expect((await search('', {})).body.results.map((result: { apiId: string }) => result.apiId)).not.toContain(retired.apiId);
    const agent = await mcp('search_apis', { query: 'refund a card payment', orgId: ORG, maxResults: 20 });
    expect(JSON.stringify(agent.body.result.structuredContent)).not.toContain(retired.apiId);
    const catalogue = await as(reader).get(`${apis}?orgId=${ORG}&lifecycle=retired`).expect(200);
    expect(catalogue.body.items.map((item: { apiId: string }) => item.apiId)).toEqual([retired.apiId]);
    await as(reader).get(`${apis}?orgId=${ORG}&lifecycle=gone`).expect(400);
  });

  it('should rank a deprecated API below an equally good one, and filter by stage', async () => {
    const a = (
      await as(publisher)
        .post(apis, { orgId: ORG, name: 'Ledger A', version: '1', spec: ledger('Ledger') })
        .expect(201)
    ).body.apiId;
    const b = (
      await as(publisher)
        .post(apis, { orgId: ORG, name: 'Ledger B', version: '1', spec: ledger('Ledger') })
        .expect(201)
    ).body.apiId;
    await indexed(a);
    await indexed(b);
    const before = (await search('post a journal entry to the ledger')).body.results.map((result: { apiId: string }) => result.apiId);
    const [first, second] = before.filter((id: string) => id === a || id === b);
    await as(publisher).patch(`${apis}/${first}/versions/1`, { lifecycle: 'deprecated', sunsetDate: '2027-01-31' }).expect(200);
    await indexed(first);
    const after = (await search('post a journal entry to the ledger')).body.results;
    const order = after.map((result: { apiId: string }) => result.apiId).filter((id: string) => id === a || id === b);
    expect(order).toEqual([second, first]);
    expect(after.find((result: { apiId: string }) => result.apiId === first)).toMatchObject({ lifecycle: 'deprecated', sunsetDate: '2027-01-31' });
    const onlyDeprecated = (await search('post a journal entry to the ledger', { lifecycle: ['deprecated'] })).body.results.map(
      (result: { apiId: string }) => result.apiId,
    );
    expect(onlyDeprecated).toEqual([first]);
    await as(reader)
      .post('/api-management/ai/search', { orgId: ORG, query: 'ledger', filters: { lifecycle: ['sunset'] } })
      .expect(400);
  });

  it('should keep the legacy PUT working on the recommended version, renaming it when the body says another version', async () => {
    const ledgerId = (
      await as(publisher)
        .post(apis, { orgId: ORG, name: 'Ledger C', version: '1', spec: ledger('Ledger C') })
        .expect(201)
    ).body.apiId;
    const put = await as(publisher)
      .put(`${apis}/${ledgerId}`, { orgId: ORG, name: 'Ledger C', version: '1.1', spec: ledger('Ledger C') })
      .expect(200);
    expect(put.body).toMatchObject({ version: '1.1', versions: [{ version: '1.1', lifecycle: 'production' }] });
    const versions = await as(reader).get(`${apis}/${ledgerId}/versions`).expect(200);
    // Renamed; the same text makes no new revision (#31: importing again changes nothing).
    expect(versions.body.items).toEqual([expect.objectContaining({ version: '1.1', revision: 1 })]);
    // Another version by ?version=, and a rename onto an existing version is refused.
    await as(publisher)
      .post(`${apis}/${ledgerId}/versions`, { version: '2', spec: ledger('Ledger C'), lifecycle: 'preview' })
      .expect(201);
    await as(publisher)
      .put(`${apis}/${ledgerId}?version=2`, { orgId: ORG, name: 'Ledger C', version: '1.1', spec: ledger('Ledger C') })
      .expect(409);
    const preview = await as(publisher)
      .put(`${apis}/${ledgerId}?version=2`, { orgId: ORG, name: 'Ledger C', version: '2', spec: ledger('Ledger C') })
      .expect(200);
    expect(preview.body.version).toBe('1.1');
  });

  it('should delete a version but not the only one', async () => {
    const id = (
      await as(publisher)
        .post(apis, { orgId: ORG, name: 'Short Lived', version: '1', spec: ledger('Short Lived') })
        .expect(201)
    ).body.apiId;
    await as(publisher).delete(`${apis}/${id}/versions/1`).expect(409);
    await as(publisher)
      .post(`${apis}/${id}/versions`, { version: '2', spec: ledger('Short Lived') })
      .expect(201);
    expect((await as(reader).get(`${apis}/${id}`).expect(200)).body.version).toBe('2');
    await as(publisher).delete(`${apis}/${id}/versions/2`).expect(204);
    expect((await as(reader).get(`${apis}/${id}`).expect(200)).body).toMatchObject({ version: '1', versions: [{ version: '1' }] });
    await as(publisher).delete(`${apis}/${id}/versions/2`).expect(404);
  });
});
