import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { FeedbackReport, SearchResponse, SearchResult } from '#contracts';
import { SEARCH_LOG_RETRY_MS } from '../apps/ai/src/feedback/feedback.service.js';
import { newSearchId } from '../apps/ai/src/ranking/search-id.js';
import { startStack, type TestStack, until, waitForStatus } from './support/stack.js';

const ORG = 'acme';
const OTHER_ORG = 'globex';

/** A small OpenAPI document: what the API does, and its operations as [method, path, summary]. */
function spec(title: string, description: string, operations: [string, string, string][]): string {
  const paths: Record<string, Record<string, object>> = {};
  for (const [method, path, summary] of operations) paths[path] = { ...paths[path], [method]: { summary, responses: { '200': { description: 'OK' } } } };
  return JSON.stringify({ openapi: '3.0.3', info: { title, version: '1.0.0', description }, paths });
}

const CATALOGUE: { name: string; spec: string }[] = [
  {
    name: 'Verify',
    spec: spec('Verify', 'Two-factor verification: send a one-time passcode by SMS or voice call and check what the user typed.', [
      ['post', '/verifications', 'Start a verification: send a one-time code to a phone number'],
      ['post', '/verifications/{id}/check', 'Check the code the user entered'],
    ]),
  },
  {
    name: 'SMS Gateway',
    spec: spec('SMS Gateway', 'Send and receive SMS text messages to mobile phones in 200 countries.', [
      ['post', '/messages', 'Send an SMS text message to a mobile number'],
      ['get', '/messages/{id}', 'Read the delivery status of a message'],
    ]),
  },
  {
    name: 'Voice',
    spec: spec('Voice', 'Place automated phone calls that read a text aloud, and record calls.', [
      ['post', '/calls', 'Call a phone number and speak a message'],
      ['get', '/recordings/{id}', 'Download a call recording'],
    ]),
  },
  {
    name: 'Identity',
    spec: spec('Identity', 'User accounts: sign-up, sign-in sessions, passwords and profile data.', [
      ['post', '/sessions', 'Sign a user in with a password'],
      ['post', '/users', 'Register a new user account'],
      ['post', '/users/{id}/password', 'Change a password'],
    ]),
  },
  {
    name: 'Mail',
    spec: spec('Mail', 'Send transactional email such as receipts and password reset links.', [
      ['post', '/mail/send', 'Send an email to one or more recipients'],
    ]),
  },
  {
    name: 'Payments',
    spec: spec('Payments', 'Charge credit cards, refund charges and list payouts.', [
      ['post', '/charges', 'Charge a card'],
      ['post', '/refunds', 'Refund a charge'],
    ]),
  },
  {
    name: 'Weather',
    spec: spec('Weather', 'Current weather and forecasts for any place.', [['get', '/forecast', 'Forecast for a place']]),
  },
];

/** The need three colleagues had, and a newcomer's words for the same need. */
const PAST_NEED = 'send a one-time passcode to the user phone at sign-in';
const NEW_WORDS = 'text a passcode to the mobile of the user when they sign in';

