/** The orgs `npm run eval` registers its corpora in, which `npm run bench -- --agent` reads too. */
export const EVAL_ORG = 'eval';
export const RESTBENCH_ORG = 'restbench';
/** `npm run eval -- --kinds`: the kind specs of `eval/kinds` beside REST APIs of the same domains. */
export const EVAL_KINDS_ORG = 'eval-kinds';
