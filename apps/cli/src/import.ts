import { stat, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { LIFECYCLE_STAGES, type LifecycleStage, TREE_NAME } from '#contracts';
import { planMarkdown, planText } from './import-report.js';
import { scanTree } from './import-tree.js';
import { syncTree } from './import-sync.js';
import { PlatformClient } from './platform-client.js';
import { defaultTreeName } from './tree-name.js';

/**
 * `npm run import`: the specs of a folder or a repository checkout (OpenAPI, AsyncAPI, GraphQL SDL,
 * .proto, MCP tools lists, Backstage catalog-info.yaml) as the org's APIs: the tree is the source
 * of truth. The gateway plans the whole tree first; `--dry-run` prints the plan, `--fail-on-breaking`
 * writes nothing when it breaks a version in production. Exit code 1 when an item failed or the gate
 * stopped the import, 2 for bad usage.
 */
const USAGE = `Usage: npm run -s import -- --url <gateway URL> --org <orgId> [--tree <name>] [--team <name>] [--lifecycle <stage>]
       [--prune] [--adopt] [--dry-run] [--fail-on-breaking] [--report <file.md>] [--output text|json] [--token <JWT>] <path>...
The tree's name defaults to the repository's remote and the folder's path in it (else the folder's absolute path).
The token from --token or $API_DISCOVERY_TOKEN (publisher; a --dry-run needs only membership of the org).`;
// The gateway's SPEC_MAX_BYTES default: a bigger file is refused before it is read whole, and a call carries no more text.
const SPEC_MAX_BYTES = 10 * 1024 * 1024;

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`);
  process.exit(2);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        url: { type: 'string', default: process.env.API_DISCOVERY_URL },
        org: { type: 'string' },
        team: { type: 'string' },
        lifecycle: { type: 'string' },
        tree: { type: 'string' },
        prune: { type: 'boolean', default: false },
        adopt: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        'fail-on-breaking': { type: 'boolean', default: false },
        report: { type: 'string' },
        output: { type: 'string', default: 'text' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    usage((error as Error).message);
  }
})();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.url) usage('--url is required (the gateway, e.g. http://localhost:8080)');
if (!values.org) usage('--org is required');
if (positionals.length === 0) usage('no path to import');
if (values.lifecycle && !(LIFECYCLE_STAGES as readonly string[]).includes(values.lifecycle)) usage(`--lifecycle must be one of ${LIFECYCLE_STAGES.join(', ')}`);
if (!['text', 'json'].includes(values.output)) usage('--output must be text or json');
if (values.tree !== undefined && !TREE_NAME.pattern.test(values.tree)) usage(`--tree must be ${TREE_NAME.rule}`);
const token = values.token || process.env.API_DISCOVERY_TOKEN;
if (!token) usage('No token: set API_DISCOVERY_TOKEN (or pass --token); get one with npm run token -- --org <orgId> --roles publisher');
for (const path of positionals) {
  if (!(await stat(path).catch(() => undefined))) usage(`no such file or folder: ${path}`);
}
// Two folders of one name (team1/specs, team2/specs) must never share a tree: a prune of one would delete the other's APIs.
if (positionals.length > 1 && !values.tree) usage('several paths make one tree: name it with --tree');

const tree = values.tree ?? (await defaultTreeName(positionals[0]));
const client = new PlatformClient(values.url.replace(/\/+$/, ''), token);
const progress = progressLine();

try {
  // The kinds the platform reads say which file endings can hold a spec.
  const { items: kinds } = await client.kinds();
  const extensions = new Map<string, string[]>();
  for (const { kind, fileExtensions } of kinds) {
    for (const ext of fileExtensions) extensions.set(ext, [...(extensions.get(ext) ?? []), kind]);
  }
  const scan = await scanTree(positionals, { extensions, kinds: new Set(kinds.map((known) => known.kind)), maxBytes: SPEC_MAX_BYTES });
  const result = await syncTree(client, scan, {
    orgId: values.org,
    tree,
    teamName: values.team,
    lifecycle: values.lifecycle as LifecycleStage | undefined,
    prune: values.prune,
    adopt: values.adopt,
    dryRun: values['dry-run'],
    failOnBreaking: values['fail-on-breaking'],
    compare: values.report !== undefined || values.output === 'json',
    maxBytesPerCall: SPEC_MAX_BYTES,
    onProgress: progress,
  });
  progress.end();
  const gate = { failOnBreaking: values['fail-on-breaking'], dryRun: values['dry-run'], prune: values.prune };
  if (values.report) await writeFile(values.report, planMarkdown(result, gate));
  console.log(values.output === 'json' ? JSON.stringify({ ...result, skipped: scan.skipped }, null, 2) : planText(result, gate, scan.skipped.length));
  process.exitCode = result.plan.counts.failed > 0 || result.stopped ? 1 : 0;
} catch (error) {
  progress.end();
  // fetch's own message ("fetch failed") says nothing; its cause says why (ECONNREFUSED…).
  const cause = (error as Error).cause instanceof Error ? `: ${((error as Error).cause as Error).message}` : '';
  console.error(`Import stopped (${values.url}): ${(error as Error).message}${cause}`);
  process.exitCode = 1;
}

/** `12/40 compared` on stderr: rewritten in place on a terminal, a line every few seconds in a CI log. */
function progressLine() {
  const terminal = process.stderr.isTTY;
  let last = 0;
  let shown = false;
  const show = (done: number, total: number, what: string) => {
    const now = Date.now();
    if (done < total && now - last < (terminal ? 100 : 5000)) return;
    last = now;
    shown = true;
    process.stderr.write(terminal ? `\r${done}/${total} ${what}` : `${done}/${total} ${what}\n`);
  };
  return Object.assign(show, { end: () => terminal && shown && process.stderr.write('\n') });
}
