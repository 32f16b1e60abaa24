import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAiConfig, loadGatewayConfig } from '#config';
import { SEARCH_MODES, type SearchMode, type SearchResponse } from '#contracts';
import { distinctNames, loadDirectorySpec } from '../apps/cli/src/demo-catalogue.js';
import {
  type BandRow,
  bandTable,
  crossValidated,
  type Feature,
  fitCalibration,
  type JudgedCard,
  separation,
  trainingCards,
  withoutAnswers,
} from './calibration.js';
import { type Grades, mean, operationRecall, percentile, scoreRanking } from './eval-metrics.js';
import { PlatformClient, PlatformError, type RegisterBody } from '../apps/cli/src/platform-client.js';
import { RELEVANCE_CALIBRATIONS, type RelevanceCalibration } from '../apps/ai/src/ranking/ranking.config.js';
import { calibratedRelevance } from '../apps/ai/src/search/relevance.js';
import { devSigningSecret, signDevToken } from '../apps/gateway/src/auth/dev-token.js';
import { isReady, startStackProcesses, waitUntilReady } from '../apps/cli/src/stack-processes.js';
import { EVAL_KINDS_ORG, EVAL_ORG, evalCorpusIds, RESTBENCH_ORG, restbenchQueries } from './eval-orgs.js';
import {
  evalDirectory,
  type KindNeed,
  kindSpecRegistrations,
  pairParaphrases,
  type Paraphrase,
  readJsonLines,
  runFeedbackEval,
  runKindsEval,
} from './eval-feedback.js';

const INDEXING_TIMEOUT_MS = 4 * 3600_000;
const REGISTER_CONCURRENCY = 4;
/** `--feedback`: simulated people searching and voting at once. */
const FEEDBACK_CONCURRENCY = 4;

interface EvalQuery {
  qid: string;
  query: string;
  type: 'capability' | 'operation' | 'data';
  relevant: Grades;
  operations: Record<string, string[]>;
  target?: string;
}

/**
 * `npm run eval`: registers the public relevance corpus and RestBench through the public API of
 * a running stack (or starts one on the same data directory), waits for indexing, then measures
 * every retrieval mode. A second run reuses what the stack already indexed. `--feedback` and
 * `--kinds` run their own protocols (`eval-feedback.ts`) instead, and the tables too with `--tables`.
 */