describe('Search that learns from what people pick (local model, PGlite, Redis)', () => {
  let stack: TestStack;
  let http: () => ReturnType<typeof request>;
  let reader: string;
  let admin: string;
  const apiIds = new Map<string, string>();
  let otherOrgApi: string;
  let baseline: SearchResult[];

  const person = (sub: string, orgs = [ORG]) => stack.token(orgs, ['reader'], { sub });
  const search = async (token: string, query: string, orgId = ORG): Promise<SearchResponse> => {
    const response = await http().post('/api-management/ai/search').set('authorization', `Bearer ${token}`).send({ orgId, query, maxResults: 7 });
    expect(response.status).toBe(200);
    // Order and score agree in every answer.
    const scores = (response.body as SearchResponse).results.map((card) => card.relevanceScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    return response.body;
  };
  const vote = (token: string, body: object) => http().post('/api-management/ai/feedback').set('authorization', `Bearer ${token}`).send(body);
  const report = async (orgId = ORG): Promise<FeedbackReport> => {
    const response = await http().get(`/api-management/ai/admin/feedback?orgId=${orgId}`).set('authorization', `Bearer ${admin}`);
    expect(response.status).toBe(200);
    return response.body;
  };
  const erase = async () => {
    const response = await http().delete(`/api-management/ai/admin/feedback?orgId=${ORG}`).set('authorization', `Bearer ${admin}`);
    expect(response.status).toBe(200);
    return response.body;
  };
  const rankOf = (answer: SearchResponse, apiId: string) => answer.results.findIndex((card) => card.apiId === apiId);

  beforeAll(async () => {
    stack = await startStack({ env: { EMBEDDINGS_PROVIDER: 'local' } });
    http = () => request(stack.gateway.getHttpServer());
    const publisher = await stack.token([ORG, OTHER_ORG], ['publisher']);
    reader = await person('reader');
    admin = await stack.token([ORG], ['admin'], { sub: 'admin' });
    for (const { name, spec: text } of CATALOGUE) {
      const created = await http()
        .post('/api-management/apis')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: ORG, name, version: '1.0.0', spec: text });
      expect(created.status).toBe(201);
      apiIds.set(name, created.body.apiId);
    }
    const other = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: OTHER_ORG, name: 'SMS Gateway', version: '1.0.0', spec: CATALOGUE[1].spec });
    otherOrgApi = other.body.apiId;
    for (const apiId of [...apiIds.values(), otherOrgApi])
      await expect(waitForStatus(stack, publisher, apiId, ['COMPLETED', 'FAILED'], 120_000)).resolves.toMatchObject({ status: 'COMPLETED' });
    baseline = (await search(reader, NEW_WORDS)).results;
  }, 240_000);

  // Each test starts from an org without feedback.
  afterEach(async () => {
    await erase();
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('should name every answer with a searchId and take feedback on it from any member of the org, with clear 4xx otherwise', async () => {
    const answer = await search(reader, PAST_NEED);
    expect(answer.searchId).toMatch(/^[0-9a-f-]{36}$/);
    // The same search again is a new answer (the cache does not reuse its name).
    expect((await search(reader, PAST_NEED)).searchId).not.toBe(answer.searchId);
    const verify = apiIds.get('Verify')!;

    expect((await vote(reader, { searchId: answer.searchId, apiId: verify, helpful: true })).status).toBe(204);
    // Any API of the org, also one the search did not return; with an operation.
    expect(
      (await vote(reader, { searchId: answer.searchId, apiId: apiIds.get('Weather'), operation: { method: 'get', path: '/forecast' }, helpful: false })).status,
    ).toBe(204);

    const problems: [object, number, RegExp][] = [
      [{ searchId: 'not-a-uuid', apiId: verify, helpful: true }, 400, /searchId/],
      [{ searchId: answer.searchId, apiId: 'nope', helpful: true }, 400, /apiId/],
      [{ searchId: answer.searchId, apiId: verify }, 400, /helpful/],
      [{ searchId: answer.searchId, apiId: verify, helpful: true, signal: 'clicked' }, 400, /signal/],
      [{ searchId: answer.searchId, apiId: verify, helpful: false, signal: 'opened' }, 400, /opened signal is helpful/],
      [{ searchId: answer.searchId, apiId: verify, helpful: true, operation: { method: 'get it', path: '/x' } }, 400, /operation.method/],
      [{ searchId: '00000000-0000-4000-8000-000000000000', apiId: verify, helpful: true }, 404, /unknown or older/],
      [{ searchId: answer.searchId, apiId: otherOrgApi, helpful: true }, 404, /not in the search's org/],
      // An operation the API does not have: one person's invented paths would each be a signal.
      [{ searchId: answer.searchId, apiId: verify, helpful: true, operation: { method: 'GET', path: '/invented' } }, 404, /has no operation GET \/invented/],
    ];
    for (const [body, status, message] of problems) {
      const response = await vote(reader, body);
      expect({ body, status: response.status }).toEqual({ body, status });
      expect(JSON.stringify(response.body)).toMatch(message);
    }
    // A search of another org: refused to its outsiders, whatever API they name.
    const outsider = await person('outsider', [OTHER_ORG]);
    expect((await vote(outsider, { searchId: answer.searchId, apiId: verify, helpful: true })).status).toBe(403);
    // A browse has no need to learn from.
    const browse = await search(reader, '');
    expect((await vote(reader, { searchId: browse.searchId, apiId: verify, helpful: true })).status).toBe(422);
    expect((await http().post('/api-management/ai/feedback').send({ searchId: answer.searchId, apiId: verify, helpful: true })).status).toBe(401);

    // Admins of the org see it: one person, two signals, identity as a short hash only.
    expect((await http().get(`/api-management/ai/admin/feedback?orgId=${ORG}`).set('authorization', `Bearer ${reader}`)).status).toBe(403);
    const otherAdmin = await stack.token([OTHER_ORG], ['admin']);
    expect((await http().get(`/api-management/ai/admin/feedback?orgId=${ORG}`).set('authorization', `Bearer ${otherAdmin}`)).status).toBe(403);
    const seen = await report();
    expect(seen).toMatchObject({ orgId: ORG, signals: 2, people: 1 });
    expect(seen.recent).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ apiId: verify, helpful: true, signal: 'vote', query: PAST_NEED }),
        expect.objectContaining({ operation: { method: 'GET', path: '/forecast' } }),
      ]),
    );
    expect(JSON.stringify(seen)).not.toContain('reader');
    expect(await erase()).toEqual({ orgId: ORG, signals: 2 });
    expect(await report()).toMatchObject({ signals: 0, people: 0, apis: [], recent: [] });
  });

  it('should rank what three people chose for the same need first for the next person, and say so on the card', async () => {
    // The card third for these words before anyone chose it.
    const chosen = baseline[2];
    // Its operation listed last: the one they used.
    const { method, path } = chosen.endpoints.at(-1)!;
    for (const colleague of ['colleague-1', 'colleague-2', 'colleague-3']) {
      const token = await person(colleague);
      const answer = await search(token, NEW_WORDS);
      expect((await vote(token, { searchId: answer.searchId, apiId: chosen.apiId, operation: { method, path }, helpful: true })).status).toBe(204);
      expect((await vote(token, { searchId: answer.searchId, apiId: chosen.apiId, helpful: true })).status).toBe(204);
    }
    const after = await search(await person('newcomer'), NEW_WORDS);
    expect(rankOf(after, chosen.apiId)).toBe(0);
    const card = after.results[0];
    expect(card.evidence?.feedback).toMatchObject({
      helpful: 3,
      opened: 0,
      notHelpful: 0,
      moved: 2,
      reason: 'Up 2 places: 3 people voted it the answer for this need',
    });
    expect(card.relevanceScore).toBeGreaterThan(chosen.relevanceScore);
    // The operation they chose leads the card.
    expect(card.endpoints[0]).toMatchObject({ method, path });
    // Feedback never crosses orgs: the other org's copy of an API has none.
    const multiOrg = await person('colleague-1', [ORG, OTHER_ORG]);
    const elsewhere = await search(multiOrg, NEW_WORDS, OTHER_ORG);
    expect(elsewhere.results.every((result) => result.evidence?.feedback === undefined)).toBe(true);
    // An unrelated need is not moved.
    const weather = await search(reader, 'forecast of tomorrow rain in Paris');
    expect(weather.results.find((result) => result.apiId === chosen.apiId)?.evidence?.feedback).toBeUndefined();
  });

  it("should lift what people chose for the same need in other words to fourth place at best, never above the content's top 3", async () => {
    // The card last for the newcomer's words, and one of the content's top 3.
    const [chosen, top] = [baseline.at(-1)!, baseline[1]];
    // The model's need matching is fitted in the background, started by the first vote (or this report): until then, the same need only.
    const fitted = await until(report, (seen) => seen.learning.threshold !== undefined, 60_000);
    expect(fitted.learning).toMatchObject({ matches: 'paraphrases', model: expect.any(String) });
    for (const colleague of ['colleague-1', 'colleague-2', 'colleague-3']) {
      const token = await person(colleague);
      const answer = await search(token, PAST_NEED);
      for (const apiId of [chosen.apiId, top.apiId]) expect((await vote(token, { searchId: answer.searchId, apiId, helpful: true })).status).toBe(204);
    }
    const after = await search(await person('newcomer'), NEW_WORDS);
    expect(rankOf(after, chosen.apiId)).toBe(3);
    const evidence = after.results[3].evidence!.feedback!;
    expect(evidence).toMatchObject({ helpful: 3, moved: baseline.length - 4 });
    expect(evidence.similarity).toBeGreaterThan(0.6);
    expect(evidence.reason).toMatch(
      /^Up \d places: 3 people voted it the answer for this need in other words \(similarity 0\.\d+\); votes for other words never lift an API above the 3 the content ranks first$/,
    );
    // Already among the top 3: it stays where the content put it.
    expect(rankOf(after, top.apiId)).toBe(1);
    expect(after.results[1].evidence?.feedback).toMatchObject({ helpful: 3, moved: 0 });
  });

  it('should let one person move a result only a little, however often they vote', async () => {
    // The card last for these words: a wrong answer someone pushes 40 times.
    const wrong = baseline.at(-1)!;
    const flooder = await person('flooder');
    for (let round = 0; round < 40; round++) {
      const answer = await search(flooder, NEW_WORDS);
      expect((await vote(flooder, { searchId: answer.searchId, apiId: wrong.apiId, helpful: true })).status).toBe(204);
    }
    const after = await search(await person('someone-else'), NEW_WORDS);
    expect(rankOf(after, wrong.apiId)).toBeGreaterThan(2);
    expect(after.results.find((result) => result.apiId === wrong.apiId)?.evidence?.feedback).toMatchObject({ helpful: 1 });
    expect(after.results.find((result) => result.apiId === wrong.apiId)!.evidence!.feedback!.weight).toBeLessThanOrEqual(0.04);
    expect((await report()).apis).toEqual([{ apiId: wrong.apiId, helpful: 1, notHelpful: 0 }]);
  });

  it('should rank lower what people said was not what they needed, for that need only', async () => {
    const first = baseline[0];
    const critics = await Promise.all(['critic-1', 'critic-2', 'critic-3'].map((sub) => person(sub)));
    // Said of the need in other words: it was given for another wording, and moves nothing here.
    for (const token of critics) {
      const answer = await search(token, PAST_NEED);
      expect((await vote(token, { searchId: answer.searchId, apiId: first.apiId, helpful: false })).status).toBe(204);
    }
    const unmoved = await search(reader, NEW_WORDS);
    expect(rankOf(unmoved, first.apiId)).toBe(0);
    expect(unmoved.results[0].evidence?.feedback).toBeUndefined();
    for (const token of critics) {
      const answer = await search(token, NEW_WORDS);
      expect((await vote(token, { searchId: answer.searchId, apiId: first.apiId, helpful: false })).status).toBe(204);
    }
    const after = await search(reader, NEW_WORDS);
    expect(rankOf(after, first.apiId)).toBeGreaterThan(0);
    expect(after.results.find((result) => result.apiId === first.apiId)?.evidence?.feedback).toMatchObject({
      helpful: 0,
      notHelpful: 3,
      reason: expect.stringMatching(/^Down \d places?: 3 people said it was not what they needed for this need$/),
    });
  });

  it('should count an agent opening an API that its search returned as a signal (MCP)', async () => {
    const token = await person('agent');
    const client = new Client({ name: 'feedback-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      await client.callTool({ name: 'search_apis', arguments: { query: NEW_WORDS, orgId: ORG } });
      const opened = baseline[1].apiId;
      await client.callTool({ name: 'get_api', arguments: { apiId: opened } });
      const signals = await until(report, (seen) => seen.signals > 0, 30_000);
      expect(signals.recent).toEqual([expect.objectContaining({ apiId: opened, helpful: true, signal: 'opened', query: NEW_WORDS })]);
      // An API the search did not return is no signal: the one opened after it is, and is the only one more.
      await client.callTool({ name: 'get_api', arguments: { apiId: apiIds.get('Weather') } });
      const next = baseline[2].apiId;
      await client.callTool({ name: 'get_api', arguments: { apiId: next } });
      const after = await until(report, (seen) => seen.recent.some((signal) => signal.apiId === next), 30_000);
      expect(after.recent.map((signal) => signal.apiId).sort()).toEqual([opened, next].sort());
    } finally {
      await client.close();
    }
  });

  it("should record an agent's rate_result as its vote, in place of the opened signal it gave, and refuse a bad rating in words (MCP)", async () => {
    const connect = async (token: string) => {
      const connected = new Client({ name: 'feedback-e2e', version: '1.0.0' });
      await connected.connect(
        new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
      return connected;
    };
    const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    const client = await connect(await person('rating-agent'));
    const outsider = await connect(await person('outsider-agent', [OTHER_ORG]));
    try {
      const searched = (await client.callTool({ name: 'search_apis', arguments: { query: PAST_NEED, orgId: ORG } })) as CallToolResult;
      const { searchId, results } = searched.structuredContent as {
        searchId: string;
        results: { apiId: string; endpoints: { method: string; path: string }[] }[];
      };
      const wrong = results[0].apiId;
      await client.callTool({ name: 'get_api', arguments: { apiId: wrong } });
      const { method, path } = results[0].endpoints[0];
      await client.callTool({ name: 'get_operation', arguments: { apiId: wrong, method, path } });
      await until(report, (seen) => seen.signals === 2, 30_000);

      const rated = (await client.callTool({ name: 'rate_result', arguments: { searchId, apiId: wrong, helpful: false } })) as CallToolResult;
      expect(rated.isError).toBeFalsy();
      expect(text(rated)).toBe(`Recorded: API ${wrong} did not answer "${PAST_NEED}".`);
      expect(rated.structuredContent).toEqual({ searchId, apiId: wrong, helpful: false, signal: 'vote', query: PAST_NEED });
      // The vote took the opened signals' place, the operation's too: one signal, against.
      expect((await report()).recent).toEqual([expect.objectContaining({ apiId: wrong, helpful: false, signal: 'vote', query: PAST_NEED })]);

      // An operation, its method in any case.
      const verify = apiIds.get('Verify')!;
      const withOperation = (await client.callTool({
        name: 'rate_result',
        arguments: { searchId, apiId: verify, operation: { method: 'post', path: '/verifications' }, helpful: true },
      })) as CallToolResult;
      expect(text(withOperation)).toBe(`Recorded: POST /verifications of API ${verify} answered "${PAST_NEED}".`);
      expect((await report()).recent).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ apiId: verify, operation: { method: 'POST', path: '/verifications' }, helpful: true, signal: 'vote' }),
        ]),
      );

      const refusals: [CallToolResult, RegExp][] = [
        [
          (await client.callTool({
            name: 'rate_result',
            arguments: { searchId: '00000000-0000-4000-8000-000000000000', apiId: verify, helpful: true },
          })) as CallToolResult,
          /^Search "00000000-0000-4000-8000-000000000000" is unknown/,
        ],
        [
          (await client.callTool({ name: 'rate_result', arguments: { searchId, apiId: otherOrgApi, helpful: true } })) as CallToolResult,
          /not in the search's org/,
        ],
        [
          (await client.callTool({
            name: 'rate_result',
            arguments: { searchId, apiId: verify, operation: { method: 'GET', path: '/invented' }, helpful: true },
          })) as CallToolResult,
          /has no operation GET \/invented/,
        ],
        [
          (await outsider.callTool({ name: 'rate_result', arguments: { searchId, apiId: verify, helpful: true } })) as CallToolResult,
          /org you are not a member of/,
        ],
      ];
      for (const [refused, message] of refusals) {
        expect(refused.isError).toBe(true);
        expect(text(refused)).toMatch(message);
        expect(text(refused)).not.toMatch(/\n\s+at /);
      }
      expect((await report()).signals).toBe(2);
    } finally {
      await client.close();
      await outsider.close();
    }
  });

  it("should answer exactly as before any feedback once the org's feedback is erased", async () => {
    const after = (await search(reader, NEW_WORDS)).results;
    expect(after.map((card) => [card.apiId, card.relevanceScore])).toEqual(baseline.map((card) => [card.apiId, card.relevanceScore]));
    expect(after.every((card) => card.evidence?.feedback === undefined)).toBe(true);
  });
});

