import request from 'supertest';
import { readFixture } from './fixtures/fixtures.js';
import { startStack, type TestStack, waitForStatus } from './support/stack.js';

/**
 * The production path: migrations, indexing and search on a real PostgreSQL server with
 * pgvector. Runs when TEST_DATABASE_URL points at one (an empty database); skipped otherwise.
 * And again through PgBouncer in transaction pool mode (#33) when TEST_PGBOUNCER_URL points at
 * one in front of another empty database, so that the migrations go through it too: no statement
 * may count on the session of the one before it outside a transaction.
 */
const databases = [
  { name: 'PostgreSQL with pgvector (TEST_DATABASE_URL)', url: process.env.TEST_DATABASE_URL },
  { name: 'PostgreSQL with pgvector through PgBouncer in transaction mode (TEST_PGBOUNCER_URL)', url: process.env.TEST_PGBOUNCER_URL },
];

for (const { name, url } of databases) {
  const describeWithPostgres = url ? describe : describe.skip;

  describeWithPostgres(name, () => {
    let stack: TestStack;

    beforeAll(async () => {
      // hash: the one API of its org is found whatever the model; the database is tested.
      stack = await startStack({ env: { DATABASE_URL: url! } });
    }, 180_000);

    afterAll(async () => {
      await stack?.close();
    });

    it('should migrate, index a spec and find it', async () => {
      const org = `pg-${Date.now()}`;
      const publisher = await stack.token([org], ['publisher']);
      const created = await request(stack.gateway.getHttpServer())
        .post('/api-management/apis')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: org, name: 'Petstore', version: '1', labels: { tier: 'Gold' }, spec: readFixture('petstore-swagger2.yaml') });
      await expect(waitForStatus(stack, publisher, created.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
      const found = await request(stack.gateway.getHttpServer())
        .post('/api-management/ai/search')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: org, query: 'place an order for a pet' });
      expect(found.body.results[0]).toMatchObject({ apiId: created.body.apiId });

      // A tag filter (migration 12's index of lower-cased tags; few chunks: measured exactly).
      const byTag = await request(stack.gateway.getHttpServer())
        .post('/api-management/ai/search')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: org, query: 'place an order for a pet', filters: { tags: ['STORE'] } });
      expect(byTag.body.results.map((result: { apiId: string }) => result.apiId)).toEqual([created.body.apiId]);
      expect(byTag.body.results[0].endpoints).toEqual([expect.objectContaining({ method: 'POST', path: '/store/order' })]);
      const noTag = await request(stack.gateway.getHttpServer())
        .post('/api-management/ai/search')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: org, query: 'place an order for a pet', filters: { tags: ['inventory'] } });
      expect(noTag.body.results).toEqual([]);

      // Labels (migrations ApiLabels: jsonb containment on lower-cased values, GIN-indexed), in search and the catalogue.
      const byLabel = await request(stack.gateway.getHttpServer())
        .post('/api-management/ai/search')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: org, query: 'place an order for a pet', filters: { labels: { tier: 'gold' } } });
      expect(byLabel.body.results.map((result: { apiId: string; labels: object }) => [result.apiId, result.labels])).toEqual([
        [created.body.apiId, { tier: 'Gold' }],
      ]);
      const otherLabel = await request(stack.gateway.getHttpServer())
        .post('/api-management/ai/search')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: org, query: 'place an order for a pet', filters: { labels: { tier: 'silver' } } });
      expect(otherLabel.body.results).toEqual([]);
      const listed = await request(stack.gateway.getHttpServer())
        .get(`/api-management/apis?orgId=${org}&label=tier:GOLD`)
        .set('authorization', `Bearer ${publisher}`);
      expect(listed.body.items.map((item: { apiId: string }) => item.apiId)).toEqual([created.body.apiId]);

      // Feedback (migration SearchFeedback): the vote's upsert, the bounded read of near needs, the version in the cache key.
      const vote = await request(stack.gateway.getHttpServer())
        .post('/api-management/ai/feedback')
        .set('authorization', `Bearer ${publisher}`)
        .send({ searchId: found.body.searchId, apiId: created.body.apiId, operation: { method: 'POST', path: '/store/order' }, helpful: true });
      expect(vote.status).toBe(204);
      const learned = await request(stack.gateway.getHttpServer())
        .post('/api-management/ai/search')
        .set('authorization', `Bearer ${publisher}`)
        .send({ orgId: org, query: 'place an order for a pet' });
      expect(learned.body.results[0].evidence.feedback).toMatchObject({ helpful: 1, notHelpful: 0 });
    }, 120_000);
  });
}
