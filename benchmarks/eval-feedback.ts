import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchResult } from '#contracts';
import { type Grades, mean, operationRecall, percentile, type QueryMetrics, scoreRanking } from './eval-metrics.js';
import type { PlatformClient, RegisterBody } from '../apps/cli/src/platform-client.js';

/** A query of the public relevance set, as far as these protocols read it. */
export interface JudgedQuery {
  qid: string;
  query: string;
  relevant: Grades;
  /** The spec id of the main answer. */
  target?: string;
}

/** Two rewordings of a public query (`eval/paraphrases.jsonl`): `tuning` may tune weights, `check` is held out. */
export interface Paraphrase {
  qid: string;
  tuning: string;
  check: string;
}

export interface ParaphrasedQuery extends JudgedQuery {
  tuning: string;
  check: string;
}

/** A need of `eval/kinds/needs.jsonl`: the API (a key of `eval/kinds/apis.json`, or an id of its corpus) and operations that answer it. */
export interface KindNeed {
  id: string;
  kind: string;
  query: string;
  expected: string;
  operations: string[];
  event: boolean;
  /** Which half the need is in: ranking may be tuned on `tune`; `check` is reported, its misses never listed. */
  half: 'tune' | 'check';
}

/** A client whose token is one simulated person (its own `sub`). */
export type PersonClient = (sub: string) => Promise<PlatformClient>;

export interface FeedbackEvalOptions {
  orgId: string;
  queries: ParaphrasedQuery[];
  /** apiId → spec id of the org's APIs. */
  specOfApi: Map<string, string>;
  person: PersonClient;
  concurrency: number;
}

const COLLEAGUES = ['colleague-1', 'colleague-2', 'colleague-3'];
/** The wrong API sybils push for a need is one of the cards ranked 11–50: plausible, but not an answer. */
const FLOOD_RANKS = { from: 11, to: 50 } as const;
const TOP_RANKS = 10;
const WIDE_RANKS = 50;
/** Sybil rounds: accounts voting for the wrong API; the needs they vote on, and the unrelated needs watched per need. */
const SYBIL_ACCOUNTS = [1, 3, 20];
const SYBIL_NEEDS = 10;
const UNRELATED_NEEDS = 5;

/** `eval/` of the repository, from `benchmarks/` or from its build in `dist/benchmarks/`. */
export function evalDirectory(): string {
  const fromSource = fileURLToPath(new URL('../eval', import.meta.url));
  return existsSync(fromSource) ? fromSource : fileURLToPath(new URL('../../eval', import.meta.url));
}

export function readJsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
}

/** Each query with its paraphrases; a query without them, or a qid given twice, is an error (paraphrases of other queries are left out). */
export function pairParaphrases<Q extends JudgedQuery>(queries: Q[], paraphrases: Paraphrase[]): (Q & Paraphrase)[] {
  const byQid = new Map<string, Paraphrase>();
  for (const paraphrase of paraphrases) {
    if (byQid.has(paraphrase.qid)) throw new Error(`paraphrases: ${paraphrase.qid} is given twice`);
    if (!paraphrase.tuning?.trim() || !paraphrase.check?.trim()) throw new Error(`paraphrases: ${paraphrase.qid} lacks a tuning or a check paraphrase`);
    byQid.set(paraphrase.qid, paraphrase);
  }
  return queries.map((query) => {
    const paraphrase = byQid.get(query.qid);
    if (!paraphrase) throw new Error(`paraphrases: none for ${query.qid}`);
    return { ...query, tuning: paraphrase.tuning, check: paraphrase.check };
  });
}

/** 32-bit FNV-1a: a seed from a qid that is the same on every machine and run. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return hash;
}

/**
 * The API a flooder pushes for a query: among the cards ranked 11–50 of a 50-card search (apiIds in
 * rank order), one judged 0 or not judged for the query, chosen by the qid's seed.
 */
export function chooseFloodApi(qid: string, rankedApiIds: string[], grades: Grades, specOfApi: Map<string, string>): string | undefined {
  const wrong = rankedApiIds.slice(FLOOD_RANKS.from - 1, FLOOD_RANKS.to).filter((apiId) => !grades[specOfApi.get(apiId) ?? apiId]);
  return wrong.length > 0 ? wrong[seedOf(qid) % wrong.length] : undefined;
}

