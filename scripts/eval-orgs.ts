/** The orgs `npm run eval` registers its corpora in, which `npm run bench -- --agent` reads too. */
export const EVAL_ORG = 'eval';
export const RESTBENCH_ORG = 'restbench';
