import request from 'supertest';
import { LABEL_LIMITS } from '#contracts';
import { startStack, type TestStack, until, waitForStatus } from './support/stack.js';

const ORG = 'acme';

function spec(title: string, path: string, summary: string): object {
  return { openapi: '3.0.3', info: { title, version: '1' }, paths: { [path]: { get: { summary, responses: { '200': { description: 'OK' } } } } } };
}

/** Labels (issue #30): on records, jobs, cards, search's `filters.labels`, the catalogue's `?label=` and the MCP tools. */
describe('API labels', () => {
  let stack: TestStack;
  let publisher: string;
  let reader: string;
  const ids: Record<string, string> = {};
  const http = () => request(stack.gateway.getHttpServer());
  const register = (body: Record<string, unknown>) =>
    http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, version: '1', spec: spec(String(body.name), '/invoices', 'List invoices'), ...body });
  const put = (apiId: string, body: Record<string, unknown>) =>
    http()
      .put(`/api-management/apis/${apiId}`)
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, version: '1', spec: spec(String(body.name), '/invoices', 'List invoices'), ...body });
  const list = (query: string) => http().get(`/api-management/apis?orgId=${ORG}&${query}`).set('authorization', `Bearer ${reader}`);
  const search = (filters: object, query = 'invoices') =>
    http().post('/api-management/ai/search').set('authorization', `Bearer ${reader}`).send({ orgId: ORG, query, filters, maxResults: 50 });
  const rawMcp = (id: number, name: string, args: object) =>
    http()
      .post('/mcp')
      .set('authorization', `Bearer ${reader}`)
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

  beforeAll(async () => {
    stack = await startStack();
    publisher = await stack.token([ORG], ['publisher']);
    reader = await stack.token([ORG], ['reader']);
    ids.billing = (await register({ name: 'Billing', labels: { tier: 'Gold', 'cost-center': ' CC-1234 ', 'team.io/owner': 'fin' } }).expect(201)).body.apiId;
    ids.ledger = (await register({ name: 'Ledger', labels: { tier: 'silver' } }).expect(201)).body.apiId;
    ids.plain = (await register({ name: 'Plain' }).expect(201)).body.apiId;
    for (const id of Object.values(ids)) await waitForStatus(stack, reader, id, ['COMPLETED'], 120_000);
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should keep the labels on the record, values trimmed, and give {} to an API without any', async () => {
    const billing = await http().get(`/api-management/apis/${ids.billing}`).set('authorization', `Bearer ${reader}`).expect(200);
    expect(billing.body.labels).toEqual({ tier: 'Gold', 'cost-center': 'CC-1234', 'team.io/owner': 'fin' });
    const plain = await http().get(`/api-management/apis/${ids.plain}`).set('authorization', `Bearer ${reader}`).expect(200);
    expect(plain.body.labels).toEqual({});
  });

  it.each([
    ['an upper-case key', { Tier: 'gold' }, /label key "Tier" must be .*lower case/],
    ['a key with a space', { 'cost center': 'x' }, /label key "cost center"/],
    ['a key starting with "-"', { '-x': 'y' }, /label key "-x"/],
    ['a key of 64 characters', { ['k'.repeat(64)]: 'y' }, /label key "k{64}"/],
    ['an empty value', { tier: '  ' }, /label "tier" must have a value of 1-100 characters/],
    ['a value of 101 characters', { tier: 'g'.repeat(101) }, /label "tier" must have a value of 1-100/],
    ['a value with a line break', { tier: 'go\nld' }, /label "tier" must have a value without control characters/],
    ['a number as value', { tier: 1 }, /label "tier" must have a string value/],
    ['an array', ['tier'], /labels must be an object/],
    ['too many', Object.fromEntries(Array.from({ length: LABEL_LIMITS.maxLabels + 1 }, (_, i) => [`k${i}`, 'v'])), /at most 20 labels/],
    // As JSON.parse makes it, an own key (a literal's `__proto__` would set the prototype): Nest's validation dropped it without a word.
    ['a "__proto__" key', JSON.parse('{"tier": "gold", "__proto__": "x"}'), /^labels: key "__proto__" is reserved/],
    ['a "constructor" key', { constructor: 'x' }, /^labels: key "constructor" is reserved/],
    ['a "prototype" key', { prototype: 'x' }, /^labels: key "prototype" is reserved/],
  ])('should refuse %s with a 400 problem naming the label', async (_case, labels, message) => {
    const answer = await register({ name: `Bad ${_case}`, labels });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.body.detail).toMatch(message);
  });

  it('should accept exactly 20 labels with keys of 63 characters', async () => {
    const labels = Object.fromEntries(Array.from({ length: LABEL_LIMITS.maxLabels }, (_, i) => [`${i}`.padEnd(63, 'k'), 'v'.repeat(100)]));
    const answer = await register({ name: 'Twenty', labels }).expect(201);
    expect(Object.keys(answer.body.labels)).toHaveLength(20);
    await http().delete(`/api-management/apis/${answer.body.apiId}`).set('authorization', `Bearer ${publisher}`).expect(204);
  });

  it('should keep the labels on a PUT that leaves them out, and clear them with {}', async () => {
    const created = await register({ name: 'Changing', labels: { stage: 'beta' } }).expect(201);
    const kept = await put(created.body.apiId, { name: 'Changing', description: 'now described' }).expect(200);
    expect(kept.body.labels).toEqual({ stage: 'beta' });
    const replaced = await put(created.body.apiId, { name: 'Changing', labels: { stage: 'ga' } }).expect(200);
    expect(replaced.body.labels).toEqual({ stage: 'ga' });
    const cleared = await put(created.body.apiId, { name: 'Changing', labels: {} }).expect(200);
    expect(cleared.body.labels).toEqual({});
    const read = await http().get(`/api-management/apis/${created.body.apiId}`).set('authorization', `Bearer ${reader}`).expect(200);
    expect(read.body.labels).toEqual({});
    await http().delete(`/api-management/apis/${created.body.apiId}`).set('authorization', `Bearer ${publisher}`).expect(204);
  });

  it('should filter the catalogue by ?label=key:value, every one, the value in any case', async () => {
    const gold = await list('label=tier:gold').expect(200);
    expect(gold.body.items.map((api: { apiId: string }) => api.apiId)).toEqual([ids.billing]);
    expect(gold.body.total).toBe(1);
    expect((await list('label=tier:GOLD&label=cost-center:cc-1234').expect(200)).body.items.map((api: { apiId: string }) => api.apiId)).toEqual([ids.billing]);
    expect((await list('label=tier:gold&label=cost-center:other').expect(200)).body.total).toBe(0);
    expect((await list('label=team.io/owner:fin').expect(200)).body.total).toBe(1);
    // A value may hold ':'.
    expect((await list('label=tier:gold:extra').expect(200)).body.total).toBe(0);
  });

  it.each([
    ['no colon', 'label=tier', /label must be "key:value"/],
    ['an upper-case key', 'label=Tier:gold', /label key "Tier"/],
    ['an empty value', 'label=tier:', /value of 1-100 characters/],
    ['an object', 'label[tier]=gold', /label/],
  ])('should refuse a malformed ?label= (%s) with a 400', async (_case, query, message) => {
    const answer = await list(query);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.body.detail).toMatch(message);
  });

  it('should narrow search to APIs with every label of filters.labels (values in any case), and show labels on the cards', async () => {
    const all = await search({}).expect(200);
    expect(all.body.results.map((card: { apiId: string }) => card.apiId).sort()).toEqual(Object.values(ids).sort());
    const byId = new Map(all.body.results.map((card: { apiId: string; labels: object }) => [card.apiId, card.labels]));
    expect(byId.get(ids.billing)).toEqual({ tier: 'Gold', 'cost-center': 'CC-1234', 'team.io/owner': 'fin' });
    expect(byId.get(ids.plain)).toEqual({});

    const gold = await search({ labels: { tier: 'GOLD' } }).expect(200);
    expect(gold.body.results.map((card: { apiId: string }) => card.apiId)).toEqual([ids.billing]);
    expect(gold.body.results[0].labels).toEqual({ tier: 'Gold', 'cost-center': 'CC-1234', 'team.io/owner': 'fin' });
    const both = await search({ labels: { tier: 'gold', 'cost-center': 'cc-1234' } }).expect(200);
    expect(both.body.results.map((card: { apiId: string }) => card.apiId)).toEqual([ids.billing]);
    expect((await search({ labels: { tier: 'gold', 'cost-center': 'other' } }).expect(200)).body.results).toEqual([]);
    // Keys are compared as given: lower case by rule.
    expect((await search({ labels: { tier: 'silver' } }).expect(200)).body.results.map((card: { apiId: string }) => card.apiId)).toEqual([ids.ledger]);
    // Browsing (empty query) filters alike.
    expect((await search({ labels: { tier: 'silver' } }, '').expect(200)).body.results.map((card: { apiId: string }) => card.apiId)).toEqual([ids.ledger]);
    expect((await search({ labels: {} }).expect(200)).body.results).toHaveLength(3);
  });

  it('should refuse bad filters.labels with a 400 naming the label', async () => {
    const upper = await search({ labels: { Tier: 'gold' } });
    expect(upper.status).toBe(400);
    expect(upper.body.detail).toMatch(/filters\.labels: label key "Tier"/);
    const array = await search({ labels: ['tier'] });
    expect(array.status).toBe(400);
    expect(array.body.detail).toMatch(/filters\.labels must be an object/);
    const tooMany = await search({ labels: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) });
    expect(tooMany.status).toBe(400);
    for (const labels of [JSON.parse('{"__proto__": "x"}'), { constructor: 'x' }]) {
      const reserved = await search({ labels });
      expect(reserved.status).toBe(400);
      expect(reserved.body.detail).toMatch(/^filters\.labels: key "(__proto__|constructor)" is reserved/);
      // The MCP tool's schema would drop the key and search every API: refused too.
      const agent = await rawMcp(9, 'search_apis', { query: 'invoices', orgId: ORG, filters: { labels } });
      expect(agent.status).toBe(400);
      expect(agent.body.error.message).toMatch(/^params\.arguments\.filters\.labels: key "(__proto__|constructor)" is reserved/);
    }
  });

  it('should refuse a reserved label key on PATCH too, and keep the labels the API had', async () => {
    const patch = (labels: object) => http().patch(`/api-management/apis/${ids.ledger}`).set('authorization', `Bearer ${publisher}`).send({ labels });
    const refused = await patch(JSON.parse('{"__proto__": {"tier": "gold"}}'));
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/^labels: key "__proto__" is reserved/);
    const record = await http().get(`/api-management/apis/${ids.ledger}`).set('authorization', `Bearer ${reader}`).expect(200);
    expect(record.body.labels).toEqual({ tier: 'silver' });
  });

  it('should carry new labels into the index on re-registration (PUT) and into the cards', async () => {
    await put(ids.ledger, { name: 'Ledger', labels: { tier: 'gold' } }).expect(200);
    await until(
      async () => (await search({ labels: { tier: 'gold' } }).expect(200)).body.results.map((card: { apiId: string }) => card.apiId).sort(),
      (found: string[]) => found.length === 2,
      60_000,
    );
    expect((await search({ labels: { tier: 'silver' } }).expect(200)).body.results).toEqual([]);
    await put(ids.ledger, { name: 'Ledger', labels: { tier: 'silver' } }).expect(200);
    await until(
      async () => (await search({ labels: { tier: 'silver' } }).expect(200)).body.results.map((card: { apiId: string }) => card.apiId),
      (found: string[]) => found.length === 1,
      60_000,
    );
  }, 130_000);

  it('should filter list_apis by label and search_apis by filters.labels over MCP, showing labels in text and data', async () => {
    const listed = await rawMcp(1, 'list_apis', { orgId: ORG, label: 'tier:GOLD' }).expect(200);
    expect(listed.body.result.isError).toBeFalsy();
    expect(listed.body.result.structuredContent.items.map((api: { apiId: string }) => api.apiId)).toEqual([ids.billing]);
    expect(listed.body.result.structuredContent.items[0].labels).toEqual({ tier: 'Gold', 'cost-center': 'CC-1234', 'team.io/owner': 'fin' });
    expect(listed.body.result.content[0].text).toMatch(/Labels: .*tier=Gold/);

    const malformed = await rawMcp(2, 'list_apis', { label: 'tier' }).expect(200);
    expect(malformed.body.result.isError).toBe(true);
    expect(malformed.body.result.content[0].text).toMatch(/label must be "key:value"/);

    const withTag = await rawMcp(3, 'list_apis', { label: 'tier:gold', tag: 'nothing-has-this' }).expect(200);
    expect(withTag.body.result.isError).toBeFalsy();
    expect(withTag.body.result.structuredContent.total).toBe(0);

    const searched = await rawMcp(4, 'search_apis', { query: 'invoices', filters: { labels: { 'cost-center': 'cc-1234' } } }).expect(200);
    expect(searched.body.result.isError).toBeFalsy();
    expect(searched.body.result.structuredContent.results.map((card: { apiId: string }) => card.apiId)).toEqual([ids.billing]);
    expect(searched.body.result.structuredContent.results[0].labels).toMatchObject({ 'cost-center': 'CC-1234' });
    expect(searched.body.result.content[0].text).toMatch(/Labels: .*cost-center=CC-1234/);

    const got = await rawMcp(5, 'get_api', { apiId: ids.billing }).expect(200);
    expect(got.body.result.structuredContent.labels).toEqual({ tier: 'Gold', 'cost-center': 'CC-1234', 'team.io/owner': 'fin' });
    expect(got.body.result.content[0].text).toMatch(/^Labels: [^\n]*tier=Gold/m);

    const bad = await rawMcp(6, 'search_apis', { query: 'invoices', filters: { labels: { Tier: 'gold' } } }).expect(200);
    expect(bad.body.result.isError).toBe(true);
    expect(bad.body.result.content[0].text).toMatch(/label key "Tier"/);
  });
});
