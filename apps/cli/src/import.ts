import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LIFECYCLE_STAGES, type LifecycleStage } from '#contracts';
import { scanTree } from './import-tree.js';
import { type SyncReport, syncTree } from './import-sync.js';
import { PlatformClient } from './platform-client.js';

/**
 * `npm run import`: registers the specs of a folder or a repository checkout (OpenAPI, AsyncAPI,
 * GraphQL SDL, .proto, MCP tools lists, Backstage catalog-info.yaml) and keeps them in sync, for CI.
 * Exit code 1 when a file failed (or, with --fail-on-breaking, broke a production version or could not be
 * proven not to: the gateway's comparison was not complete), 2 for bad usage.
 */
const USAGE = `Usage: npm run -s import -- --url <gateway URL> --org <orgId> [--team <name>] [--lifecycle <stage>] [--tree <name>]
       [--prune] [--dry-run] [--fail-on-breaking] [--token <JWT>] <path>...
The token (publisher) from --token or $API_DISCOVERY_TOKEN.`;
// The gateway's SPEC_MAX_BYTES default: a bigger file is refused before it is read whole.
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
        'dry-run': { type: 'boolean', default: false },
        'fail-on-breaking': { type: 'boolean', default: false },
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
// A dry run registers nothing, so nothing is compared: its exit code would pass a gate it never checked.
if (values['dry-run'] && values['fail-on-breaking'])
  usage('--fail-on-breaking cannot be checked in a --dry-run: nothing is registered, so nothing is compared');
if (values.lifecycle && !(LIFECYCLE_STAGES as readonly string[]).includes(values.lifecycle)) usage(`--lifecycle must be one of ${LIFECYCLE_STAGES.join(', ')}`);
const token = values.token || process.env.API_DISCOVERY_TOKEN;
if (!token) usage('No token: set API_DISCOVERY_TOKEN (or pass --token); get one with npm run token -- --org <orgId> --roles publisher');
for (const path of positionals) {
  if (!(await stat(path).catch(() => undefined))) usage(`no such file or folder: ${path}`);
}

const tree = values.tree || basename(resolve(positionals[0]));
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
  const report = await syncTree(client, scan, {
    orgId: values.org,
    tree,
    teamName: values.team,
    lifecycle: values.lifecycle as LifecycleStage | undefined,
    prune: values.prune,
    dryRun: values['dry-run'],
    onProgress: progress,
  });
  progress.end();
  console.log(summary(report));
  process.exitCode = report.failed.length > 0 || (values['fail-on-breaking'] && report.breaking.length > 0) ? 1 : 0;
} catch (error) {
  progress.end();
  // fetch's own message ("fetch failed") says nothing; its cause says why (ECONNREFUSED…).
  const cause = (error as Error).cause instanceof Error ? `: ${((error as Error).cause as Error).message}` : '';
  console.error(`Import stopped (${values.url}): ${(error as Error).message}${cause}`);
  process.exitCode = 1;
}

/** `12/40 files` on stderr: rewritten in place on a terminal, a line every few seconds in a CI log. */
function progressLine() {
  const terminal = process.stderr.isTTY;
  let last = 0;
  let shown = false;
  const show = (done: number, total: number) => {
    const now = Date.now();
    if (done < total && now - last < (terminal ? 100 : 5000)) return;
    last = now;
    shown = true;
    process.stderr.write(terminal ? `\r${done}/${total} files` : `${done}/${total} files\n`);
  };
  return Object.assign(show, { end: () => terminal && shown && process.stderr.write('\n') });
}

function summary(report: SyncReport): string {
  const lines = [
    values['dry-run'] ? `Plan for tree "${tree}" in org ${values.org} (dry run: nothing written)` : `Imported tree "${tree}" into org ${values.org}`,
  ];
  const listed = (label: string, paths: string[], list = true) => {
    lines.push(`${label.padEnd(10)} ${paths.length}`);
    if (list) lines.push(...paths.map((path) => `  ${path}`));
  };
  listed('added', report.added);
  listed('updated', report.updated);
  listed('unchanged', report.unchanged, false);
  if (values.prune) listed('deleted', report.deleted);
  listed('skipped', report.skipped, false);
  lines.push(`${'failed'.padEnd(10)} ${report.failed.length}`, ...report.failed.map(({ path, reason }) => `  ${path}: ${reason}`));
  if (report.breaking.length > 0) {
    lines.push(`breaking   ${report.breaking.length}`, ...report.breaking.flatMap(({ path, warnings }) => warnings.map((warning) => `  ${path}: ${warning}`)));
  }
  return lines.join('\n');
}
