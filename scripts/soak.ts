import type { ApiRecord } from '#contracts';
import { PlatformClient, type RegisterBody } from './platform-client.js';

export interface SoakOptions {
  registrations: number;
  /** Share of registered APIs updated, and deleted, while registrations go on. */
  updateShare: number;
  deleteShare: number;
  concurrency: number;
  timeoutMs: number;
}

/** A word no other API contains, so a search for it must find exactly its API. */
const marker = (index: number, revision: number) => `soakmark${String(index).padStart(4, '0')}r${revision}`;

function specOf(index: number, revision: number): object {
  return {
    openapi: '3.0.3',
    info: { title: `Soak API ${index}`, version: '1', description: `Synthetic API ${index} (${marker(index, revision)}).` },
    paths: {
      [`/items${index}`]: { get: { summary: `List the items of ${marker(index, revision)}`, responses: { 200: { description: 'ok' } } } },
      [`/items${index}/{id}`]: { delete: { summary: `Remove one item of API ${index}`, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 204: { description: 'gone' } } } },
    },
  };
}

/** Runs `tasks` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

/**
 * `npm run bench -- --soak`: many registrations with concurrent updates, deletes and searches,
 * then a check that the registry and the index agree exactly — every live API indexed at its
 * latest revision and found by its own marker word, no deleted API anywhere in search.
 */
export async function soak(client: PlatformClient, orgId: string, options: SoakOptions): Promise<boolean> {
  const started = performance.now();
  const live = new Map<number, { apiId: string; revision: number }>();
  const deleted = new Map<number, string>();
  const counts = { registered: 0, updated: 0, deleted: 0, searches: 0, errors: 0 };
  const body = (index: number, revision: number): RegisterBody => ({ orgId, name: `Soak API ${index}`, version: '1', teamName: 'soak', spec: specOf(index, revision) });

  let searching = true;
  const searcher = (async () => {
    while (searching) {
      await client.search({ orgId, query: 'list the items of a synthetic api', maxResults: 20 }).catch(() => counts.errors++);
      counts.searches++;
    }
  })();

  await pool([...Array(options.registrations).keys()], options.concurrency, async (index) => {
    try {
      const record = await client.registerApi(body(index, 1));
      live.set(index, { apiId: record.apiId, revision: 1 });
      counts.registered++;
      // Act on an earlier API while its indexing may still be under way.
      const earlier = Math.floor(Math.random() * (index + 1));
      const target = live.get(earlier);
      const roll = Math.random();
      if (target && roll < options.deleteShare) {
        live.delete(earlier);
        await client.deleteApi(target.apiId);
        deleted.set(earlier, target.apiId);
        counts.deleted++;
      } else if (target && roll < options.deleteShare + options.updateShare) {
        target.revision += 1;
        await client.updateApi(target.apiId, body(earlier, target.revision));
        counts.updated++;
      }
    } catch (error) {
      counts.errors++;
      console.error(`  operation failed: ${(error as Error).message}`);
    }
    if ((index + 1) % 50 === 0) console.log(`  ${index + 1}/${options.registrations} registered, ${counts.updated} updated, ${counts.deleted} deleted, ${counts.searches} searches`);
  });
  searching = false;
  await searcher;
  const submittedSeconds = (performance.now() - started) / 1000;

  console.log('Waiting for indexing to settle…');
  const records = await client.waitUntilIndexed(orgId, (done, total, failed) => console.log(`  indexed ${done}/${total}${failed ? `, ${failed} failed` : ''}`), options.timeoutMs);

  // 1. The registry holds exactly the live APIs.
  const registryIds = new Set(records.map((record) => record.apiId));
  const expectedIds = new Set([...live.values()].map((api) => api.apiId));
  const registryMismatch = [...expectedIds].filter((id) => !registryIds.has(id)).length + [...registryIds].filter((id) => !expectedIds.has(id)).length;
  // 2. Each is COMPLETED at its latest revision (the status says PENDING while an older one is indexed).
  const byId = new Map<string, ApiRecord>(records.map((record) => [record.apiId, record]));
  const notCompleted = [...live.values()].filter(({ apiId, revision }) => byId.get(apiId)?.indexing?.status !== 'COMPLETED' || byId.get(apiId)?.revision !== revision);
  // 3. Search lists exactly the live APIs.
  const listed = await client.search({ orgId, query: '', maxResults: 50 });
  const listedIds = new Set(listed.results.map((result) => result.apiId));
  const searchMismatch = [...expectedIds].filter((id) => !listedIds.has(id)).length + [...listedIds].filter((id) => !expectedIds.has(id)).length;
  // 4. Each live API is found first by its newest marker; no deleted API is found by its own.
  let notFound = 0;
  await pool([...live.entries()], 4, async ([index, { apiId, revision }]) => {
    const response = await client.search({ orgId, query: marker(index, revision), maxResults: 1 });
    if (response.results[0]?.apiId !== apiId) notFound++;
  });
  let ghosts = 0;
  await pool([...deleted.entries()], 4, async ([index, apiId]) => {
    const response = await client.search({ orgId, query: marker(index, 1), maxResults: 5 });
    if (response.results.some((result) => result.apiId === apiId)) ghosts++;
  });

  const seconds = (performance.now() - started) / 1000;
  console.log(`
Soak of org "${orgId}": ${counts.registered} registrations, ${counts.updated} updates, ${counts.deleted} deletes, ${counts.searches} searches during them, ${counts.errors} errors
  submitted in ${submittedSeconds.toFixed(0)} s; everything indexed after ${seconds.toFixed(0)} s
  registry: ${records.length} APIs, expected ${live.size} (${registryMismatch} mismatched)
  indexed at the latest revision: ${live.size - notCompleted.length}/${live.size}
  search lists: ${listedIds.size} APIs (${searchMismatch} mismatched)
  found first by their own newest word: ${live.size - notFound}/${live.size}; deleted APIs still found: ${ghosts}/${deleted.size}`);
  const agreed = registryMismatch === 0 && notCompleted.length === 0 && searchMismatch === 0 && notFound === 0 && ghosts === 0 && counts.errors === 0;
  console.log(agreed ? 'Registry and index agree exactly.' : 'DISAGREEMENT between registry and index (see above).');
  return agreed;
}
