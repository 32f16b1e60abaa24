import { createHash } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ChangeReportResponse, ConsumerRecord, NotificationFeed, PlatformEvent } from '#contracts';
import { EventRetention } from '../apps/gateway/src/events/event-retention.js';
import { SunsetNotices } from '../apps/gateway/src/registry/sunset-notices.js';
import { type Operation, openapi, payment } from './support/payments-specs.js';
import { startStack, type TestStack, until, waitForNewestRevision } from './support/stack.js';

const ORG = 'acme';
const OTHER = 'globex';

const paths: Record<string, Record<string, Operation>> = {
  '/payments': {
    get: { summary: 'List payments' },
    post: { summary: 'Take a card payment', requestBody: { content: { 'application/json': { schema: payment } } } },
  },
  '/payments/{id}': {
    get: { summary: 'Read a payment', responses: { '200': { description: 'The payment', content: { 'application/json': { schema: payment } } } } },
  },
};
const paymentsV1 = openapi('Payments', '1.0.0', paths);
// Reading one payment is gone: breaking for whoever calls it.
const paymentsV1r2 = openapi('Payments', '1.0.0', { '/payments': paths['/payments'] });

/**
 * Consumers, impact and notifications (issue #43): who uses which version and operations, the
 * consumers a breaking change reaches, the 409 before retiring or deleting what they use, the
 * events every change writes, and the feed of a person who watches or consumes.
 */