/**
 * Which public queries get votes: about half, by the qid's seed, so that the needs nobody voted on
 * are as many and as varied, and the same on every run.
 */
export function isVotedNeed(qid: string): boolean {
  return seedOf(`voted:${qid}`) % 2 === 0;
}

/**
 * `count` needs unrelated to `query` for watching a wrong API: other queries that do not judge
 * the API relevant, chosen by the qid's seed.
 */
export function unrelatedNeeds<Q extends JudgedQuery>(query: Q, wrongSpec: string, queries: Q[], count: number): Q[] {
  const others = queries.filter((other) => other.qid !== query.qid && !other.relevant[wrongSpec]);
  return others
    .map((other) => ({ other, order: seedOf(`${query.qid}:${other.qid}`) }))
    .sort((a, b) => a.order - b.order)
    .slice(0, count)
    .map(({ other }) => other);
}

/** 1-based rank of `id` in `ranked`, or `cap` when it is not there. */
export function rankOr(ranked: string[], id: string, cap: number): number {
  const index = ranked.indexOf(id);
  return index >= 0 ? index + 1 : cap;
}

/** Queries whose value went up and down from `before` to `after` (same order). */
export function countChanges(before: number[], after: number[], epsilon = 1e-9): { improved: number; worsened: number } {
  let improved = 0;
  let worsened = 0;
  before.forEach((value, index) => {
    if (after[index] > value + epsilon) improved++;
    else if (after[index] < value - epsilon) worsened++;
  });
  return { improved, worsened };
}

/** Runs `work` over `items`, at most `concurrency` at once. */
export async function eachLimit<T>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  });
  await Promise.all(workers);
}

/** A document of `eval/kinds/apis.json`: a file of `eval/kinds/specs`, or with `package`, a file inside that npm package. */
interface KindApi {
  package?: string;
  file: string;
  name: string;
  version: string;
  teamName: string;
}

/** The key needs name a document of `eval/kinds/apis.json` by: its file name, or `package/file`. */
export function kindApiKey(api: Pick<KindApi, 'package' | 'file'>): string {
  return api.package ? `${api.package}/${api.file}` : api.file;
}

/**
 * The text of a kinds document: from `eval/kinds/specs`, or from the installed package, found on
 * the node_modules paths Node would look in from here (not by resolving `package/package.json`:
 * a package whose `exports` leave it out, as @octokit/graphql-schema's do, refuses that).
 */
function readKindApi(directory: string, api: KindApi): string {
  if (!api.package) return readFileSync(join(directory, 'kinds/specs', api.file), 'utf8');
  const paths = createRequire(import.meta.url).resolve.paths(api.package) ?? [];
  const root = paths.map((path) => join(path, api.package!)).find((path) => existsSync(join(path, 'package.json')));
  if (!root) throw new Error(`eval/kinds/apis.json: the package ${api.package} is not installed (npm ci)`);
  return readFileSync(join(root, api.file), 'utf8');
}

/** Registrations of the documents `eval/kinds/apis.json` names, keyed by `kindApiKey`. */
export function kindSpecRegistrations(directory: string, orgId: string): { key: string; body: RegisterBody }[] {
  const { apis } = JSON.parse(readFileSync(join(directory, 'kinds/apis.json'), 'utf8')) as { apis: KindApi[] };
  return apis.map((api) => ({
    key: kindApiKey(api),
    body: { orgId, name: api.name, version: api.version, teamName: api.teamName, spec: readKindApi(directory, api) },
  }));
}

interface Searched {
  metrics: QueryMetrics;
  /** Rank of the target among the first 10 (11 when not there); undefined when the org lacks it. */
  targetRank?: number;
  /** Whether a card of the first 10 carries feedback evidence. */
  feedbackSeen: boolean;
  ms: number;
}

/** A group of the newcomer's searches: of which queries, in which words; one without a name is reported with the one before it. */
type SearchGroup = { name: string; of: (query: ParaphrasedQuery) => boolean; text: (query: ParaphrasedQuery) => string };

const GROUPS: SearchGroup[] = [
  { name: 'voted needs, as voted', of: (query) => isVotedNeed(query.qid), text: (query) => query.query },
  { name: 'voted needs, tuning paraphrases', of: (query) => isVotedNeed(query.qid), text: (query) => query.tuning },
  { name: 'voted needs, check paraphrases (held out)', of: (query) => isVotedNeed(query.qid), text: (query) => query.check },
  { name: 'needs nobody voted on', of: (query) => !isVotedNeed(query.qid), text: (query) => query.query },
  { name: 'needs nobody voted on, paraphrases (tuning + check)', of: (query) => !isVotedNeed(query.qid), text: (query) => query.tuning },
  { name: '', of: (query) => !isVotedNeed(query.qid), text: (query) => query.check },
];

