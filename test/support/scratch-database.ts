import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** A database of a suite's own on the server of `serverUrl` (TEST_DATABASE_URL), created and dropped by the suite. */
export interface ScratchDatabase {
  name: string;
  /** `serverUrl` naming this database. */
  url: string;
  create(): Promise<void>;
  /** Drops it (with its connections) if it was created. */
  drop(): Promise<void>;
}

export function scratchDatabase(serverUrl: string | undefined, prefix: string): ScratchDatabase {
  const name = `${prefix}_${randomUUID().slice(0, 8)}`;
  const url = new URL(serverUrl ?? 'postgres://localhost/none');
  url.pathname = `/${name}`;
  let created = false;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    name,
    url: url.toString(),
    create: async () => {
      await admin(`CREATE DATABASE ${name}`);
      created = true;
    },
    drop: async () => {
      if (created) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