describe('Consumers and impact', () => {
  let stack: TestStack;
  let publisher: string;
  let reader: string;
  let otherReader: string;
  let stranger: string;
  const http = () => request(stack.gateway.getHttpServer());
  const as = (token: string) => ({
    get: (path: string) => http().get(path).set('authorization', `Bearer ${token}`),
    post: (path: string, body: object) => http().post(path).set('authorization', `Bearer ${token}`).send(body),
    put: (path: string, body: object) => http().put(path).set('authorization', `Bearer ${token}`).send(body),
    patch: (path: string, body: object) => http().patch(path).set('authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => http().delete(path).set('authorization', `Bearer ${token}`),
  });
  const apis = '/api-management/apis';
  const register = async (name: string, spec: object = openapi(name, '1.0.0', paths)) =>
    (await as(publisher).post(apis, { orgId: ORG, name, version: '1.0.0', teamName: 'checkout', spec }).expect(201)).body.apiId as string;
  const declare = async (apiId: string, body: object, token = reader) =>
    (await as(token).post(`${apis}/${apiId}/consumers`, body).expect(201)).body as ConsumerRecord;
  const feed = async (token: string, query = '') => (await as(token).get(`/api-management/notifications${query}`).expect(200)).body as NotificationFeed;

  beforeAll(async () => {
    stack = await startStack();
    publisher = await stack.token([ORG], ['publisher'], { sub: 'publisher' });
    reader = await stack.token([ORG], ['reader'], { sub: 'reader', teams: ['Billing'] });
    otherReader = await stack.token([ORG], ['reader'], { sub: 'someone-else' });
    stranger = await stack.token([OTHER], ['admin'], { sub: 'stranger' });
  }, 240_000);

  afterAll(() => stack?.close());

  it('should let any member declare what their service uses, refuse what is malformed, and show nothing to another org', async () => {
    const apiId = await register('Declared');
    const declared = await declare(apiId, {
      name: 'billing-service',
      teamName: 'Billing',
      contact: '#billing',
      version: '1.0.0',
      operations: [
        { method: 'get', path: '/payments/{id}' },
        { method: 'GET', path: '/payments/{id}' },
      ],
    });
    expect(declared).toMatchObject({ apiId, orgId: ORG, name: 'billing-service', source: 'declared', declaredBy: 'reader', version: '1.0.0' });
    // Once each, the method in capitals.
    expect(declared.operations).toEqual([{ method: 'GET', path: '/payments/{id}' }]);
    // The same name and version again updates it.
    const again = await declare(apiId, { name: 'Billing-Service', version: '1.0.0', operations: [] });
    expect(again.consumerId).toBe(declared.consumerId);
    expect((await as(reader).get(`${apis}/${apiId}/consumers`).expect(200)).body.items).toMatchObject([{ name: 'Billing-Service', operations: [] }]);

    await as(reader).post(`${apis}/${apiId}/consumers`, { name: 'x', version: '9.9.9' }).expect(404);
    // An operation the version does not have would never be reached by a change: refused, named.
    const unknown = await as(reader)
      .post(`${apis}/${apiId}/consumers`, {
        name: 'x',
        operations: [
          { method: 'GET', path: '/payments/{id}' },
          { method: 'DELETE', path: '/payments' },
        ],
      })
      .expect(400);
    expect(unknown.body.detail).toMatch(/has no DELETE \/payments/);
    for (const bad of [
      {},
      { name: ' ' },
      { name: 'x', operations: [{ method: 'GET /x', path: '/x' }] },
      { name: 'x', operations: 'GET /x' },
      { name: 'x'.repeat(201) },
    ]) {
      await as(reader).post(`${apis}/${apiId}/consumers`, bad).expect(400);
    }
    // Another org's API is none at all: not listed, not declared on, not deleted from.
    await as(stranger).get(`${apis}/${apiId}/consumers`).expect(404);
    await as(stranger).post(`${apis}/${apiId}/consumers`, { name: 'spy' }).expect(404);
    await as(stranger).delete(`${apis}/${apiId}/consumers/${declared.consumerId}`).expect(404);
    await as(stranger).get(`/api-management/consumers?orgId=${ORG}`).expect(403);

    // Nobody else narrows it by declaring it again; a publisher may.
    const mine = await declare(apiId, { name: 'pricing', operations: [{ method: 'GET', path: '/payments' }] });
    const takeover = await as(otherReader)
      .post(`${apis}/${apiId}/consumers`, { name: 'PRICING', operations: [{ method: 'GET', path: '/nothing' }] })
      .expect(403);
    expect(takeover.body.detail).toMatch(/declared by someone else/);
    expect((await declare(apiId, { name: 'pricing', contact: 'ops' }, publisher)).consumerId).toBe(mine.consumerId);
    expect((await as(reader).get(`${apis}/${apiId}/consumers`).expect(200)).body.items).toContainEqual(
      expect.objectContaining({ name: 'pricing', declaredBy: 'reader', contact: 'ops' }),
    );
    // Ids that name nothing are a 404, not a query error.
    await as(reader)
      .get(`${apis}/${'-'.repeat(36)}/consumers`)
      .expect(404);
    await as(reader)
      .delete(`${apis}/${apiId}/consumers/${'a'.repeat(36)}`)
      .expect(404);
    await as(reader)
      .get(`${apis}/${'a'.repeat(36)}/watch`)
      .expect(404);

    // Only whoever declared it, or a publisher, removes it.
    await as(otherReader).delete(`${apis}/${apiId}/consumers/${declared.consumerId}`).expect(403);
    await as(reader).delete(`${apis}/${apiId}/consumers/${declared.consumerId}`).expect(204);
    const theirs = await declare(apiId, { name: 'ledger' }, otherReader);
    await as(publisher).delete(`${apis}/${apiId}/consumers/${theirs.consumerId}`).expect(204);
    await as(publisher).delete(`${apis}/${apiId}/consumers/${theirs.consumerId}`).expect(404);
  });

  it('should name, on each breaking change, the consumers that call it, and those that named nothing as maybe affected', async () => {
    const apiId = await register('Impacted');
    const reading = await declare(apiId, { name: 'statements', operations: [{ method: 'GET', path: '/payments/{paymentId}' }] });
    const taking = await declare(apiId, { name: 'checkout', operations: [{ method: 'POST', path: '/payments' }] });
    const anything = await declare(apiId, { name: 'reports', version: '1.0.0' });

    const revised = await as(publisher).put(`${apis}/${apiId}/versions/1.0.0`, { spec: paymentsV1r2 }).expect(200);
    expect(revised.body.impact).toEqual({
      affected: [expect.objectContaining({ consumerId: reading.consumerId, name: 'statements', certain: true })],
      mayBeAffected: [expect.objectContaining({ consumerId: anything.consumerId, certain: false })],
      unaffected: 1,
    });
    expect(revised.body.warnings.join(' ')).toMatch(/reaches consumers of version "1\.0\.0": statements, reports/);

    const report = (await as(reader).get(`${apis}/${apiId}/changes?from=1.0.0@1&to=1.0.0@2`).expect(200)).body as ChangeReportResponse;
    const removed = report.changes.find((change) => change.code === 'operation-removed')!;
    expect(removed.affectedConsumers).toEqual([reading.consumerId]);
    expect(report.impact!.affected.map((item) => item.name)).toEqual(['statements']);
    expect(report.impact!.mayBeAffected.map((item) => item.name)).toEqual(['reports']);
    expect(JSON.stringify(report.impact)).not.toContain(taking.consumerId);

    // An agent comparing the versions is told whom it reaches.
    const compared = await http()
      .post('/mcp')
      .set('authorization', `Bearer ${reader}`)
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'compare_versions', arguments: { apiId, from: '1.0.0@1', to: '1.0.0@2' } } })
      .expect(200);
    const text: string = compared.body.result.content[0].text;
    expect(text).toMatch(/call a breaking operation: statements\./);
    expect(text).toMatch(/so may be affected: reports\./);
  });

  it('should refuse to retire or delete what consumers use unless forced, and name whom to tell', async () => {
    const apiId = await register('Retiring');
    await as(publisher)
      .post(`${apis}/${apiId}/versions`, { version: '2.0.0', spec: openapi('Retiring', '2.0.0', paths) })
      .expect(201);
    const user = await declare(apiId, { name: 'legacy-app', teamName: 'Billing', version: '1.0.0' });

    const deprecated = await as(publisher)
      .patch(`${apis}/${apiId}/versions/1.0.0`, { lifecycle: 'deprecated', sunsetDate: dayFromNow(10) })
      .expect(200);
    expect(deprecated.body.consumersToTell).toEqual([expect.objectContaining({ consumerId: user.consumerId, name: 'legacy-app' })]);

    const refused = await as(publisher).patch(`${apis}/${apiId}/versions/1.0.0`, { lifecycle: 'retired' }).expect(409);
    expect(refused.body.detail).toMatch(/used by 1 consumer: legacy-app \(Billing\).*force: true/);
    await as(publisher).delete(`${apis}/${apiId}/versions/1.0.0`).expect(409);
    await as(publisher).delete(`${apis}/${apiId}`).expect(409);
    expect((await as(reader).get(`${apis}/${apiId}/versions`).expect(200)).body.items.map((item: { lifecycle: string }) => item.lifecycle)).toEqual([
      'production',
      'deprecated',
    ]);

    // Every route that retires asks the same.
    await as(publisher)
      .put(`${apis}/${apiId}?version=1.0.0`, { orgId: ORG, name: 'Retiring', version: '1.0.0', spec: paymentsV1, lifecycle: 'retired' })
      .expect(409);
    const retired = await as(publisher).patch(`${apis}/${apiId}/versions/1.0.0`, { lifecycle: 'retired', force: true }).expect(200);
    expect(retired.body).toMatchObject({ lifecycle: 'retired', consumersToTell: [{ name: 'legacy-app' }] });
    await as(publisher).delete(`${apis}/${apiId}/versions/1.0.0?force=true`).expect(204);
    // Nothing uses 2.0.0 by name, but a consumer without a version follows the recommended one.
    await declare(apiId, { name: 'follower' });
    await http().delete(`${apis}/${apiId}`).set('authorization', `Bearer ${publisher}`).send({ force: 'yes' }).expect(400);
    await http().delete(`${apis}/${apiId}`).set('authorization', `Bearer ${publisher}`).send({ force: true }).expect(204);

    const events = await outbox(apiId);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['api.created', 'api.version.created', 'api.consumer.added', 'api.lifecycle.changed', 'api.version.deleted', 'api.deleted']),
    );
    const retiring = events.find((event) => event.type === 'api.lifecycle.changed' && (event.data as { to: string }).to === 'retired')!;
    expect(retiring.data).toMatchObject({ version: '1.0.0', from: 'deprecated', to: 'retired', consumers: [{ name: 'legacy-app' }] });
    expect(events.find((event) => event.type === 'api.deleted')!.data).toMatchObject({ consumers: [{ name: 'follower' }] });
  });

  it('should name the followers of the recommended version when it is retired, and tell them when a new version takes its place', async () => {
    const apiId = await register('Followed');
    const follower = await declare(apiId, { name: 'follower-app', operations: [{ method: 'GET', path: '/payments/{id}' }] });
    await as(publisher)
      .post(`${apis}/${apiId}/versions`, { version: '2.0.0', lifecycle: 'preview', spec: openapi('Followed', '2.0.0', paths) })
      .expect(201);

    // Retiring the recommended version moves its followers: the 409 and the event both name them.
    await as(publisher).patch(`${apis}/${apiId}`, { lifecycle: 'retired' }).expect(409);
    await as(publisher).patch(`${apis}/${apiId}`, { lifecycle: 'retired', force: true }).expect(200);
    const retiring = (await outbox(apiId)).find((event) => event.type === 'api.lifecycle.changed')!;
    expect(retiring.data).toMatchObject({ version: '1.0.0', to: 'retired', consumers: [{ consumerId: follower.consumerId }], consumersTotal: 1 });

    // A new production version without the operation they call takes the recommended place: they are told.
    const moved = await register('Moved');
    await declare(moved, { name: 'mover', operations: [{ method: 'GET', path: '/payments/{id}' }] });
    const added = await as(publisher)
      .post(`${apis}/${moved}/versions`, { version: '2.0.0', spec: openapi('Moved', '2.0.0', { '/payments': paths['/payments'] }) })
      .expect(201);
    expect(added.body.impact.affected).toEqual([expect.objectContaining({ name: 'mover' })]);
    const breaking = (await outbox(moved)).find((event) => event.type === 'api.breaking_change');
    expect(breaking?.data).toMatchObject({ version: '2.0.0', from: '1.0.0', affected: [{ name: 'mover' }] });

    // A renamed version keeps its consumers.
    const renamed = await register('Renamed');
    await declare(renamed, { name: 'pinned', version: '1.0.0' });
    await as(publisher).put(`${apis}/${renamed}`, { orgId: ORG, name: 'Renamed', version: '1.0.1', spec: paymentsV1 }).expect(200);
    expect((await as(reader).get(`${apis}/${renamed}/consumers`).expect(200)).body.items).toEqual([
      expect.objectContaining({ name: 'pinned', version: '1.0.1' }),
    ]);
  });

  it("should keep the org's dependency view: each consumer, the versions it uses and their stages", async () => {
    const apiId = await register('Viewed');
    await as(publisher)
      .post(`${apis}/${apiId}/versions`, { version: '2.0.0', spec: openapi('Viewed', '2.0.0', paths) })
      .expect(201);
    await declare(apiId, { name: 'mobile-app', teamName: 'Mobile', version: '1.0.0', operations: [{ method: 'GET', path: '/payments' }] });
    await declare(apiId, { name: 'Mobile-App', version: '2.0.0' });
    await as(publisher)
      .patch(`${apis}/${apiId}/versions/1.0.0`, { lifecycle: 'deprecated', sunsetDate: dayFromNow(40) })
      .expect(200);

    const view = (await as(reader).get(`/api-management/consumers?orgId=${ORG}`).expect(200)).body;
    const mobile = view.items.find((item: { name: string }) => item.name.toLowerCase() === 'mobile-app');
    expect(mobile.teamNames).toEqual(['Mobile']);
    expect(mobile.uses.filter((use: { apiId: string }) => use.apiId === apiId)).toEqual([
      expect.objectContaining({
        apiName: 'Viewed',
        version: '1.0.0',
        lifecycle: 'deprecated',
        sunsetDate: dayFromNow(40),
        operations: [{ method: 'GET', path: '/payments' }],
      }),
      expect.objectContaining({ version: '2.0.0', lifecycle: 'production', followsRecommended: false }),
    ]);
    const stillOld = (await as(reader).get(`/api-management/consumers?orgId=${ORG}&stage=deprecated&stage=retired`).expect(200)).body;
    expect(stillOld.items.flatMap((item: { uses: { lifecycle: string }[] }) => item.uses.map((use) => use.lifecycle))).not.toContain('production');
    await as(reader).get(`/api-management/consumers?orgId=${ORG}&stage=gone`).expect(400);
    await as(reader).get(`/api-management/consumers`).expect(400);
  });

  it('should tell once, with its consumers, that a sunset date comes near', async () => {
    const apiId = await register('Sunsetting');
    await as(publisher)
      .post(`${apis}/${apiId}/versions`, { version: '2.0.0', spec: openapi('Sunsetting', '2.0.0', paths) })
      .expect(201);
    await declare(apiId, { name: 'old-client', version: '1.0.0' });
    await as(publisher)
      .patch(`${apis}/${apiId}/versions/1.0.0`, { lifecycle: 'deprecated', sunsetDate: dayFromNow(5) })
      .expect(200);
    const notices = stack.gateway.get(SunsetNotices);

    await notices.notice();
    await notices.notice();
    const sunset = (await outbox(apiId)).filter((event) => event.type === 'api.sunset.approaching');
    expect(sunset).toEqual([
      expect.objectContaining({
        data: { version: '1.0.0', sunsetDate: dayFromNow(5), daysLeft: 5, consumers: [expect.objectContaining({ name: 'old-client' })], consumersTotal: 1 },
      }),
    ]);
    // A new date is told again.
    await as(publisher)
      .patch(`${apis}/${apiId}/versions/1.0.0`, { sunsetDate: dayFromNow(3) })
      .expect(200);
    await notices.notice();
    expect((await outbox(apiId)).filter((event) => event.type === 'api.sunset.approaching')).toHaveLength(2);
  });

  it("should show a person the events of what they watch and of what their services or team use, newest first, page by page, and nobody else's", async () => {
    // People of their own in this test: the others' declarations bring them other APIs.
    const person = await stack.token([ORG], ['reader'], { sub: 'person', teams: ['Invoicing'] });
    const colleague = await stack.token([ORG], ['reader'], { sub: 'colleague' });
    const watched = await register('Watched');
    const consumed = await register('Consumed');
    const neither = await register('Neither');
    expect((await as(person).get(`${apis}/${watched}/watch`).expect(200)).body).toEqual({ apiId: watched, watching: false });
    expect((await as(person).put(`${apis}/${watched}/watch`, {}).expect(200)).body).toEqual({ apiId: watched, watching: true });
    await as(stranger).put(`${apis}/${watched}/watch`, {}).expect(404);
    // Their team's service, declared by someone else.
    await declare(consumed, { name: 'invoices', teamName: 'invoicing' }, colleague);
    for (const apiId of [watched, consumed, neither]) await as(publisher).put(`${apis}/${apiId}/versions/1.0.0`, { spec: paymentsV1r2 }).expect(200);

    const page = await feed(person, '?limit=100');
    const about = new Set(page.items.map((item) => item.api.apiId));
    expect(about).toEqual(new Set([watched, consumed]));
    const revisedWatched = page.items.find((item) => item.api.apiId === watched && item.type === 'api.version.revised')!;
    expect(revisedWatched).toMatchObject({
      orgId: ORG,
      api: { name: 'Watched', teamName: 'checkout' },
      data: { version: '1.0.0', revision: 2 },
      reasons: ['watching'],
    });
    expect(page.items.find((item) => item.api.apiId === consumed && item.type === 'api.breaking_change')).toMatchObject({
      reasons: ['consumer'],
      data: { version: '1.0.0', from: '1.0.0', counts: { breaking: 1 }, mayBeAffected: [{ name: 'invoices' }] },
    });

    // Newest first, a page at a time.
    const first = await feed(person, '?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await feed(person, `?limit=2&before=${first.nextBefore}`);
    const seen = [...first.items, ...second.items].map((item) => item.eventId);
    expect(new Set(seen).size).toBe(4);
    expect(page.items.slice(0, 4).map((item) => item.eventId)).toEqual(seen);

    // The other person sees only what their own declaration brings; another org nothing.
    expect(new Set((await feed(colleague, '?limit=100')).items.map((item) => item.api.apiId))).toEqual(new Set([consumed]));
    expect((await feed(stranger)).items).toEqual([]);
    await as(stranger).get(`/api-management/notifications?orgId=${ORG}`).expect(403);
    await as(person).get('/api-management/notifications?before=nope').expect(400);
    await as(person).get('/api-management/notifications?limit=1000').expect(400);

    await as(person).delete(`${apis}/${watched}/watch`).expect(200);
    expect(new Set((await feed(person, '?limit=100')).items.map((item) => item.api.apiId))).toEqual(new Set([consumed]));
  });

  it("should record a client token's MCP reads as an observed consumer of the operations it reads, and never a person", async () => {
    const apiId = await register('Observed');
    await waitForNewestRevision(stack, reader, apiId);
    const agent = await stack.token([ORG], ['reader'], { sub: 'service-account', client: 'pricing-agent' });
    const mcp = (token: string, name: string, args: object) =>
      http()
        .post('/mcp')
        .set('authorization', `Bearer ${token}`)
        .set('accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
        .expect(200);

    await mcp(reader, 'get_operation', { apiId, method: 'GET', path: '/payments/{id}' });
    await mcp(agent, 'get_operation', { apiId, method: 'GET', path: '/payments/{id}' });
    await mcp(agent, 'get_operation', { apiId, method: 'POST', path: '/payments' });
    await mcp(agent, 'get_operation', { apiId, method: 'GET', path: '/payments/{id}' });

    const consumers = async () => (await as(reader).get(`${apis}/${apiId}/consumers`).expect(200)).body.items as ConsumerRecord[];
    const observed = await until(consumers, (items) => items.some((item) => item.operations.length === 2));
    expect(observed).toEqual([
      expect.objectContaining({
        name: 'pricing-agent',
        source: 'observed',
        operations: [
          { method: 'GET', path: '/payments/{id}' },
          { method: 'POST', path: '/payments' },
        ],
      }),
    ]);
    expect(Date.parse(observed[0].lastSeenAt)).toBeGreaterThan(Date.now() - 120_000);
    expect((await outbox(apiId)).filter((event) => event.type === 'api.consumer.added')).toHaveLength(1);
  });

  it("should make a tree's Backstage components that consume its APIs catalog consumers, pruned with the tree", async () => {
    const tree = 'git.example.com/finance/specs:catalog';
    const text = JSON.stringify(paymentsV1);
    const item = {
      path: 'specs/payments.json',
      file: 'catalog-info.yaml',
      key: 'entity:api:default/payments-catalog',
      name: 'Payments Catalog',
      version: '1.0.0',
      sha256: createHash('sha256').update(text).digest('hex'),
      bytes: text.length,
      catalog: { entityRef: 'api:default/payments-catalog' },
    };
    const component = (name: string) => ({
      entityRef: `component:default/${name}`,
      path: 'catalog-info.yaml',
      providesApis: [],
      consumesApis: ['api:default/payments-catalog'],
    });
    const apply = (components: object[], extra: object = { prune: true }) =>
      as(publisher)
        .post('/api-management/tree-imports/apply', { orgId: ORG, tree, items: [item], specs: { [item.path]: text }, components, ...extra })
        .expect(200);

    const applied = await apply([component('storefront'), component('ledger'), { ...component('ledger'), entityRef: 'component:finance/ledger' }]);
    const apiId = applied.body.entries[0].apiId as string;
    const consumers = async () => (await as(reader).get(`${apis}/${apiId}/consumers`).expect(200)).body.items as ConsumerRecord[];
    const listed = async () => (await consumers()).map((item) => item.name);
    expect(await consumers()).toEqual([
      expect.objectContaining({ name: 'component:default/ledger', source: 'catalog', entityRef: 'component:default/ledger' }),
      expect.objectContaining({ name: 'component:default/storefront', source: 'catalog' }),
      expect.objectContaining({ name: 'component:finance/ledger', source: 'catalog' }),
    ]);
    // Without prune nothing goes; with it, what the tree no longer names goes, but not what a broken descriptor held.
    await apply([component('storefront')], {});
    expect(await listed()).toHaveLength(3);
    await apply([component('storefront')], { prune: true, failed: [{ path: 'catalog-info.yaml', reason: 'not valid YAML' }] });
    expect(await listed()).toHaveLength(3);
    await apply([component('storefront')]);
    expect(await listed()).toEqual(['component:default/storefront']);
  });

  it("should tell once that a tree's file of a known API could not be written, not at every run that fails the same way", async () => {
    const tree = 'git.example.com/finance/specs:failing';
    const good = JSON.stringify(openapi('Failing', '1.0.0', paths));
    // Cut short: the registration's check refuses it (422).
    const bad = good.slice(0, good.length / 2);
    const item = (text: string) => ({
      path: 'specs/failing.json',
      key: 'title:failing',
      name: 'Failing',
      version: '1.0.0',
      sha256: createHash('sha256').update(text).digest('hex'),
      bytes: text.length,
    });
    const apply = (text: string) =>
      as(publisher)
        .post('/api-management/tree-imports/apply', { orgId: ORG, tree, items: [item(text)], specs: { 'specs/failing.json': text } })
        .expect(200);
    const apiId = (await apply(good)).body.entries[0].apiId as string;
    expect((await apply(bad)).body.entries[0]).toMatchObject({ action: 'failed' });
    await apply(bad);
    const failures = (await outbox(apiId)).filter((event) => event.type === 'api.import.failed');
    expect(failures).toEqual([expect.objectContaining({ data: { source: `${tree}:specs/failing.json`, error: expect.stringMatching(/^422 /) } })]);
  });

  it('should write a change and its events together or not at all', async () => {
    const apiId = await register('Atomic');
    const data = stack.gateway.get(DataSource);
    // The outbox refuses this change's event (rows written before are not checked): the change must not be committed without it.
    await data.query(`ALTER TABLE platform_backend.events ADD CONSTRAINT refuse_revised CHECK (type <> 'api.version.revised') NOT VALID`);
    try {
      await as(publisher).put(`${apis}/${apiId}/versions/1.0.0`, { spec: paymentsV1r2 }).expect(500);
    } finally {
      await data.query(`ALTER TABLE platform_backend.events DROP CONSTRAINT refuse_revised`);
    }
    expect((await as(reader).get(`${apis}/${apiId}/versions`).expect(200)).body.items[0].revision).toBe(1);
    expect((await outbox(apiId)).map((event) => event.type)).toEqual(['api.created']);
  });

  it('should purge events past their retention once delivered, and keep the rest', async () => {
    const apiId = await register('Purged');
    const data = stack.gateway.get(DataSource);
    await data.query(`UPDATE platform_backend.events SET created_at = now() - interval '100 days', dispatched_at = now() WHERE api_id = $1`, [apiId]);
    const recent = await register('Kept');
    await data.query(`UPDATE platform_backend.events SET dispatched_at = now() WHERE api_id = $1`, [recent]);

    expect(await stack.gateway.get(EventRetention).purge()).toBeGreaterThanOrEqual(1);
    expect(await outbox(apiId)).toEqual([]);
    expect((await outbox(recent)).map((event) => event.type)).toEqual(['api.created']);
  });

  /** The API's events as the outbox holds them, oldest first. */
  async function outbox(apiId: string): Promise<PlatformEvent[]> {
    const rows: { id: string; type: string; data: object }[] = await stack.gateway
      .get(DataSource)
      .query(`SELECT id, type, data FROM platform_backend.events WHERE api_id = $1 ORDER BY seq`, [apiId]);
    return rows.map((row) => ({ eventId: row.id, type: row.type, data: row.data }) as unknown as PlatformEvent);
  }
});

function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
