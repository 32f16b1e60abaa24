import type { ApiRecord } from '#contracts';
import { PlatformClient, PlatformError, type RegisterBody } from '../apps/cli/src/platform-client.js';

export interface SoakOptions {
  registrations: number;
  /** Share of registered APIs updated, and deleted, while registrations go on. */
  updateShare: number;
  deleteShare: number;
  concurrency: number;
  /** Registrations start no faster than this (`--chaos`: so that its disruptions fall among them); unpaced without. */
  registrationsPerSecond?: number;
  timeoutMs: number;
  /**
   * Things done to the stack while registrations go on (`--chaos`: Redis restarted empty, the AI
   * app killed), each started once `afterRegistrations` are done and after the one before ended,
   * told how many are done by then. Searches may fail meanwhile: they are counted, not held
   * against the agreement.
   */
  disruptions?: { afterRegistrations: number; run: (registered: number) => Promise<void> }[];
}

/** A word no other API contains, so a search for it must find exactly its API. */
const marker = (index: number, revision: number) => `soakmark${String(index).padStart(4, '0')}r${revision}`;

function specOf(index: number, revision: number): object {
  return {
    openapi: '3.0.3',
    info: { title: `Soak API ${index}`, version: '1', description: `Synthetic API ${index} (${marker(index, revision)}).` },
    paths: {
      [`/items${index}`]: { get: { summary: `List the items of ${marker(index, revision)}`, responses: { 200: { description: 'ok' } } } },
      [`/items${index}/{id}`]: {
        delete: {
          summary: `Remove one item of API ${index}`,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 204: { description: 'gone' } },
        },
      },
    },
  };
}

/** Runs `tasks` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
}

/** What the soak did and saw, shared by its phases. */
interface SoakState {
  started: number;
  live: Map<number, { apiId: string; revision: number }>;
  deleted: Map<number, string>;
  counts: { registered: number; updated: number; deleted: number; searches: number; errors: number };
  failedSearches: Map<string, { count: number; first: number; last: number }>;
  /** When the last disruption ended (0: none). */
  disrupted: { until: number };
}

const secondsSince = (from: number) => (performance.now() - from) / 1000;
const bodyOf = (orgId: string, index: number, revision: number): RegisterBody => ({
  orgId,
  name: `Soak API ${index}`,
  version: '1',
  teamName: 'soak',
  spec: specOf(index, revision),
});

/**
 * `npm run bench -- --soak`: many registrations with concurrent updates, deletes and searches,
 * then a check that the registry and the index agree exactly — every live API indexed at its
 * latest revision and found by its own marker word, no deleted API anywhere in search.
 */
export async function soak(client: PlatformClient, orgId: string, options: SoakOptions): Promise<boolean> {
  const state: SoakState = {
    started: performance.now(),
    live: new Map(),
    deleted: new Map(),
    counts: { registered: 0, updated: 0, deleted: 0, searches: 0, errors: 0 },
    failedSearches: new Map(),
    disrupted: { until: 0 },
  };
  const searcher = searchMeanwhile(client, orgId, state);
  const disruptions = scheduleDisruptions(options.disruptions ?? [], state);
  const register = (index: number) => registerAndChurn(client, orgId, options, state, index, disruptions.whenDue);
  await pool([...Array(options.registrations).keys()], options.concurrency, register);
  const submittedSeconds = secondsSince(state.started);
  try {
    await disruptions.done();
  } finally {
    await searcher.stop();
  }

  console.log('Waiting for indexing to settle…');
  const records = await client
    .waitUntilIndexed(orgId, (done, total, failed) => console.log(`  indexed ${done}/${total}${failed ? `, ${failed} failed` : ''}`), options.timeoutMs)
    .catch(async (error: Error) => {
      console.log(`  ${error.message}; checking what there is`);
      return client.listAllApis(orgId);
    });
  const settledAt = performance.now();
  const check = await checkAgreement(client, orgId, records, state);

  const { counts, live, deleted, failedSearches, disrupted, started } = state;
  const failed = [...failedSearches].map(([why, { count, first, last }]) => `${why} ×${count} (+${first.toFixed(1)}…+${last.toFixed(1)} s)`);
  console.log(`
Soak of org "${orgId}": ${counts.registered} registrations, ${counts.updated} updates, ${counts.deleted} deletes, ${counts.errors} errors; ${counts.searches} searches during them${failed.length ? `, failed: ${failed.join(', ')}` : ''}
  submitted in ${submittedSeconds.toFixed(0)} s; everything indexed after ${((settledAt - started) / 1000).toFixed(0)} s${disrupted.until ? `, ${((settledAt - disrupted.until) / 1000).toFixed(0)} s after the last disruption ended` : ''}
  registry: ${records.length} APIs, expected ${live.size} (${check.registryMismatch} mismatched)
  indexed at the latest revision: ${live.size - check.notCompleted}/${live.size}
  search lists: ${check.listed} APIs (${check.searchMismatch} mismatched)
  found first by their own newest word: ${live.size - check.notFound}/${live.size}; deleted APIs still found: ${check.ghosts}/${deleted.size}`);
  const searchesHeld = options.disruptions ? 0 : [...failedSearches.values()].reduce((sum, { count }) => sum + count, 0);
  const agreed =
    check.registryMismatch === 0 &&
    check.notCompleted === 0 &&
    check.searchMismatch === 0 &&
    check.notFound === 0 &&
    check.ghosts === 0 &&
    counts.errors === 0 &&
    searchesHeld === 0;
  console.log(agreed ? 'Registry and index agree exactly.' : 'DISAGREEMENT between registry and index (see above).');
  return agreed;
}