async function main(): Promise<void> {
  const options = parseOptions();
  const tables = options.tables || !(options.feedback || options.kinds);
  const modes = options.modes.split(',').map((mode) => mode.trim()) as SearchMode[];
  if (!modes.every((mode) => SEARCH_MODES.includes(mode))) throw new Error(`--modes takes ${SEARCH_MODES.join(', ')}`);

  const { client, baseUrl, secret } = await connect(options.url, options.feedback);
  if (options.kinds) await runKinds(client, options.reindex, options['show-misses']);
  if (!tables && !options.feedback) return;

  const corpus = evalCorpusIds(options.shared);
  const specOfApi = await registerAll(client, EVAL_ORG, corpusRegistrations(corpus, EVAL_ORG), options.reindex);
  const restbench = join(options.shared, 'benchmarks/restbench');
  const restbenchApis = options['skip-restbench'] || !tables ? new Map<string, string>() : await registerRestbench(client, restbench, options.reindex);
  const queries = readEvalQueries(options.shared, options.limit);

  if (options.feedback) {
    await runFeedback(baseUrl, secret, queries, specOfApi);
    if (!tables) return;
  }
  await measureModes(client, queries, corpus.length, specOfApi, modes, options['show-misses']);
  await measureCalibration(client, queries, specOfApi, modes, options.calibrate);

  if (restbenchApis.size === 0) return;
  const judged = await measureRestbench(client, restbench, restbenchApis, modes);
  if (judged.cards.length === 0) return;
  console.log('\nScore calibration on RestBench (the card of the API a query was written for is relevant, the other is not)');
  console.log('| cards | mode | AUC | top card strong | top card partial | top card weak | all cards strong | all cards partial | all cards weak |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  printCalibration('RestBench', 'hybrid', judged.cards, judged.scores);
  await printStrayStrong(client, queries);
}

function parseOptions() {
  return parseArgs({
    options: {
      url: { type: 'string' },
      shared: { type: 'string', default: '../shared' },
      modes: { type: 'string', default: SEARCH_MODES.join(',') },
      limit: { type: 'string' },
      'skip-restbench': { type: 'boolean', default: false },
      'show-misses': { type: 'boolean', default: false },
      calibrate: { type: 'boolean', default: false },
      reindex: { type: 'boolean', default: false },
      feedback: { type: 'boolean', default: false },
      kinds: { type: 'boolean', default: false },
      tables: { type: 'boolean', default: false },
    },
  }).values;
}

/** A client of the stack at `url` (by default the configured port, started here when nothing answers there). */
async function connect(url: string | undefined, feedback: boolean): Promise<{ client: PlatformClient; baseUrl: string; secret: string }> {
  const config = loadGatewayConfig();
  const baseUrl = url ?? `http://localhost:${config.port}`;
  if (!(await isReady(baseUrl).catch(() => false))) {
    if (url) throw new Error(`no ready stack at ${baseUrl}`);
    console.log(`No stack at ${baseUrl}: starting one (DEMO_SEED=false) on the same data directory…`);
    // The flood sends ~7000 calls as one person: the per-caller rate limit must not be what is measured.
    const limit = feedback ? { RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? '100000' } : {};
    await waitUntilReady(baseUrl, startStackProcesses({ ...process.env, DEMO_SEED: 'false', ...limit }), `http://127.0.0.1:${loadAiConfig().port}`);
  }
  const secret = devSigningSecret(config);
  const token = await signDevToken(secret, { sub: 'eval', orgs: [EVAL_ORG, RESTBENCH_ORG, EVAL_KINDS_ORG], roles: ['publisher'], ttlSeconds: 24 * 3600 });
  return { client: new PlatformClient(baseUrl, token), baseUrl, secret };
}

/** `--kinds`: the kinds corpus in an org of its own, then its protocol (`eval-feedback.ts`). */
async function runKinds(client: PlatformClient, reindex: boolean, showMisses: boolean): Promise<void> {
  const kindsCorpus = (JSON.parse(readFileSync(join(evalDirectory(), 'kinds/corpus.json'), 'utf8')) as { specs: string[] }).specs;
  const registrations = [...kindSpecRegistrations(evalDirectory(), EVAL_KINDS_ORG), ...corpusRegistrations(kindsCorpus, EVAL_KINDS_ORG)];
  const keyOfApi = await registerAll(client, EVAL_KINDS_ORG, registrations, reindex);
  await runKindsEval(client, EVAL_KINDS_ORG, readJsonLines<KindNeed>(join(evalDirectory(), 'kinds/needs.jsonl')), keyOfApi, showMisses);
}

function registerRestbench(client: PlatformClient, restbench: string, reindex: boolean): Promise<Map<string, string>> {
  return registerAll(
    client,
    RESTBENCH_ORG,
    (['tmdb', 'spotify'] as const).map((name) => ({
      key: name,
      body: { orgId: RESTBENCH_ORG, name: name === 'tmdb' ? 'TMDB' : 'Spotify', version: '1', spec: readFileSync(join(restbench, `${name}_oas.json`), 'utf8') },
    })),
    reindex,
  );
}

/** The public set's queries, the first `limit` of them when given. */
function readEvalQueries(shared: string, limit: string | undefined): EvalQuery[] {
  return readFileSync(join(shared, 'eval/queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EvalQuery)
    .slice(0, limit ? Number(limit) : undefined);
}

/** `--feedback`: simulated people, each an admin of the eval org with a token of their own. */
async function runFeedback(baseUrl: string, secret: string, queries: EvalQuery[], specOfApi: Map<string, string>): Promise<void> {
  const person = async (sub: string) =>
    new PlatformClient(baseUrl, await signDevToken(secret, { sub, orgs: [EVAL_ORG], roles: ['admin'], ttlSeconds: 24 * 3600 }));
  await runFeedbackEval({
    orgId: EVAL_ORG,
    queries: pairParaphrases(queries, readJsonLines<Paraphrase>(join(evalDirectory(), 'paraphrases.jsonl'))),
    specOfApi,
    person,
    concurrency: FEEDBACK_CONCURRENCY,
  });
}

/** The public relevance set's table: one row per mode. */
async function measureModes(
  client: PlatformClient,
  queries: EvalQuery[],
  specs: number,
  specOfApi: Map<string, string>,
  modes: SearchMode[],
  showMisses: boolean,
): Promise<void> {
  console.log(`\nPublic relevance set: ${queries.length} queries over ${specs} specs (${new Date().toISOString().slice(0, 10)})`);
  console.log('| mode | success@1 | success@5 | success@10 | MRR@10 | nDCG@10 | recall@10 | op-recall@5 | p50 ms | p95 ms |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const mode of modes) await measureMode(client, queries, specOfApi, mode, showMisses);
}

async function measureMode(client: PlatformClient, queries: EvalQuery[], specOfApi: Map<string, string>, mode: SearchMode, showMisses: boolean): Promise<void> {
  const perQuery: ReturnType<typeof scoreRanking>[] = [];
  const opRecalls: number[] = [];
  const latencies: number[] = [];
  const misses: string[] = [];
  for (const query of queries) {
    const started = performance.now();
    const response = await client.search({ orgId: EVAL_ORG, query: query.query, mode, maxResults: 10, maxEndpoints: 5 });
    latencies.push(performance.now() - started);
    const ranked = response.results.map((result) => specOfApi.get(result.apiId) ?? result.apiId);
    perQuery.push(scoreRanking(ranked, query.relevant));
    if (showMisses && perQuery.at(-1)!.success5 === 0) {
      const wanted = Object.keys(query.relevant).filter((id) => query.relevant[id] === 2);
      misses.push(`  ${query.qid} "${query.query}"\n    wanted ${wanted.join(', ')}\n    got    ${ranked.slice(0, 5).join(', ')}`);
    }
    if (query.type === 'operation') opRecalls.push(mean(goldOperationRecalls(query, response.results, specOfApi)));
  }
  if (misses.length > 0) console.log(`Queries of mode ${mode} with no fully relevant API in the top 5:\n${misses.join('\n')}`);
  const avg = (key: keyof ReturnType<typeof scoreRanking>) => mean(perQuery.map((m) => m[key])).toFixed(3);
  console.log(
    `| ${mode} | ${avg('success1')} | ${avg('success5')} | ${avg('success10')} | ${avg('mrr10')} | ${avg('ndcg10')} | ${avg('recall10')} | ${mean(opRecalls).toFixed(3)} | ${percentile(latencies, 50).toFixed(0)} | ${percentile(latencies, 95).toFixed(0)} |`,
  );
}

/** Operation recall@5 of each fully relevant card with gold operations. */
function goldOperationRecalls(query: EvalQuery, results: SearchResponse['results'], specOfApi: Map<string, string>): number[] {
  return results.flatMap((result) => {
    const gold = query.operations[specOfApi.get(result.apiId) ?? ''];
    return query.relevant[specOfApi.get(result.apiId) ?? ''] === 2 && gold?.length
      ? [
          operationRecall(
            result.endpoints.map((e) => `${e.method} ${e.path}`),
            gold,
            5,
          ),
        ]
      : [];
  });
}

/** RestBench's table, and the hybrid cards judged on the way for its calibration. */
async function measureRestbench(
  client: PlatformClient,
  restbench: string,
  restbenchApis: Map<string, string>,
  modes: SearchMode[],
): Promise<{ cards: JudgedCard[]; scores: number[] }> {
  console.log("\nRestBench: gold operations among the first k endpoints of the API's card (maxEndpoints 10)");
  console.log('| mode | TMDB op-recall@5 | TMDB op-recall@10 | Spotify op-recall@5 | Spotify op-recall@10 |');
  console.log('|---|---|---|---|---|');
  const apiIdOf = new Map([...restbenchApis].map(([apiId, key]) => [key, apiId]));
  const judged = { cards: [] as JudgedCard[], scores: [] as number[] };
  for (const mode of modes) {
    const cells: string[] = [];
    for (const name of ['tmdb', 'spotify'] as const) {
      const benchQueries = restbenchQueries(restbench, name);
      const at5: number[] = [];
      const at10: number[] = [];
      for (const query of benchQueries) {
        const response = await client.search({ orgId: RESTBENCH_ORG, query: query.query, mode, maxResults: 10, maxEndpoints: 10 });
        const card = response.results.find((result) => result.apiId === apiIdOf.get(name));
        if (mode === 'hybrid') {
          response.results.forEach((result, rank) => {
            judged.cards.push({ queryId: `${name}:${query.query}`, rank, evidence: result.evidence!, grade: result.apiId === apiIdOf.get(name) ? 2 : 0 });
            judged.scores.push(result.relevanceScore);
          });
        }
        const endpoints = card?.endpoints.map((e) => `${e.method} ${e.path}`) ?? [];
        at5.push(operationRecall(endpoints, query.solution, 5));
        at10.push(operationRecall(endpoints, query.solution, 10));
      }
      cells.push(mean(at5).toFixed(3), mean(at10).toFixed(3));
    }
    console.log(`| ${mode} | ${cells.join(' | ')} |`);
  }
  return judged;
}

/** Queries written for other APIs: few of them are about films or music, so few top cards should be strong. */
async function printStrayStrong(client: PlatformClient, queries: EvalQuery[]): Promise<void> {
  const strayStrong: string[] = [];
  for (const query of queries) {
    const [top] = (await client.search({ orgId: RESTBENCH_ORG, query: query.query, maxResults: 1 })).results;
    if (top?.match === 'strong') strayStrong.push(`  ${query.qid} "${query.query}" → ${top.apiName} ${top.relevanceScore}`);
  }
  console.log(`\nThe public set's ${queries.length} queries in the RestBench org (TMDB and Spotify only): ${strayStrong.length} top cards strong`);
  if (strayStrong.length > 0) console.log(strayStrong.join('\n'));
}

/**
 * How well relevanceScore separates relevant cards from the rest, in each mode: on the judged
 * searches as they are, and as in an org without their answers (`withoutAnswers`, from searches
 * of 50 cards). With `calibrate`, the same for calibrations fitted on these cards (cross-validated
 * by query), and the coefficients fitted on all of them, for `ranking.config.ts`.
 */
async function measureCalibration(
  client: PlatformClient,
  queries: EvalQuery[],
  specOfApi: Map<string, string>,
  modes: SearchMode[],
  calibrate: boolean,
): Promise<void> {
  console.log(
    '\nScore calibration: AUC of relevanceScore (fully relevant against irrelevant cards), and per match band the cards in it (share judged fully relevant)',
  );
  console.log('| cards | mode | AUC | top card strong | top card partial | top card weak | all cards strong | all cards partial | all cards weak |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const fitted: string[] = [];
  for (const mode of modes) {
    const wide: JudgedCard[] = [];
    const served: number[] = [];
    for (const query of queries) {
      const response = await client.search({ orgId: EVAL_ORG, query: query.query, mode, maxResults: 50, maxEndpoints: 1 });
      response.results.forEach((result, rank) => {
        wide.push({ queryId: query.qid, rank, evidence: result.evidence!, grade: query.relevant[specOfApi.get(result.apiId) ?? ''] ?? 0 });
        served.push(result.relevanceScore);
      });
    }
    const answered = wide.filter((card) => card.rank < 10);
    const unanswered = withoutAnswers(wide);
    // The calibration the stack scored with: the one that gives its scores.
    const calibration = Object.values(RELEVANCE_CALIBRATIONS).find(
      (candidate) => typeof candidate !== 'string' && Math.abs(calibratedRelevance(wide[0].evidence, candidate) - served[0]) < 1e-3,
    ) as RelevanceCalibration | undefined;
    printCalibration(
      'judged searches',
      mode,
      answered,
      served.filter((_, index) => wide[index].rank < 10),
    );
    if (calibration)
      printCalibration(
        'answers taken out',
        mode,
        unanswered,
        unanswered.map((card) => calibratedRelevance(card.evidence, calibration)),
      );
    if (!calibrate) continue;
    const training = trainingCards(wide);
    const features = CALIBRATION_FEATURES[mode];
    const scores = crossValidated([...answered, ...unanswered], training, features);
    printCalibration('judged, cross-validated fit', mode, answered, scores.slice(0, answered.length));
    printCalibration('answers taken out, cross-validated fit', mode, unanswered, scores.slice(answered.length));
    fitted.push(`  ${mode}: ${JSON.stringify(fitCalibration(training, features))}`);
    if (mode === 'hybrid') fitted.push(`  words (hybrid, another model): ${JSON.stringify(fitCalibration(training, ['relative', 'termCoverage']))}`);
  }
  if (fitted.length > 0) console.log(`\nCalibrations fitted on all these cards (for ranking.config.ts):\n${fitted.join('\n')}`);
}

/** Evidence each mode's calibration uses (see `calibrationFor`). */
const CALIBRATION_FEATURES: Record<SearchMode, Feature[]> = {
  hybrid: ['relative', 'similarity', 'termCoverage'],
  vector: ['relative', 'similarity'],
  keyword: ['relative', 'termCoverage'],
};

function printCalibration(set: string, mode: SearchMode, cards: JudgedCard[], relevance: number[]): void {
  const percent = (value: number) => (Number.isNaN(value) ? '–' : `${Math.round(value * 100)}%`);
  const cells = (rows: BandRow[]) => rows.map((row) => `${row.cards} (${percent(row.full)})`);
  const auc = separation(cards, relevance);
  const topIndexes = cards.flatMap((card, index) => (card.rank === 0 ? [index] : []));
  const top = bandTable(
    topIndexes.map((index) => cards[index]),
    topIndexes.map((index) => relevance[index]),
  );
  console.log(
    `| ${set} | ${mode} | ${Number.isNaN(auc) ? '–' : auc.toFixed(3)} | ${cells(top).join(' | ')} | ${cells(bandTable(cards, relevance)).join(' | ')} |`,
  );
}

/** One registration per corpus spec: title, version, provider as team; titles made unique (`distinctNames`). */
function corpusRegistrations(ids: string[], orgId: string): { key: string; body: RegisterBody }[] {
  return distinctNames(ids.map((id) => ({ id, ...loadDirectorySpec(id) }))).map(({ id, name, version, teamName, spec }) => ({
    key: id,
    body: { orgId, name, version, teamName, spec },
  }));
}

/**
 * Registers what the org lacks (and, with `reindex`, re-submits what it has, so a changed
 * chunker takes effect), waits for indexing, and maps each apiId to its key.
 */
async function registerAll(
  client: PlatformClient,
  orgId: string,
  registrations: { key: string; body: RegisterBody }[],
  reindex = false,
): Promise<Map<string, string>> {
  const identity = (name: string, version: string) => `${name.toLowerCase()}|${version}`;
  const existing = new Map((await client.listAllApis(orgId)).map((api) => [identity(api.name, api.version), api.apiId]));
  const missing = registrations.filter(({ body }) => reindex || !existing.has(identity(body.name, body.version)));
  console.log(`Org "${orgId}": ${existing.size} of ${registrations.length} APIs already registered${reindex ? ', re-submitting all' : ''}`);
  let registered = 0;
  const queue = [...missing];
  await Promise.all(
    Array.from({ length: REGISTER_CONCURRENCY }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const apiId = existing.get(identity(next.body.name, next.body.version));
        try {
          await (apiId ? client.updateApi(apiId, next.body) : client.registerApi(next.body));
        } catch (error) {
          if (!(error instanceof PlatformError && error.problem.status === 409)) console.warn(`  ${next.key}: ${(error as Error).message}`);
        }
        if (++registered % 50 === 0 || registered === missing.length) console.log(`  submitted ${registered}/${missing.length}`);
      }
    }),
  );
  const started = Date.now();
  const records = await client.waitUntilIndexed(
    orgId,
    (done, total, failed) => {
      const rate = done > 0 ? ` · ${((Date.now() - started) / 1000).toFixed(0)} s` : '';
      console.log(`  indexed ${done}/${total}${failed ? ` (${failed} failed)` : ''}${rate}`);
    },
    INDEXING_TIMEOUT_MS,
  );
  const keyOf = new Map(registrations.map(({ key, body }) => [identity(body.name, body.version), key]));
  return new Map(
    records.flatMap((record) => {
      const key = keyOf.get(identity(record.name, record.version));
      return key ? [[record.apiId, key] as [string, string]] : [];
    }),
  );
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(`Evaluation failed: ${(error as Error).message}`);
    process.exit(1);
  });
