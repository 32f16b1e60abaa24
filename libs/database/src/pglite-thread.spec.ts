import { createRequire } from 'node:module';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import { PGliteThread } from './pglite-thread.js';

const { serialize } = createRequire(import.meta.url)('pg-protocol') as typeof import('pg-protocol');

describe(PGliteThread.name, () => {
  let thread: PGliteThread;
  beforeAll(async () => {
    thread = new PGliteThread('memory://');
    await thread.waitReady;
  }, 60_000);
  afterAll(async () => thread?.close());

  const names = (messages: BackendMessage[]) => messages.map((message) => message.name);

  it('should answer queries, errors and the extended protocol as PostgreSQL does', async () => {
    expect(names(await thread.execProtocolStream(serialize.query('SELECT 1 AS one')))).toEqual([
      'rowDescription',
      'dataRow',
      'commandComplete',
      'readyForQuery',
    ]);
    const failed = await thread.execProtocolStream(serialize.query('SELECT * FROM nowhere'));
    expect(failed[0]).toMatchObject({ name: 'error', code: '42P01' });
    // Parse, Bind, Describe and Execute wait for the Sync, and travel with it.
    const extended = [
      serialize.parse({ text: 'SELECT $1::int + 1 AS two', types: [] }),
      serialize.bind({ values: ['1'] }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
    ];
    for (const message of extended) expect(await thread.execProtocolStream(message)).toEqual([]);
    const answered = await thread.execProtocolStream(serialize.sync());
    expect(names(answered)).toEqual(['parseComplete', 'bindComplete', 'rowDescription', 'dataRow', 'commandComplete', 'readyForQuery']);
  });

  it('should keep no part of an answer once it is sent: large answers again and again stay within its heap', async () => {
    // 28 MB an answer, 25 times, in a thread whose heap ends at 512 MB: a list of every parsed answer had grown to 4 GB.
    for (let round = 0; round < 25; round += 1) {
      const answer = await thread.execProtocolStream(serialize.query(`SELECT repeat('x', 280000) || g AS spec FROM generate_series(1, 100) g`));
      expect(answer).toHaveLength(103);
    }
  }, 120_000);
});