/** Searches one after another until stopped, failures counted by cause. */
function searchMeanwhile(client: PlatformClient, orgId: string, state: SoakState): { stop: () => Promise<void> } {
  let searching = true;
  const searcher = (async () => {
    while (searching) {
      state.counts.searches++;
      await client.search({ orgId, query: 'list the items of a synthetic api', maxResults: 20 }).catch(async (error: Error) => {
        const why = error instanceof PlatformError ? String(error.problem.status) : error.message;
        const at = secondsSince(state.started);
        const failed = state.failedSearches.get(why) ?? { count: 0, first: at, last: at };
        state.failedSearches.set(why, { ...failed, count: failed.count + 1, last: at });
        await new Promise((resolve) => setTimeout(resolve, 250)); // a dependency is down: no busy loop
      });
    }
  })();
  return {
    stop: () => {
      searching = false;
      return searcher;
    },
  };
}

/** Each disruption in turn, from the registration that reaches its mark. */
function scheduleDisruptions(planned: NonNullable<SoakOptions['disruptions']>, state: SoakState): { whenDue: () => void; done: () => Promise<void> } {
  const disruptions = [...planned].sort((a, b) => a.afterRegistrations - b.afterRegistrations);
  let disrupting = Promise.resolve();
  const whenDue = () => {
    while (disruptions.length > 0 && state.counts.registered >= disruptions[0].afterRegistrations) {
      const { run } = disruptions.shift()!;
      disrupting = disrupting.then(() => run(state.counts.registered)).then(() => void (state.disrupted.until = performance.now()));
      disrupting.catch(() => undefined); // awaited (and thrown) after the registrations
    }
  };
  return { whenDue, done: () => disrupting };
}

/** Registration `index` (paced when asked), then an update or delete of an earlier API by chance. */
async function registerAndChurn(
  client: PlatformClient,
  orgId: string,
  options: SoakOptions,
  state: SoakState,
  index: number,
  disruptWhenDue: () => void,
): Promise<void> {
  const { live, counts } = state;
  const slot = options.registrationsPerSecond ? state.started + (index * 1000) / options.registrationsPerSecond - performance.now() : 0;
  if (slot > 0) await new Promise((resolve) => setTimeout(resolve, slot));
  try {
    const record = await client.registerApi(bodyOf(orgId, index, 1));
    live.set(index, { apiId: record.apiId, revision: 1 });
    counts.registered++;
    disruptWhenDue();
    // Act on an earlier API while its indexing may still be under way.
    const earlier = Math.floor(Math.random() * (index + 1));
    const target = live.get(earlier);
    const roll = Math.random();
    if (target && roll < options.deleteShare) {
      live.delete(earlier);
      await client.deleteApi(target.apiId);
      state.deleted.set(earlier, target.apiId);
      counts.deleted++;
    } else if (target && roll < options.deleteShare + options.updateShare) {
      target.revision += 1;
      await client.updateApi(target.apiId, bodyOf(orgId, earlier, target.revision));
      counts.updated++;
    }
  } catch (error) {
    counts.errors++;
    console.error(`  operation failed: ${(error as Error).message}`);
  }
  if ((index + 1) % 50 === 0)
    console.log(`  ${index + 1}/${options.registrations} registered, ${counts.updated} updated, ${counts.deleted} deleted, ${counts.searches} searches`);
}

/** The four checks of the agreement, as counts of what disagrees. */
async function checkAgreement(client: PlatformClient, orgId: string, records: ApiRecord[], { live, deleted }: SoakState) {
  // 1. The registry holds exactly the live APIs.
  const registryIds = new Set(records.map((record) => record.apiId));
  const expectedIds = new Set([...live.values()].map((api) => api.apiId));
  const registryMismatch = [...expectedIds].filter((id) => !registryIds.has(id)).length + [...registryIds].filter((id) => !expectedIds.has(id)).length;
  // 2. Each is COMPLETED at its latest revision (the status says PENDING while an older one is indexed).
  const byId = new Map<string, ApiRecord>(records.map((record) => [record.apiId, record]));
  const notCompleted = [...live.values()].filter(
    ({ apiId, revision }) => byId.get(apiId)?.indexing?.status !== 'COMPLETED' || byId.get(apiId)?.revision !== revision,
  );
  for (const { apiId, revision } of notCompleted.slice(0, 10)) {
    const record = byId.get(apiId);
    console.log(
      `  not indexed: ${apiId} r${revision}: ${record ? `registry r${record.revision}, ${JSON.stringify(record.indexing ?? 'no status')}` : 'missing from the registry'}`,
    );
  }
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
  return { registryMismatch, notCompleted: notCompleted.length, listed: listedIds.size, searchMismatch, notFound, ghosts };
}