/** When feedback arrives: past the window, or before the search's log row (written after the answer) has committed. */
describe('Feedback window and search log lag', () => {
  let stack: TestStack;
  let token: string;
  let apiId: string;
  const http = () => request(stack.gateway.getHttpServer());
  const feedback = (searchId: string) =>
    http().post('/api-management/ai/feedback').set('authorization', `Bearer ${token}`).send({ searchId, apiId, helpful: true });
  const timed = async <T>(call: () => Promise<T>) => {
    const started = Date.now();
    return { answer: await call(), ms: Date.now() - started };
  };
  const waitedAtMost = SEARCH_LOG_RETRY_MS.reduce((sum, pause) => sum + pause, 0);

  beforeAll(async () => {
    // 0.00005 days: 4.3 s.
    stack = await startStack({ env: { FEEDBACK_WINDOW_DAYS: '0.00005' } });
    token = await stack.token([ORG], ['publisher']);
    const created = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${token}`)
      .send({ orgId: ORG, ...CATALOGUE[0], version: '1.0.0' });
    apiId = created.body.apiId;
    await waitForStatus(stack, token, apiId);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should refuse feedback on a search older than the window with a 404 that says so', async () => {
    const answer = await http().post('/api-management/ai/search').set('authorization', `Bearer ${token}`).send({ orgId: ORG, query: PAST_NEED });
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const late = await timed(() => feedback(answer.body.searchId));
    expect(late.answer.status).toBe(404);
    expect(late.answer.body.detail).toMatch(/older than 0.00005 days \(FEEDBACK_WINDOW_DAYS\)/);
    // Logged, only too old: nothing to wait for.
    expect(late.ms).toBeLessThan(waitedAtMost);
  }, 30_000);

  // Another AI replica answered the search and logs it after answering: the feedback (an agent's
  // next call, through another gateway and AI replica) can come first.
  it("should accept feedback that arrives before the search's log row commits", async () => {
    const searchId = newSearchId();
    const logged = new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
      stack.ai!.get(DataSource).query(`INSERT INTO platform_ai.searches (id, org_id, query) VALUES ($1, $2, $3)`, [searchId, ORG, PAST_NEED]),
    );

    const early = await feedback(searchId);
    await logged;

    expect(early.status).toBe(204);
  });

  it('should refuse a searchId that is not logged: after a bounded wait if it was made a moment ago, at once otherwise', async () => {
    const unknown = await timed(() => feedback(newSearchId()));
    expect(unknown.answer.status).toBe(404);
    expect(unknown.ms).toBeGreaterThanOrEqual(waitedAtMost);
    expect(unknown.ms).toBeLessThan(waitedAtMost + 2000);

    for (const searchId of [newSearchId(Date.now() - 60_000), '00000000-0000-4000-8000-000000000000']) {
      const old = await timed(() => feedback(searchId));
      expect({ searchId, status: old.answer.status }).toEqual({ searchId, status: 404 });
      expect(old.ms).toBeLessThan(waitedAtMost);
    }
  });
});