/**
 * `npm run eval -- --feedback`: three colleagues vote for the judged answer of half the public
 * needs (`isVotedNeed`); does that help a newcomer with the same needs in other words, and leave
 * the needs nobody voted on as they were? Then sybils: 1, 3 and 20 accounts voting a wrong API on
 * a need; where does it get on that need, its paraphrases and unrelated needs? The org's
 * feedback is erased before, between and after the runs.
 */
export async function runFeedbackEval(options: FeedbackEvalOptions): Promise<void> {
  const admin = await options.person('feedback-admin');
  const erase = async (when: string) => {
    const erased = await admin.eraseFeedback(options.orgId);
    console.log(`Erased ${erased.signals} feedback signals of org "${options.orgId}" ${when}`);
  };
  await erase('before the runs');
  try {
    await learningRun(options, admin);
    for (const accounts of SYBIL_ACCOUNTS) {
      await erase(`before the sybil round of ${accounts}`);
      await sybilRun(options, admin, accounts);
    }
  } finally {
    await erase('at the end');
  }
}

async function learningRun(options: FeedbackEvalOptions, admin: PlatformClient): Promise<void> {
  const { queries, orgId, concurrency } = options;
  const apiIdOf = new Map([...options.specOfApi].map(([apiId, spec]) => [spec, apiId]));
  const newcomer = await options.person('newcomer');
  // One group at a time, each `concurrency` searches at once: more would meet the AI app's admission limit.
  const measure = async () => {
    const runs: Searched[][] = [];
    for (const group of GROUPS) runs.push(await searchGroup(newcomer, options, group));
    return runs;
  };
  const before = await measure();

  const colleagues = await Promise.all(COLLEAGUES.map((sub) => options.person(sub)));
  const voted = queries.filter((query) => isVotedNeed(query.qid) && query.target && apiIdOf.has(query.target));
  await eachLimit(voted, concurrency, async (query) => {
    for (const colleague of colleagues) {
      const { searchId } = await colleague.search({ orgId, query: query.query, maxResults: TOP_RANKS });
      await colleague.feedback({ searchId, apiId: apiIdOf.get(query.target!)!, helpful: true });
    }
  });
  const report = await admin.feedbackReport(orgId);
  console.log(
    `\nVotes: ${COLLEAGUES.length} colleagues each searched ${voted.length} of the ${queries.length} public needs and voted for its target; ` +
      `the other ${queries.filter((query) => !isVotedNeed(query.qid)).length} got no vote. The org holds ${report.signals} signals from ${report.people} people. ` +
      `Need matching: ${JSON.stringify(report.learning)}`,
  );
  const after = await measure();

  console.log(`\nLearning from feedback: the newcomer's searches (maxResults ${TOP_RANKS}) before and after the votes, judged by the public query's grades`);
  console.log(
    '| searches | queries | success@1 | success@5 | nDCG@10 | nDCG@10 up / down | target mean rank (11 = not in top 10) | top 10 with feedback evidence | p95 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const merged: { name: string; was: Searched[]; now: Searched[] }[] = [];
  GROUPS.forEach((group, index) => {
    if (group.name) merged.push({ name: group.name, was: [...before[index]], now: [...after[index]] });
    else {
      merged.at(-1)!.was.push(...before[index]);
      merged.at(-1)!.now.push(...after[index]);
    }
  });
  for (const { name, was, now } of merged) {
    const avg = (runs: Searched[], key: keyof QueryMetrics) => mean(runs.map((run) => run.metrics[key])).toFixed(3);
    const ranks = (runs: Searched[]) => mean(runs.flatMap((run) => (run.targetRank === undefined ? [] : [run.targetRank]))).toFixed(2);
    const { improved, worsened } = countChanges(
      was.map((run) => run.metrics.ndcg10),
      now.map((run) => run.metrics.ndcg10),
    );
    const seen = (runs: Searched[]) => runs.filter((run) => run.feedbackSeen).length;
    const p95 = (runs: Searched[]) =>
      percentile(
        runs.map((run) => run.ms),
        95,
      ).toFixed(0);
    console.log(
      `| ${name} | ${was.length} | ${avg(was, 'success1')} → ${avg(now, 'success1')} | ${avg(was, 'success5')} → ${avg(now, 'success5')} | ` +
        `${avg(was, 'ndcg10')} → ${avg(now, 'ndcg10')} | ${improved} / ${worsened} | ${ranks(was)} → ${ranks(now)} | ${seen(was)} → ${seen(now)} | ${p95(was)} → ${p95(now)} |`,
    );
  }
}

/** One group's searches by `client`, in query order. */
async function searchGroup(client: PlatformClient, options: FeedbackEvalOptions, group: SearchGroup): Promise<Searched[]> {
  const queries = options.queries.filter(group.of);
  const runs: Searched[] = new Array<Searched>(queries.length);
  const specs = new Set(options.specOfApi.values());
  await eachLimit(queries, options.concurrency, async (query, index) => {
    const started = performance.now();
    const response = await client.search({ orgId: options.orgId, query: group.text(query), maxResults: TOP_RANKS });
    const ms = performance.now() - started;
    const ranked = response.results.map((result) => options.specOfApi.get(result.apiId) ?? result.apiId);
    const inOrg = query.target !== undefined && specs.has(query.target);
    runs[index] = {
      metrics: scoreRanking(ranked, query.relevant),
      ...(inOrg ? { targetRank: rankOr(ranked, query.target!, TOP_RANKS + 1) } : {}),
      feedbackSeen: response.results.some((result: SearchResult) => result.evidence?.feedback !== undefined),
      ms,
    };
  });
  return runs;
}

/** Ranks of a sybil round's wrong API: on its need, its two paraphrases and its unrelated needs. */
interface SybilRanks {
  need: number;
  paraphrases: number[];
  unrelated: number[];
}

/**
 * `accounts` people each search a need once and vote for a wrong API of its ranks 11–50, on
 * `SYBIL_NEEDS` needs chosen by seed; another person searches the need, its paraphrases and
 * `UNRELATED_NEEDS` unrelated needs before and after.
 */
async function sybilRun(options: FeedbackEvalOptions, admin: PlatformClient, accounts: number): Promise<void> {
  const { orgId, queries, concurrency } = options;
  const observer = await options.person('observer');
  const rankedIds = async (text: string) =>
    (await observer.search({ orgId, query: text, maxResults: WIDE_RANKS, maxEndpoints: 1 })).results.map((result) => result.apiId);
  const ranksOf = async (query: ParaphrasedQuery, apiId: string, unrelated: ParaphrasedQuery[]): Promise<SybilRanks> => {
    const rank = async (text: string) => rankOr(await rankedIds(text), apiId, WIDE_RANKS + 1);
    return {
      need: await rank(query.query),
      paraphrases: [await rank(query.tuning), await rank(query.check)],
      unrelated: await Promise.all(unrelated.map((other) => rank(other.query))),
    };
  };

  const candidates = [...queries].sort((a, b) => seedOf(`sybil:${a.qid}`) - seedOf(`sybil:${b.qid}`));
  const targets: { query: ParaphrasedQuery; apiId: string; unrelated: ParaphrasedQuery[]; before: SybilRanks }[] = [];
  for (const query of candidates) {
    if (targets.length === SYBIL_NEEDS) break;
    const apiId = chooseFloodApi(query.qid, await rankedIds(query.query), query.relevant, options.specOfApi);
    if (!apiId) continue;
    const unrelated = unrelatedNeeds(query, options.specOfApi.get(apiId) ?? apiId, queries, UNRELATED_NEEDS);
    targets.push({ query, apiId, unrelated, before: await ranksOf(query, apiId, unrelated) });
  }
  const sybils = await Promise.all(Array.from({ length: accounts }, (_, index) => options.person(`sybil-${index + 1}`)));
  await eachLimit(targets, concurrency, async ({ query, apiId }) => {
    for (const sybil of sybils) {
      const { searchId } = await sybil.search({ orgId, query: query.query, maxResults: TOP_RANKS });
      await sybil.feedback({ searchId, apiId, helpful: true });
    }
  });
  const report = await admin.feedbackReport(orgId);
  const after: SybilRanks[] = new Array<SybilRanks>(targets.length);
  await eachLimit(targets, concurrency, async ({ query, apiId, unrelated }, index) => {
    after[index] = await ranksOf(query, apiId, unrelated);
  });

  console.log(
    `\nSybils: ${accounts} account${accounts === 1 ? '' : 's'} each searched ${targets.length} needs and voted for a wrong API of its ranks ${FLOOD_RANKS.from}–${FLOOD_RANKS.to}` +
      ` (the org then held ${report.signals} signals from ${report.people} people); the wrong API in another person's searches (maxResults ${WIDE_RANKS}; rank ${WIDE_RANKS + 1} = not returned)`,
  );
  console.log('| searches of | searches | in top 3 before → after | in top 10 before → after | median rank before → after |');
  console.log('|---|---|---|---|---|');
  const rows: [string, (ranks: SybilRanks) => number[]][] = [
    ['its need', (ranks) => [ranks.need]],
    ['its paraphrases (tuning + check)', (ranks) => ranks.paraphrases],
    [`${UNRELATED_NEEDS} unrelated needs each`, (ranks) => ranks.unrelated],
  ];
  for (const [name, of] of rows) {
    const was = targets.flatMap((target) => of(target.before));
    const now = after.flatMap(of);
    console.log(
      `| ${name} | ${was.length} | ${was.filter((rank) => rank <= 3).length} → ${now.filter((rank) => rank <= 3).length} | ` +
        `${was.filter((rank) => rank <= 10).length} → ${now.filter((rank) => rank <= 10).length} | ${percentile(was, 50)} → ${percentile(now, 50)} |`,
    );
  }
  const top3 = after.flatMap((ranks, index) =>
    ranks.unrelated.flatMap((rank, other) =>
      rank <= 3
        ? [
            `  ${targets[index].unrelated[other].qid} (sybils voted on ${targets[index].query.qid}): rank ${rank} (was ${targets[index].before.unrelated[other]})`,
          ]
        : [],
    ),
  );
  if (top3.length > 0) console.log(`The wrong API in the top 3 of an unrelated need (there should be none):\n${top3.join('\n')}`);
}

/** One need of `--kinds`, searched: where its API came and what the first card put first. */
interface KindOutcome {
  need: KindNeed;
  /** 1-based rank of the expected API among the cards (11 when not there). */
  rank: number;
  /** The first card's API key and its first operation. */
  first?: { api: string; operation?: string };
  /** The first card is the expected API and its first operation answers the need. */
  firstOperation: boolean;
  /** The first card is the expected API and one of its first 3 operations answers the need. */
  operationInFirst3: boolean;
  /** op-recall@5 of the expected API's card, when it is among the cards. */
  opRecall5?: number;
}

type KindRow = { s1: number[]; s5: number[]; s1Operation: number[]; operation3: number[]; ops: number[] };

const KIND_ROWS = [
  'openapi',
  'asyncapi',
  'graphql',
  'grpc',
  'mcp',
  'event needs (any kind)',
  'event needs answered by AsyncAPI',
  'tune half',
  'check half',
  'all',
];

/**
 * `npm run eval -- --kinds`: needs of every kind of API in an org of event, GraphQL, gRPC and MCP
 * APIs beside REST APIs of the same domains; success@1 and @5 of the expected API, success@1 with
 * the operation (the first card is the expected API and its first operation answers the need),
 * the operation in the first 3 of that card, and op-recall@5 of the expected API's card (over the
 * needs whose expected API is among the 10 cards). Rows per kind, then per half: each need is in
 * the `tune` or the `check` half (`eval/kinds/needs.jsonl`: within each kind, in id order, the
 * 1st, 3rd, 5th… need is tune, the others check; assigned before any measurement). Ranking may be
 * tuned on the tune half only: the misses of the check half are counted, never listed, and those
 * of the tune half are listed with `showMisses` (`--show-misses`).
 */
export async function runKindsEval(client: PlatformClient, orgId: string, needs: KindNeed[], keyOfApi: Map<string, string>, showMisses = false): Promise<void> {
  const unhalved = needs.filter((need) => need.half !== 'tune' && need.half !== 'check');
  if (unhalved.length > 0) throw new Error(`eval/kinds/needs.jsonl: ${unhalved.map((need) => need.id).join(', ')} lack a "half" (tune or check)`);
  const outcomes: KindOutcome[] = [];
  for (const need of needs) outcomes.push(await searchKindNeed(client, orgId, need, keyOfApi));
  const rows = new Map<string, KindRow>();
  for (const outcome of outcomes) {
    for (const group of kindGroups(outcome.need)) {
      const row = rows.get(group) ?? rows.set(group, { s1: [], s5: [], s1Operation: [], operation3: [], ops: [] }).get(group)!;
      row.s1.push(outcome.rank === 1 ? 1 : 0);
      row.s5.push(outcome.rank <= 5 ? 1 : 0);
      row.s1Operation.push(outcome.firstOperation ? 1 : 0);
      row.operation3.push(outcome.operationInFirst3 ? 1 : 0);
      if (outcome.opRecall5 !== undefined) row.ops.push(outcome.opRecall5);
    }
  }
  console.log(
    `\nKinds: ${needs.length} needs in org "${orgId}" (maxResults ${TOP_RANKS}, maxEndpoints 5); success@1 with the operation: the first card is the ` +
      `expected API and its first operation is one that answers the need; op-recall@5 over the needs whose API is among the cards`,
  );
  console.log('| needs of | needs | success@1 | success@5 | success@1 with the operation | operation in first 3 | op-recall@5 (cards) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const name of [...KIND_ROWS.filter((name) => rows.has(name)), ...[...rows.keys()].filter((name) => !KIND_ROWS.includes(name))]) {
    const { s1, s5, s1Operation, operation3, ops } = rows.get(name)!;
    const cells = [s1, s5, s1Operation, operation3].map((values) => mean(values).toFixed(3));
    console.log(`| ${name} | ${s1.length} | ${cells.join(' | ')} | ${mean(ops).toFixed(3)} (${ops.length}) |`);
  }
  printKindMisses(outcomes, showMisses);
}

/** The rows a need counts in: its kind, the event rows, its half, all. */
function kindGroups(need: KindNeed): string[] {
  return [
    need.kind,
    ...(need.event ? ['event needs (any kind)'] : []),
    ...(need.event && need.kind === 'asyncapi' ? ['event needs answered by AsyncAPI'] : []),
    `${need.half} half`,
    'all',
  ];
}

async function searchKindNeed(client: PlatformClient, orgId: string, need: KindNeed, keyOfApi: Map<string, string>): Promise<KindOutcome> {
  const response = await client.search({ orgId, query: need.query, maxResults: TOP_RANKS, maxEndpoints: 5 });
  const ranked = response.results.map((result) => keyOfApi.get(result.apiId) ?? result.apiId);
  const rank = rankOr(ranked, need.expected, TOP_RANKS + 1);
  const operations = (result: SearchResult | undefined) => (result?.endpoints ?? []).map((endpoint) => `${endpoint.method} ${endpoint.path}`);
  const first = response.results[0];
  const answersIn = (k: number) => rank === 1 && operationRecall(operations(first), need.operations, k) > 0;
  return {
    need,
    rank,
    ...(first ? { first: { api: ranked[0], operation: operations(first)[0] } } : {}),
    firstOperation: answersIn(1),
    operationInFirst3: answersIn(3),
    ...(rank <= TOP_RANKS ? { opRecall5: operationRecall(operations(response.results[rank - 1]), need.operations, 5) } : {}),
  };
}

/** The needs missed by success@1 with the operation: counted per half; the tune half's listed with `showMisses`, the check half's never. */
function printKindMisses(outcomes: KindOutcome[], showMisses: boolean): void {
  const missed = outcomes.filter((outcome) => !outcome.firstOperation);
  const count = (half: string) => missed.filter((outcome) => outcome.need.half === half).length;
  console.log(`Missed success@1 with the operation: ${count('tune')} tune needs, ${count('check')} check needs (check-half misses are never listed)`);
  if (!showMisses) return;
  const lines = missed
    .filter((outcome) => outcome.need.half === 'tune')
    .map(({ need, rank, first }) => {
      const wanted = `${need.expected} ${need.operations.join(' or ')}`;
      const got = first ? `${first.api} ${first.operation ?? '(no operation)'}` : '(no card)';
      return `  ${need.id} [${need.kind}] "${need.query}"\n    wanted ${wanted} (API rank ${rank > TOP_RANKS ? '>10' : rank})\n    first  ${got}`;
    });
  if (lines.length > 0) console.log(`Tune-half misses (first card and its first operation):\n${lines.join('\n')}`);
}
