import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import type { FeedbackReport } from '#contracts';
import { readFixture } from './fixtures/fixtures.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startStack, type TestStack, until, waitForStatus } from './support/stack.js';

/**
 * An agent behind a load balancer without sticky sessions: its `search_apis` reaches one gateway
 * (and that gateway's AI API), its `get_api` another. The opening still counts as choosing, once:
 * the MCP endpoint keeps no session, the agent's recent searches are in Redis, and the AI API that
 * records the signal reads the search log the other one wrote. Two stacks (gateway + AI app each)
 * on one PostgreSQL database and one Redis prefix; runs when TEST_DATABASE_URL is set.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const describeWithPostgres = serverUrl ? describe : describe.skip;
const ORG = 'acme';
const QUERY = 'place an order for a pet';

describeWithPostgres('MCP implicit feedback across gateway replicas (PostgreSQL, Redis)', () => {
  const database = scratchDatabase(serverUrl, 'mcp_replicas');
  let one: TestStack;
  let two: TestStack;

  const mcp = async (stack: TestStack, token: string) => {
    const client = new Client({ name: 'mcp-replicas-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  };

  beforeAll(async () => {
    await database.create();
    // What replicas share: the database, Redis under one prefix, the token secret and the service token.
    const env = {
      DATABASE_URL: database.url,
      QUEUE_PREFIX: `test-${randomUUID().slice(0, 8)}`,
      AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
      AI_SERVICE_TOKEN: randomBytes(24).toString('base64url'),
    };
    // Started at once, as replicas are: both migrate the empty database (one waits for the other).
    [one, two] = await Promise.all([startStack({ env }), startStack({ env })]);
  }, 180_000);

  afterAll(async () => {
    await two?.close();
    await one?.close();
    await database.drop();
  });

  it("should count an agent's get_api on one gateway after its search_apis on the other, once across both", async () => {
    const publisher = await one.token([ORG], ['publisher']);
    const created = await request(one.gateway.getHttpServer())
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: ORG, name: 'Petstore', version: '1', spec: readFixture('petstore-swagger2.yaml') });
    await expect(waitForStatus(one, publisher, created.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
    const agent = await one.token([ORG], ['reader'], { sub: 'agent-7' });
    const report = async (): Promise<FeedbackReport> => {
      const adminToken = await two.token([ORG], ['admin'], { sub: 'admin' });
      return (await request(two.gateway.getHttpServer()).get(`/api-management/ai/admin/feedback?orgId=${ORG}`).set('authorization', `Bearer ${adminToken}`))
        .body;
    };

    const [throughOne, throughTwo] = [await mcp(one, agent), await mcp(two, agent)];
    try {
      const found = await throughOne.callTool({ name: 'search_apis', arguments: { query: QUERY, orgId: ORG } });
      expect(JSON.stringify(found.structuredContent)).toContain(created.body.apiId);
      await throughTwo.callTool({ name: 'get_api', arguments: { apiId: created.body.apiId } });

      const seen = await until(report, (answer) => answer.signals > 0, 30_000);
      expect(seen.recent).toEqual([expect.objectContaining({ apiId: created.body.apiId, helpful: true, signal: 'opened', query: QUERY })]);

      // Opened again, through the first gateway: the same choice, not a second signal.
      await throughOne.callTool({ name: 'get_api', arguments: { apiId: created.body.apiId } });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await report()).signals).toBe(1);
    } finally {
      await throughOne.close();
      await throughTwo.close();
    }
  });
});
