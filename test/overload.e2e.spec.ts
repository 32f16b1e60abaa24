import request from 'supertest';
import { restbenchSpec } from './fixtures/fixtures.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

const ORG = 'acme';

/** Letters in no pattern a stemmer or dictionary knows. */
function gibberish(length: number, seed = 7): string {
  let state = seed;
  return Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return String.fromCharCode(97 + (state % 26));
  }).join('');
}

/**
 * What one search may cost, and what a flood gets. The local model embeds the queries: how long
 * it takes on a huge unknown word is part of what is bounded.
 */
describe('Searches that cost too much, and too many searches', () => {
  let stack: TestStack;
  let reader: string;
  const http = () => request(stack.gateway.getHttpServer());
  const search = (body: object) =>
    http()
      .post('/api-management/ai/search')
      .set('authorization', `Bearer ${reader}`)
      .send({ orgId: ORG, ...body });
  /** The AI app's own liveness probe, timed. */
  const aiHealth = async () => {
    const started = Date.now();
    const response = await request(stack.ai!.getHttpServer()).get('/healthz');
    return { status: response.status, ms: Date.now() - started };
  };

  beforeAll(async () => {
    stack = await startStack({ env: { EMBEDDINGS_PROVIDER: 'local', SEARCH_CONCURRENCY: '1', SEARCH_QUEUE: '2' } });
    reader = await stack.token([ORG], ['publisher']);
    const created = await http()
      .post('/api-management/apis')
      .set('authorization', `Bearer ${reader}`)
      .send({ orgId: ORG, name: 'Spotify', version: '1', spec: restbenchSpec('spotify') });
    await waitForStatus(stack, reader, created.body.apiId, ['COMPLETED'], 120_000);
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('should answer a 1000-letter word soon, while the AI app goes on answering its health probe at once', async () => {
    const started = Date.now();
    const searching = search({ query: gibberish(1000) });
    const probes: { status: number; ms: number }[] = [];
    while (Date.now() - started < 1500) probes.push(await aiHealth());
    const response = await searching;

    expect(response.status).toBe(200);
    // It took 10–13 s (26,000 typo variants of the word through the stemmer) and held every other request.
    expect(Date.now() - started).toBeLessThan(8000);
    expect(probes.length).toBeGreaterThan(3);
    expect(probes.every((probe) => probe.status === 200 && probe.ms < 1000)).toBe(true);
  }, 60_000);

  it('should look for typos in the first few unknown words of a long query only, and say so', async () => {
    const words = Array.from({ length: 70 }, (_, i) => gibberish(12, i + 1)).join(' ');
    const started = Date.now();
    const response = await search({ query: `playlist ${words}` });

    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(response.body.warnings).toEqual([
      "Only the first 32 of the query's 71 distinct words were looked up (SEARCH_MAX_TERMS)",
      "Typos were looked for in the first 5 of the query's 31 words the org's specs do not use (SEARCH_MAX_TYPO_WORDS)",
    ]);
  }, 60_000);

  it('should refuse searches beyond the limit at once with 503, Retry-After and the reason, and answer the others', async () => {
    // One search runs and two wait (SEARCH_CONCURRENCY=1, SEARCH_QUEUE=2): of twelve at once, most are refused.
    const burst = Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const started = Date.now();
        const response = await search({ query: `albums of artist number ${i} ${gibberish(6, i + 50)}` });
        return { response, ms: Date.now() - started };
      }),
    );
    // Busy is not down: the stack stays ready while it refuses searches.
    const ready = await http().get('/readyz');
    const responses = await burst;
    expect(ready.status).toBe(200);
    const refused = responses.filter(({ response }) => response.status === 503);
    const answered = responses.filter(({ response }) => response.status === 200);

    expect(refused.length + answered.length).toBe(12);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const { response } of refused) {
      expect(response.headers['retry-after']).toBe('1');
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.detail).toMatch(/at its limit .*SEARCH_CONCURRENCY, SEARCH_QUEUE/);
    }
    // Refused at once, not after waiting for a turn.
    expect(Math.min(...refused.map(({ ms }) => ms))).toBeLessThan(Math.max(...answered.map(({ ms }) => ms)));
  }, 60_000);
});
