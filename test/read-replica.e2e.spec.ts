import { DataSource } from 'typeorm';
import request from 'supertest';
import { readFixture, restbenchSpec } from './fixtures/fixtures.js';
import { startStack, type TestStack, until, waitForStatus } from './support/stack.js';

/**
 * DATABASE_READ_URL: search reads a streaming replica, while status, the search log and feedback
 * stay on the primary. Runs when TEST_DATABASE_URL (the primary) and TEST_READ_REPLICA_URL (a hot
 * standby of it, same database: `.ci/start-replica`) are set. The replica's replay is paused to
 * tell which side a read came from.
 */
const primaryUrl = process.env.TEST_DATABASE_URL;
const replicaUrl = process.env.TEST_READ_REPLICA_URL;
const describeWithReplica = primaryUrl && replicaUrl ? describe : describe.skip;

describeWithReplica('A read replica (DATABASE_READ_URL)', () => {
  const org = `replica-${Date.now()}`;
  let stack: TestStack;
  let replica: DataSource;
  let publisher: string;

  beforeAll(async () => {
    replica = await new DataSource({ type: 'postgres', url: replicaUrl, extra: { max: 1 } }).initialize();
    stack = await startStack({ env: { DATABASE_URL: primaryUrl!, DATABASE_READ_URL: replicaUrl! } });
    publisher = await stack.token([org], ['publisher']);
  }, 180_000);

  afterAll(async () => {
    await replica?.query(`SELECT pg_wal_replay_resume()`).catch(() => undefined);
    await replica?.destroy();
    await stack?.close();
  });

  const register = (name: string, spec: string) =>
    request(stack.gateway.getHttpServer())
      .post('/api-management/apis')
      .set('authorization', `Bearer ${publisher}`)
      .send({ orgId: org, name, version: '1', spec });
  const search = (query: string) =>
    request(stack.gateway.getHttpServer()).post('/api-management/ai/search').set('authorization', `Bearer ${publisher}`).send({ orgId: org, query });
  const found = async (query: string) => ((await search(query)).body.results ?? []).map((result: { apiName: string }) => result.apiName);

  it('should answer searches from the replica, and status and feedback from the primary', async () => {
    const petstore = await register('Petstore', readFixture('petstore-swagger2.yaml'));
    await expect(waitForStatus(stack, publisher, petstore.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
    await until(
      () => found('place an order for a pet'),
      (names) => names.includes('Petstore'),
    );

    // The replica stops replaying: what commits now is on the primary only.
    await replica.query(`SELECT pg_wal_replay_pause()`);
    const tmdb = await register('Movie Database', restbenchSpec('tmdb'));
    // Status reads the primary: the new API is COMPLETED there at once.
    await expect(waitForStatus(stack, publisher, tmdb.body.apiId)).resolves.toMatchObject({ status: 'COMPLETED' });
    // Search reads the replica: the new API is not there yet, and the cached answer is the replica's.
    expect(await found('search for movies by title')).not.toContain('Movie Database');
    // The search log and feedback are written to the primary (a standby refuses writes).
    const answer = await search('place an order for a pet');
    const vote = await request(stack.gateway.getHttpServer())
      .post('/api-management/ai/feedback')
      .set('authorization', `Bearer ${publisher}`)
      .send({ searchId: answer.body.searchId, apiId: petstore.body.apiId, helpful: true });
    expect(vote.status).toBe(204);

    // Replay resumes: the same search finds the new API (the result cache is keyed by the replica's versions).
    await replica.query(`SELECT pg_wal_replay_resume()`);
    await expect(
      until(
        () => found('search for movies by title'),
        (names) => names.includes('Movie Database'),
        60_000,
      ),
    ).resolves.toContain('Movie Database');
  }, 240_000);
});
